import { useEffect, useId, useState } from "preact/hooks";
import { manage, type ManageAnswer } from "../api/client";
import { Button } from "./controls";
import { PickerDialog } from "./picker-dialog";
import { PickerResults, usePages } from "./picker-results";

/** An entry as the picker lists it. */
export type PickedEntry = { id: string; label: string; modelId: string; modelSlug: string; state: string };
type ListedEntry = ManageAnswer<"listEntries">["data"][number];

/**
 * The searching entry picker of relation fields: entries of the field's target models
 * (`listEntries`, one page of 100 at a time, "Load more" follows the cursor), one row per item (its
 * primary language), Trash left out, filtered by title as you type (client-side on the loaded
 * pages until the API has a title search). To-one fields choose one entry; list fields tick
 * several and add them in the order ticked.
 */
export function EntryPicker({ open, title, targets, multiple, exclude, onPick, onClose }: { open: boolean; title: string; targets: readonly { id: string; name: string }[]; multiple: boolean; exclude: readonly string[]; onPick: (entries: PickedEntry[]) => void; onClose: () => void }) {
  const id = useId();
  const [model, setModel] = useState<string>(targets[0]?.id ?? "");
  const [search, setSearch] = useState("");
  const [ticked, setTicked] = useState<PickedEntry[]>([]);

  const pages = usePages<ListedEntry>(async (from) => {
    const page = await manage("listEntries", { query: { model_id: model || undefined, limit: "100", cursor: from ?? undefined } });
    // The list leaves Trash out (spec 3: Trash leaves relation choice); one row per item.
    return { items: page.data.filter((e) => e.instance_id === e.primary_instance_id), next: page.page.next_cursor };
  });

  useEffect(() => {
    if (!open) return;
    setTicked([]);
    setSearch("");
    pages.restart();
  }, [open, model]);

  const needle = search.trim().toLocaleLowerCase();
  const shown = (pages.items ?? []).filter((e) => !needle || (e.label ?? e.slug ?? e.instance_id).toLocaleLowerCase().includes(needle));
  const picked = (e: ListedEntry): PickedEntry => ({ id: e.instance_id, label: e.label ?? e.slug ?? e.instance_id, modelId: e.model_id, modelSlug: e.model_slug, state: e.workflow.state });
  const isTicked = (entryId: string) => ticked.some((t) => t.id === entryId);

  return (
    <PickerDialog
      open={open}
      title={title}
      onClose={onClose}
      footer={
        multiple ? (
          <>
            <Button variant="primary" disabled={ticked.length === 0} onClick={() => onPick(ticked)}>
              {ticked.length === 0 ? "Add selected" : `Add ${ticked.length} selected`}
            </Button>
            <Button variant="ghost" onClick={onClose}>
              Cancel
            </Button>
          </>
        ) : (
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
        )
      }
    >
      <div class="picker-filters">
        {targets.length > 1 ? (
          <div class="field">
            <label for={`${id}-model`}>Model</label>
            <select id={`${id}-model`} value={model} onChange={(e) => setModel(e.currentTarget.value)}>
              {targets.map((t) => (
                <option value={t.id}>{t.name}</option>
              ))}
            </select>
          </div>
        ) : null}
        <div class="field">
          <label for={`${id}-search`}>Search by title</label>
          <input id={`${id}-search`} type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} aria-controls={`${id}-results`} />
        </div>
      </div>
      <PickerResults pages={pages} loading="Loading entries…" status={shown.length === 0 ? "No entries match." : `${shown.length} ${shown.length === 1 ? "entry" : "entries"}${pages.cursor ? " loaded" : ""}.`}>
        <ul class="picker-list" id={`${id}-results`} aria-label="Entries">
          {shown.map((e) => {
            const entry = picked(e);
            const already = exclude.includes(e.instance_id);
            return (
              <li>
                {multiple ? (
                  <label class={`picker-option${already ? " is-disabled" : ""}`}>
                    <input
                      type="checkbox"
                      checked={already || isTicked(e.instance_id)}
                      disabled={already}
                      onChange={(event) => {
                        const on = event.currentTarget.checked;
                        setTicked((list) => (on ? [...list.filter((t) => t.id !== entry.id), entry] : list.filter((t) => t.id !== entry.id)));
                      }}
                    />
                    <span class="picker-option-title">{entry.label}</span>
                    <span class="muted">
                      {e.model_slug} · {e.lang}
                      {already ? " · already linked" : ""}
                    </span>
                  </label>
                ) : (
                  <button type="button" class="picker-option" disabled={already} onClick={() => onPick([entry])}>
                    <span class="picker-option-title">{entry.label}</span>
                    <span class="muted">
                      {e.model_slug} · {e.lang}
                      {already ? " · current choice" : ""}
                    </span>
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      </PickerResults>
    </PickerDialog>
  );
}
