import { useEffect, useId, useState } from "preact/hooks";
import { manage, type ManageAnswer } from "../api/client";
import { languageLabel } from "../media/types";
import { Button } from "../ui/controls";
import { PickerDialog } from "../ui/picker-dialog";

type Listed = ManageAnswer<"listEntries">["data"][number];
type ModelSummary = ManageAnswer<"listModels">["data"][number];

/**
 * The address a rich-text link to an entry gets (docs/admin-ui-fields.md, "Links to entries"): the
 * website address of its model's `site_path` (`/blog/{slug}`), as publishing and redirects compute
 * it; a model without one links `/<model slug>/<slug>` (the item's public API path without `/v1`),
 * which the website resolves. The sanitiser keeps only the href, so the link is plain HTML.
 */
export function entryHref(model: Pick<ModelSummary, "slug" | "settings"> | undefined, entry: Pick<Listed, "model_slug" | "lang" | "slug">): string | null {
  if (!entry.slug) return null;
  const pattern = (model?.settings as { site_path?: string | null } | undefined)?.site_path;
  if (pattern) return pattern.replace("{slug}", entry.slug).replace("{lang}", entry.lang);
  return `/${entry.model_slug}/${entry.slug}`;
}

/**
 * "Link to an entry": search entries of every model by title (`listEntries` `q`, the service's own
 * search, in the field's language), choose one, and the selection becomes a link to its address.
 */
export function EntryLinkDialog({ open, lang, onPick, onClose }: { open: boolean; lang: string; onPick: (href: string, label: string) => void; onClose: () => void }) {
  const id = useId();
  const [query, setQuery] = useState("");
  const [found, setFound] = useState<Listed[] | null>(null);
  const [models, setModels] = useState<Map<string, ModelSummary>>(new Map());
  const [note, setNote] = useState("");

  useEffect(() => {
    if (!open) return;
    setQuery("");
    setNote("");
    manage("listModels").then((answer) => setModels(new Map(answer.data.map((m) => [m.id, m]))), () => setModels(new Map()));
  }, [open]);

  // Asked 300 ms after typing stops; an empty search lists the latest entries.
  useEffect(() => {
    if (!open) return;
    let live = true;
    const timer = window.setTimeout(() => {
      manage("listEntries", { query: { lang, limit: "20", ...(query.trim() ? { q: query.trim() } : {}) } }).then(
        (answer) => live && setFound(answer.data),
        () => live && setFound([]),
      );
    }, 300);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [open, query, lang]);

  return (
    <PickerDialog
      open={open}
      title="Link to an entry"
      onClose={onClose}
      footer={
        <Button variant="ghost" onClick={onClose}>
          Cancel
        </Button>
      }
    >
      <div class="field">
        <label for={`${id}-q`}>Search by title</label>
        <input id={`${id}-q`} type="search" value={query} onInput={(e) => setQuery(e.currentTarget.value)} aria-controls={`${id}-results`} />
      </div>
      <p class="muted" role="status">
        {note || (found === null ? "Searching…" : found.length === 0 ? "No entries match." : `${found.length} ${found.length === 1 ? "entry" : "entries"} in ${languageLabel(lang)}.`)}
      </p>
      <ul class="picker-list" id={`${id}-results`} aria-label="Entries">
        {(found ?? []).map((e) => {
          const model = models.get(e.model_id);
          const label = e.label ?? e.slug ?? e.instance_id;
          return (
            <li>
              <button
                type="button"
                class="picker-option"
                onClick={() => {
                  const href = entryHref(model, e);
                  if (href) onPick(href, label);
                  else setNote(`“${label}” has no address (no slug), so it cannot be linked.`);
                }}
              >
                <span class="picker-option-title">{label}</span>
                <span class="muted">
                  {model?.name ?? e.model_slug} · {languageLabel(e.lang)}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </PickerDialog>
  );
}
