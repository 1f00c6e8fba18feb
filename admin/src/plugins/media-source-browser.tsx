import { useEffect, useState } from "preact/hooks";
import { manage, newActionKey, type ManageAnswer } from "../api/client";
import { formatBytes, type MediaItem } from "../media/types";
import { paths } from "../router";
import { currentSiteId } from "../state/session";
import { Button, Field, Link } from "../ui/controls";
import "../styles/plugins.css";

export type MediaSource = ManageAnswer<"listMediaSources">["data"][number];
type Item = ManageAnswer<"listMediaSourceItems">["data"][number];

/**
 * A plugin's media source: search its items (24 a page, "More items") and import one into the
 * library as a copy (the service fetches the bytes through the outbound policy and the upload
 * checks), or link it (mode `reference`: the file stays at the plugin, cannot be replaced) when
 * the source offers it (docs/media.md, "Media sources of plugins"). Used by the media library's
 * "Add from …" dialog and by Settings › Plugins; `onDone` gets the library item and the words.
 */
export function MediaSourceBrowser({
  source,
  onDone,
  onFailed,
  onStart,
  browseAtOnce = false,
  libraryLink = false,
  class: cls,
}: {
  source: MediaSource;
  onDone: (words: string, media: MediaItem) => void;
  onFailed: (e: unknown) => void;
  /** A new request began: an earlier refusal may leave the screen. */
  onStart?: () => void;
  /** List the first page when shown (the library's dialog), rather than after "Browse". */
  browseAtOnce?: boolean;
  /** Offer a link to the media library (Settings › Plugins). */
  libraryLink?: boolean;
  class?: string;
}) {
  const [q, setQ] = useState("");
  const [items, setItems] = useState<Item[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const name = `${source.label} (${source.plugin_name})`;

  const browse = async (cursor: string | null) => {
    setBusy(true);
    onStart?.();
    try {
      const page = await manage("listMediaSourceItems", { params: { installationId: source.installation_id, sourceId: source.source_id }, query: { ...(q.trim() ? { q: q.trim() } : {}), ...(cursor ? { cursor } : {}) } });
      setItems((shown) => (cursor && shown ? [...shown, ...page.data] : page.data));
      setNext(page.next_cursor);
    } catch (error) {
      onFailed(error);
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => {
    if (browseAtOnce) void browse(null);
  }, [source.installation_id, source.source_id]);

  const importItem = async (item: Item, mode: "copy" | "reference") => {
    setBusy(true);
    onStart?.();
    try {
      const answer = await manage("importMediaSourceItem", { params: { installationId: source.installation_id, sourceId: source.source_id }, body: { item_id: item.id, mode }, key: newActionKey() });
      const reused = "reused" in answer && answer.reused === true;
      onDone(reused ? `${item.title} was already in the media library${mode === "reference" ? " (linked)" : ""}: showing it.` : `${item.title} is in the media library${mode === "reference" ? " (linked)" : ""}.`, answer.media);
    } catch (error) {
      onFailed(error);
    } finally {
      setBusy(false);
    }
  };
  const site = currentSiteId.value;

  return (
    <div class={["plugin-source", cls ?? ""].join(" ").trim()}>
      <div>
        <strong>{source.label}</strong> <span class="muted">{`· ${source.plugin_name} · ${source.modes.map((m) => (m === "copy" ? "import a copy" : "link")).join(" or ")}`}</span>
      </div>
      <form
        class="plugin-source-search"
        role="search"
        aria-label={`Search ${name}`}
        onSubmit={(e) => {
          e.preventDefault();
          void browse(null);
        }}
      >
        <Field label={`Search ${source.label}`}>{(f) => <input id={f.id} type="search" maxLength={200} value={q} onInput={(e) => setQ(e.currentTarget.value)} />}</Field>
        <Button type="submit" busy={busy}>
          {browseAtOnce ? "Search" : "Browse"}
        </Button>
      </form>
      {items && items.length === 0 ? <p class="muted">{`Nothing in ${source.label} matches.`}</p> : null}
      {items && items.length ? (
        <ul class="source-items" aria-label={`Items of ${name}`}>
          {items.map((item) => (
            <li>
              {item.thumbnail_url ? <img src={item.thumbnail_url} alt="" width={64} height={64} loading="lazy" referrerpolicy="no-referrer" /> : null}
              <span>
                {item.title} <span class="muted">{`${item.file_name} · ${formatBytes(item.size)}${item.attribution ? ` · ${item.attribution}` : ""}`}</span>
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
      {libraryLink && site ? <Link href={paths.media(site)}>Open the media library</Link> : null}
    </div>
  );
}
