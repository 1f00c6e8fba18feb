import { useEffect, useState } from "preact/hooks";
import { manage } from "../api/client";
import { Button } from "../ui/controls";
import { EntryPicker, type PickedEntry } from "../ui/entry-picker";
import { OrderedList } from "../ui/ordered-list";
import { useOwnValues } from "./own-values";
import type { FieldInputProps } from "./types";
import "../styles/fields.css";

/**
 * The relation field's input (docs/admin-ui-fields.md): the linked entries by title, in order,
 * with remove and reorder (drag, or the move up / move down buttons from the keyboard); "Choose"
 * opens the searching picker. A change hands the editor's save the whole ordered list in the
 * `set` form (docs/content-rules-relations.md); fields allowing several models name each item
 * `{ model, id }`. To-one kinds hold one entry.
 */

type Linked = { id: string; label: string; modelSlug: string | null; state: string | null; missing: boolean };

/** Labels of entries already read, by site and id (a page shows many relation fields). */
const LABELS = new Map<string, Linked>();
/** Target model names by site. */
const MODELS = new Map<string, Promise<Map<string, { name: string; slug: string }>>>();

function modelsOf(site: string): Promise<Map<string, { name: string; slug: string }>> {
  let found = MODELS.get(site);
  if (!found) {
    found = manage("listModels").then((answer) => new Map(answer.data.map((m) => [m.id, { name: m.name, slug: m.slug }])));
    found.catch(() => MODELS.delete(site));
    MODELS.set(site, found);
  }
  return found;
}

async function linked(site: string, id: string): Promise<Linked> {
  const key = `${site}/${id}`;
  const known = LABELS.get(key);
  if (known) return known;
  try {
    const entry = await manage("getEntry", { params: { id } });
    // A linked entry moved to Trash stays linked but is served nowhere: shown as a problem to look at.
    const trashed = entry.trashed_at !== null;
    const item = { id, label: entry.label ?? entry.slug ?? id, modelSlug: entry.model_slug, state: trashed ? "in Trash, not shown to readers" : entry.workflow.state, missing: trashed };
    LABELS.set(key, item);
    return item;
  } catch {
    return { id, label: `Entry ${id} (not found)`, modelSlug: null, state: null, missing: true };
  }
}

/** The ids a stored value or a pending write names, in order. */
export function relationIds(value: unknown): string[] {
  const one = (item: unknown): string[] => (typeof item === "string" ? [item] : typeof item === "object" && item !== null && typeof (item as { id?: unknown }).id === "string" ? [(item as { id: string }).id] : []);
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap(one);
  if (typeof value === "object" && "set" in value) return relationIds((value as { set: unknown }).set);
  return one(value);
}

/** Whether the field holds an ordered list (the `_to_many` kinds; an old field without a kind: `multiple`). */
function holdsList(field: FieldInputProps["field"]): boolean {
  const kind = field.relation;
  return typeof kind === "string" ? kind === "one_to_many" || kind === "many_to_many" : field.multiple === true;
}

export function RelationInput({ site, field, value, onChange, readOnly, id, describedBy, path }: FieldInputProps) {
  const targets = Array.isArray(field.targets) ? (field.targets as string[]) : [];
  const list = holdsList(field);
  const label = field.label ?? field.key;
  const [items, setItems] = useState<Linked[]>(() => relationIds(value).map((i) => LABELS.get(`${site}/${i}`) ?? { id: i, label: "Loading…", modelSlug: null, state: null, missing: false }));
  const [models, setModels] = useState<Map<string, { name: string; slug: string }>>(new Map());
  const [picking, setPicking] = useState(false);
  const own = useOwnValues();

  useEffect(() => {
    void modelsOf(site).then(setModels, () => undefined);
  }, [site]);

  // Labels for the ids of the value (again when the value is replaced from outside).
  useEffect(() => {
    const ids = relationIds(value);
    if (own.mine(JSON.stringify(ids))) return;
    let live = true;
    void Promise.all(ids.map((i) => linked(site, i))).then((found) => {
      if (live) setItems(found);
    });
    return () => {
      live = false;
    };
  }, [site, JSON.stringify(relationIds(value))]);

  const emit = (next: Linked[]) => {
    setItems(next);
    own.note(JSON.stringify(next.map((i) => i.id)));
    // Inside a component (a nested path) a relation value is plain ids, written whole with its
    // component; the `{ set }` and `{ model, id }` write forms are the top level's.
    if (/[.[]/.test(path)) {
      const ids = next.map((i) => i.id);
      onChange(list ? ids : (ids[0] ?? null));
      return;
    }
    const refs = next.map((i) => (targets.length > 1 && i.modelSlug ? { model: i.modelSlug, id: i.id } : i.id));
    onChange({ set: list ? refs : (refs[0] ?? null) });
  };

  const add = (picked: PickedEntry[]) => {
    const fresh = picked.map((p) => {
      const item: Linked = { id: p.id, label: p.label, modelSlug: p.modelSlug, state: p.state, missing: false };
      LABELS.set(`${site}/${p.id}`, item);
      return item;
    });
    emit(list ? [...items, ...fresh.filter((f) => !items.some((i) => i.id === f.id))] : fresh.slice(0, 1));
    setPicking(false);
  };

  const targetList = (targets.length > 0 ? targets : [""]).map((t) => ({ id: t, name: models.get(t)?.name ?? (t || "All models") }));
  return (
    <div class="relation-input" id={id} role="group" aria-label={label} aria-describedby={describedBy}>
      {items.length === 0 ? <p class="muted">{list ? "No entries linked." : "No entry chosen."}</p> : null}
      <OrderedList
        label={label}
        items={items}
        keyOf={(i) => i.id}
        nameOf={(i) => i.label}
        reorderable={list && !readOnly}
        onReorder={emit}
        onRemove={readOnly ? undefined : (i) => emit(items.filter((x) => x.id !== i.id))}
        render={(i) => (
          <span class={`relation-item${i.missing ? " is-missing" : ""}`}>
            <span class="relation-title">
              {i.missing ? <span aria-hidden="true">⚠ </span> : null}
              {i.label}
            </span>
            <span class="muted">
              {i.modelSlug ?? ""}
              {i.state ? ` · ${i.state.replace("_", " ")}` : ""}
            </span>
          </span>
        )}
      />
      {readOnly ? null : (
        <div class="row">
          <Button onClick={() => setPicking(true)} aria-haspopup="dialog">
            {list ? `Add ${label}` : items.length ? `Change ${label}` : `Choose ${label}`}
          </Button>
        </div>
      )}
      <EntryPicker
        open={picking}
        title={list ? `Add to ${label}` : `Choose ${label}`}
        targets={targetList}
        multiple={list}
        exclude={items.map((i) => i.id)}
        onPick={add}
        onClose={() => setPicking(false)}
      />
    </div>
  );
}
