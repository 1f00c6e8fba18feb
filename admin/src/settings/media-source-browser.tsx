import { useState } from "preact/hooks";
import { manage, newActionKey, type ManageAnswer } from "../api/client";
import { paths } from "../router";
import { currentSiteId } from "../state/session";
import { Button, Field, Link } from "../ui/controls";

type Source = ManageAnswer<"listMediaSources">["data"][number];
type Item = ManageAnswer<"listMediaSourceItems">["data"][number];

/**
 * A plugin's media source: search its items (24 a page) and import one into the library as a
 * copy (the service fetches the bytes through the outbound policy and the upload checks), or as
 * a linked reference when the source offers it (docs/media.md, "Media sources of plugins").
 */
export function MediaSourceBrowser({ source, onDone, onFailed }: { source: Source; onDone: (t: string) => void; onFailed: (e: unknown) => void }) {
  const [q, setQ] = useState("");
  const [items, setItems] = useState<Item[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const name = `${source.label} (${source.plugin_name})`;

  const browse = async (cursor: string | null) => {
    setBusy(true);
    try {
      const page = await manage("listMediaSourceItems", { params: { installationId: source.installation_id, sourceId: source.source_id }, query: { ...(q ? { q } : {}), ...(cursor ? { cursor } : {}) } });
      setItems(cursor && items ? [...items, ...page.data] : page.data);
      setNext(page.next_cursor);
    } catch (error) {
      onFailed(error);
    } finally {
      setBusy(false);
    }
  };
  const importItem = async (item: Item, mode: "copy" | "reference") => {
    setBusy(true);
    try {
      await manage("importMediaSourceItem", { params: { installationId: source.installation_id, sourceId: source.source_id }, body: { item_id: item.id, mode }, key: newActionKey() });
      onDone(`${item.title} is in the media library${mode === "reference" ? " (linked)" : ""}.`);
    } catch (error) {
      onFailed(error);
    } finally {
      setBusy(false);
    }
  };
  const site = currentSiteId.value;

  return (
    <div class="settings-item settings-source">
      <div>
        <strong>{source.label}</strong> <span class="muted">{`· ${source.plugin_name} · ${source.modes.join(" or ")}`}</span>
      </div>
      <form
        class="row"
        role="search"
        aria-label={`Search ${name}`}
        onSubmit={(e) => {
          e.preventDefault();
          void browse(null);
        }}
      >
        <Field label={`Search ${source.label}`}>{(f) => <input id={f.id} type="search" value={q} onInput={(e) => setQ(e.currentTarget.value)} />}</Field>
        <Button type="submit" busy={busy}>
          Browse
        </Button>
      </form>
      {items ? (
        <ul class="source-items" aria-label={`Items of ${name}`}>
          {items.map((item) => (
            <li>
              {item.thumbnail_url ? <img src={item.thumbnail_url} alt="" width={64} height={64} loading="lazy" /> : null}
              <span>
                {item.title} <span class="muted">{`${item.file_name} · ${Math.ceil(item.size / 1024)} KB${item.attribution ? ` · ${item.attribution}` : ""}`}</span>
              </span>
              {source.modes.includes("copy") ? (
                <Button busy={busy} aria-label={`Import ${item.title} as a copy`} onClick={() => importItem(item, "copy")}>
                  Import
                </Button>
              ) : null}
              {source.modes.includes("reference") ? (
                <Button busy={busy} aria-label={`Link ${item.title}`} onClick={() => importItem(item, "reference")}>
                  Link
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {next ? (
        <Button busy={busy} onClick={() => browse(next)}>
          More items
        </Button>
      ) : null}
      {site ? <Link href={paths.media(site)}>Open the media library</Link> : null}
    </div>
  );
}
