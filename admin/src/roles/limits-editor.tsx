import type { LanguageAction, PermissionSet } from "../../../schema/permissions";
import { ALL_LANGUAGE_ACTIONS } from "../../../shared/auth/permissions";
import { Button, Field } from "../ui/controls";
import { LANGUAGE_ACTION_WORDS } from "./words";

export interface ModelFields {
  id: string;
  name: string;
  fields: { id: string; label: string }[];
}

type Limits = NonNullable<PermissionSet["limits"]>;

function withLimits(set: PermissionSet, limits: Limits): PermissionSet {
  const clean: Limits = {};
  if (limits.fields && Object.keys(limits.fields).length > 0) clean.fields = limits.fields;
  if (limits.languages && Object.keys(limits.languages).length > 0) clean.languages = limits.languages;
  const { limits: _old, ...rest } = set;
  return Object.keys(clean).length > 0 ? { ...rest, limits: clean } : rest;
}

/**
 * Field and language limits (docs/permissions.md, "Limits"): per model, which fields the role may
 * read and write (absent = every field); per language action, which languages (absent = every one).
 */
export function LimitsEditor({ set, models, editable, onChange }: { set: PermissionSet; models: readonly ModelFields[]; editable: boolean; onChange: (next: PermissionSet) => void }) {
  const limits: Limits = set.limits ?? {};
  const fieldLimits = limits.fields ?? {};
  const limited = models.filter((m) => fieldLimits[m.id] !== undefined);
  const open = models.filter((m) => fieldLimits[m.id] === undefined);
  const setField = (modelId: string, access: "read" | "write", ids: string[] | undefined) => {
    const current = { ...(fieldLimits[modelId] ?? {}) };
    if (ids === undefined) delete current[access];
    else current[access] = ids;
    onChange(withLimits(set, { ...limits, fields: { ...fieldLimits, [modelId]: current } }));
  };
  const removeModel = (modelId: string) => {
    const next = { ...fieldLimits };
    delete next[modelId];
    onChange(withLimits(set, { ...limits, fields: next }));
  };
  const setLanguages = (action: LanguageAction, text: string) => {
    const codes = text.split(/[,\s]+/).filter(Boolean);
    const next = { ...(limits.languages ?? {}) };
    if (codes.length > 0) next[action] = codes;
    else delete next[action];
    onChange(withLimits(set, { ...limits, languages: next }));
  };
  return (
    <>
      <fieldset class="stack">
        <legend>Field limits</legend>
        <p class="muted">Without a limit the role reaches every field of the models it may use.</p>
        {limited.map((m) => (
          <div class="stack card" role="group" aria-label={`Field limits of ${m.name}`}>
            <strong>{m.name}</strong>
            {(["read", "write"] as const).map((access) => {
              const ids = fieldLimits[m.id]?.[access];
              return (
                <fieldset class="row">
                  <legend>
                    {access === "read" ? "Fields it may read" : "Fields it may change"} in {m.name}
                  </legend>
                  <label class="row check">
                    <input type="checkbox" checked={ids === undefined} disabled={!editable} onChange={(e) => setField(m.id, access, (e.currentTarget as HTMLInputElement).checked ? undefined : [])} />
                    Every field
                  </label>
                  {ids !== undefined
                    ? m.fields.map((f) => (
                        <label class="row check">
                          <input type="checkbox" checked={ids.includes(f.id)} disabled={!editable} onChange={(e) => setField(m.id, access, (e.currentTarget as HTMLInputElement).checked ? [...ids, f.id] : ids.filter((x) => x !== f.id))} />
                          {f.label}
                        </label>
                      ))
                    : null}
                </fieldset>
              );
            })}
            {editable ? (
              <Button variant="ghost" onClick={() => removeModel(m.id)}>
                Remove the field limits of {m.name}
              </Button>
            ) : null}
          </div>
        ))}
        {editable && open.length > 0 ? (
          <Field label="Limit the fields of">
            {({ id }) => (
              <select
                id={id}
                value=""
                onChange={(e) => {
                  const modelId = (e.currentTarget as HTMLSelectElement).value;
                  if (modelId) onChange(withLimits(set, { ...limits, fields: { ...fieldLimits, [modelId]: { write: [] } } }));
                }}
              >
                <option value="">Choose a model…</option>
                {open.map((m) => (
                  <option value={m.id}>{m.name}</option>
                ))}
              </select>
            )}
          </Field>
        ) : null}
      </fieldset>
      <fieldset class="stack">
        <legend>Language limits</legend>
        <p class="muted">Language codes separated by commas (like en, fr); empty means every language.</p>
        <div class="builder-grid">
          {ALL_LANGUAGE_ACTIONS.map((action) => (
            <Field label={`${LANGUAGE_ACTION_WORDS[action]}: languages`}>
              {({ id }) => <input id={id} type="text" class="mono" disabled={!editable} value={(limits.languages?.[action] ?? []).join(", ")} onChange={(e) => setLanguages(action, (e.currentTarget as HTMLInputElement).value)} />}
            </Field>
          ))}
        </div>
      </fieldset>
    </>
  );
}
