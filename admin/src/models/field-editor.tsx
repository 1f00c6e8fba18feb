import { RELATION_KINDS, type FieldType } from "../../../schema/field-types";
import type { FieldCondition } from "../../../schema/field-condition";
import { Button, Field } from "../ui/controls";
import { ConditionBuilder } from "./condition-builder";
import { FIELD_TYPES, MULTIPLE_TYPES, TYPE_WORDS, UNIQUE_TYPES, keyFromLabel, nestedTypes, newUid, type DraftField } from "./definition";
import { ValidationRules } from "./validation-rules";

/** Relation kinds in words (docs/content-rules-relations.md). */
const KIND_WORDS: Record<string, string> = {
  one_to_one: "One to one — links one entry, which no other entry may link through this field",
  many_to_one: "Many to one — links one entry; many entries may link the same one",
  one_to_many: "One to many — links a list; each linked entry belongs to this entry only",
  many_to_many: "Many to many — links a list; entries may be shared",
};

export interface ModelChoice {
  id: string;
  name: string;
}

/**
 * One field's settings: label, key, type, required, private, title, help, and what its type takes —
 * options, several values, unique, relation kind with targets and counts, hierarchy, a component's
 * own fields — then validation rules with a live example and the show condition.
 */
export function FieldEditor({ field, siblings, models, selfModelId, nested, onChange }: { field: DraftField; siblings: readonly DraftField[]; models: readonly ModelChoice[]; selfModelId: string | null; nested?: boolean; onChange: (next: DraftField) => void }) {
  const set = (patch: Record<string, unknown>) => onChange({ ...field, ...patch } as DraftField);
  const isNew = field.id === undefined;
  const types = nested ? nestedTypes : FIELD_TYPES;
  const name = field.label || "the new field";
  const check = (label: string, key: string, hint?: string) => (
    <label class="row check">
      <input type="checkbox" checked={field[key] === true} onChange={(e) => set({ [key]: (e.currentTarget as HTMLInputElement).checked || undefined })} />
      <span>
        {label}
        {hint ? <span class="muted"> — {hint}</span> : null}
      </span>
    </label>
  );
  const options = (field.options as { value: string; label: string }[] | undefined) ?? [];
  const targets = (field.targets as string[] | undefined) ?? [];
  const kind = (field.relation as string | undefined) ?? (field.multiple === true ? "many_to_many" : "many_to_one");
  const toMany = kind === "one_to_many" || kind === "many_to_many";
  return (
    <div class="stack field-editor">
      <div class="builder-grid">
        <Field label="Label">
          {({ id }) => (
            <input
              id={id}
              type="text"
              value={field.label}
              maxLength={120}
              onInput={(e) => {
                const label = (e.currentTarget as HTMLInputElement).value;
                // A new field's key follows its label until the key is typed by hand.
                const follows = isNew && (field.key === "" || field.key === keyFromLabel(field.label));
                set({ label, ...(follows ? { key: keyFromLabel(label) } : {}) });
              }}
            />
          )}
        </Field>
        <Field label="Key" hint={isNew ? "How the API names the value." : "Changing it renames the field; stored values follow."}>
          {({ id, describedBy }) => <input id={id} type="text" class="mono" value={field.key} maxLength={64} autoCapitalize="off" spellcheck={false} aria-describedby={describedBy} onInput={(e) => set({ key: (e.currentTarget as HTMLInputElement).value })} />}
        </Field>
        <Field label="Type" hint={isNew ? undefined : "Changing the type of a field that holds values is refused; the preview says so."}>
          {({ id, describedBy }) => (
            <select id={id} value={field.type} aria-describedby={describedBy} onChange={(e) => set({ type: (e.currentTarget as HTMLSelectElement).value as FieldType })}>
              {types.map((t) => (
                <option value={t}>{TYPE_WORDS[t]}</option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <Field label="Help text (shown to editors)">
        {({ id }) => <input id={id} type="text" value={(field.help as string | undefined) ?? ""} maxLength={500} onInput={(e) => set({ help: (e.currentTarget as HTMLInputElement).value || undefined })} />}
      </Field>
      <fieldset class="row">
        <legend>Settings of {name}</legend>
        {check("Required", "required", "published entries must fill it")}
        {check("Private", "private", "never in the public API")}
        {!nested && (field.type === "text" || field.type === "slug") ? check("Entry title", "title", "names entries in lists") : null}
        {MULTIPLE_TYPES.includes(field.type) && field.type !== "relation" ? check("Several values", "multiple") : null}
      </fieldset>
      {!nested && UNIQUE_TYPES.includes(field.type) ? (
        <Field label="Unique values">
          {({ id }) => (
            <select id={id} value={(field.unique as string | undefined) ?? ""} onChange={(e) => set({ unique: (e.currentTarget as HTMLSelectElement).value || undefined })}>
              <option value="">Not unique</option>
              <option value="model">Unique among all entries</option>
              <option value="language">Unique per language</option>
            </select>
          )}
        </Field>
      ) : null}
      {field.type === "select" ? (
        <fieldset class="stack">
          <legend>Choices of {name}</legend>
          {options.map((o, i) => (
            <div class="row" role="group" aria-label={`Choice ${i + 1}`}>
              <Field label={`Choice ${i + 1} label`}>
                {({ id }) => (
                  <input
                    id={id}
                    type="text"
                    value={o.label}
                    onInput={(e) => {
                      const label = (e.currentTarget as HTMLInputElement).value;
                      const follows = o.value === "" || o.value === keyFromLabel(o.label);
                      set({ options: options.map((x, j) => (j === i ? { label, value: follows ? keyFromLabel(label) : x.value } : x)) });
                    }}
                  />
                )}
              </Field>
              <Field label={`Choice ${i + 1} stored value`}>
                {({ id }) => <input id={id} type="text" class="mono" value={o.value} onInput={(e) => set({ options: options.map((x, j) => (j === i ? { ...x, value: (e.currentTarget as HTMLInputElement).value } : x)) })} />}
              </Field>
              <Button variant="ghost" aria-label={`Remove choice ${i + 1}`} onClick={() => set({ options: options.filter((_, j) => j !== i) })}>
                Remove
              </Button>
            </div>
          ))}
          <Button onClick={() => set({ options: [...options, { value: "", label: "" }] })}>Add a choice</Button>
        </fieldset>
      ) : null}
      {field.type === "relation" ? (
        <fieldset class="stack">
          <legend>Links of {name}</legend>
          <Field label="Relation kind">
            {({ id }) => (
              <select id={id} value={kind} onChange={(e) => set({ relation: (e.currentTarget as HTMLSelectElement).value, multiple: undefined })}>
                {RELATION_KINDS.map((k) => (
                  <option value={k}>{KIND_WORDS[k]}</option>
                ))}
              </select>
            )}
          </Field>
          <fieldset class="row">
            <legend>Linked models</legend>
            {models.map((m) => (
              <label class="row check">
                <input type="checkbox" checked={targets.includes(m.id)} onChange={(e) => set({ targets: (e.currentTarget as HTMLInputElement).checked ? [...targets, m.id] : targets.filter((t) => t !== m.id) })} />
                {m.name}
                {m.id === selfModelId ? " (this model)" : ""}
              </label>
            ))}
          </fieldset>
          {!toMany && selfModelId && targets.length === 1 && targets[0] === selfModelId ? check("Hierarchy", "hierarchy", "a parent link that never loops") : null}
          {toMany ? <p class="muted">Counts: set the fewest and most linked entries under Validation rules.</p> : null}
        </fieldset>
      ) : null}
      {field.type === "component" && !nested ? <ComponentFields field={field} models={models} selfModelId={selfModelId} onChange={(fields) => set({ fields })} /> : null}
      <ValidationRules field={field.type === "relation" && toMany ? { ...field, multiple: true } : field} onChange={(validation) => set({ validation })} />
      <ConditionBuilder field={field} siblings={siblings} onChange={(condition: FieldCondition | undefined) => set({ condition })} />
    </div>
  );
}

/** A component's own fields: the same editor, one level deep. */
function ComponentFields({ field, models, selfModelId, onChange }: { field: DraftField; models: readonly ModelChoice[]; selfModelId: string | null; onChange: (fields: DraftField[]) => void }) {
  const inner = (field.fields as DraftField[] | undefined) ?? [];
  return (
    <fieldset class="stack">
      <legend>Fields inside {field.label || "the component"}</legend>
      {inner.map((f, i) => (
        <details class="card" open={f.key === ""}>
          <summary>
            {f.label || "New field"} <span class="muted">({f.type})</span>
          </summary>
          <FieldEditor field={f} siblings={inner} models={models} selfModelId={selfModelId} nested onChange={(next) => onChange(inner.map((x, j) => (j === i ? next : x)))} />
          <Button variant="danger" onClick={() => onChange(inner.filter((_, j) => j !== i))}>
            Remove {f.label || "this field"} from the component
          </Button>
        </details>
      ))}
      <Button onClick={() => onChange([...inner, { uid: newUid(), key: "", label: "", type: "text" }])}>Add a field inside the component</Button>
    </fieldset>
  );
}
