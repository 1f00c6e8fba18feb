import { operatorsFor } from "../../../shared/content/conditions";
import type { ConditionTerm, FieldCondition } from "../../../schema/field-condition";
import type { FieldType } from "../../../schema/field-types";
import { Button, Field } from "../ui/controls";
import type { DraftField } from "./definition";

/** Operators in words (the service's names in docs/content-rules-fields.md, "Conditions"). */
const OP_WORDS: Record<string, string> = {
  equals: "is",
  not_equals: "is not",
  in: "is one of",
  not_in: "is none of",
  eq: "=",
  ne: "≠",
  lt: "<",
  lte: "≤",
  gt: ">",
  gte: "≥",
  before: "is before",
  after: "is after",
  empty: "is empty",
  not_empty: "is not empty",
};
/** A group holds at most 4 terms (the service's limit). */
const MAX_TERMS = 4;

type Group = { mode: "all" | "any"; terms: ConditionTerm[] };

/** A stored condition as the builder's one group, or null when it nests groups (kept as it is). */
function asGroup(condition: FieldCondition | undefined): Group | null | undefined {
  if (condition === undefined) return undefined;
  if ("field" in condition) return { mode: "all", terms: [condition as ConditionTerm] };
  const mode = condition.all ? "all" : "any";
  const list = (condition.all ?? condition.any ?? []) as unknown[];
  return list.every((t) => typeof t === "object" && t !== null && "field" in t) ? { mode, terms: list as ConditionTerm[] } : null;
}

function defaultValue(type: FieldType, op: string, target: DraftField): ConditionTerm["value"] {
  if (op === "empty" || op === "not_empty") return undefined;
  if (type === "boolean") return true;
  if (type === "select") return [((target.options as { value: string }[] | undefined)?.[0]?.value ?? "")].filter(Boolean);
  if (type === "integer" || type === "decimal") return 0;
  return "";
}

/**
 * "Show this field" — always, or when all (AND) / any (OR) of up to four terms on the model's other
 * fields hold. The terms' operators are the ones the service takes for the referenced field's type;
 * the service checks the whole condition again when the model is saved (422 invalid_field_condition).
 */
export function ConditionBuilder({ field, siblings, onChange }: { field: DraftField; siblings: readonly DraftField[]; onChange: (condition: FieldCondition | undefined) => void }) {
  const group = asGroup(field.condition as FieldCondition | undefined);
  const others = siblings.filter((s) => s.uid !== field.uid && s.key && operatorsFor(s.type).length > 0);
  const name = field.label || field.key || "this field";
  if (group === null) {
    return (
      <fieldset class="stack">
        <legend>When {name} shows</legend>
        <p>This field has a nested condition; it is kept as it is.</p>
        <Button onClick={() => onChange(undefined)}>Remove the condition</Button>
      </fieldset>
    );
  }
  const write = (next: Group | undefined) => onChange(next && next.terms.length > 0 ? { [next.mode]: next.terms } : undefined);
  const current = group ?? { mode: "all" as const, terms: [] };
  const addTerm = () => {
    const target = others[0];
    if (!target) return;
    const op = operatorsFor(target.type)[0] ?? "not_empty";
    const value = defaultValue(target.type, op, target);
    write({ ...current, terms: [...current.terms, { field: target.key, op, ...(value !== undefined ? { value } : {}) }] });
  };
  const setTerm = (index: number, term: ConditionTerm) => write({ ...current, terms: current.terms.map((t, i) => (i === index ? term : t)) });
  return (
    <fieldset class="stack">
      <legend>When {name} shows</legend>
      <Field label="Show this field">
        {({ id }) => (
          <select
            id={id}
            value={group ? current.mode : "always"}
            onChange={(e) => {
              const v = (e.currentTarget as HTMLSelectElement).value;
              if (v === "always") write(undefined);
              else if (current.terms.length > 0) write({ ...current, mode: v as "all" | "any" });
              else {
                const target = others[0];
                if (!target) return;
                const op = operatorsFor(target.type)[0] ?? "not_empty";
                const value = defaultValue(target.type, op, target);
                write({ mode: v as "all" | "any", terms: [{ field: target.key, op, ...(value !== undefined ? { value } : {}) }] });
              }
            }}
          >
            <option value="always">Always</option>
            <option value="all" disabled={others.length === 0}>
              When all of these hold (AND)
            </option>
            <option value="any" disabled={others.length === 0}>
              When any of these holds (OR)
            </option>
          </select>
        )}
      </Field>
      {others.length === 0 ? <p class="muted">Add another field first: a condition tests the model's other fields.</p> : null}
      {group
        ? current.terms.map((term, index) => {
            const target = others.find((o) => o.key === term.field);
            const ops = target ? operatorsFor(target.type) : [term.op];
            const n = index + 1;
            return (
              <div class="condition-term row" role="group" aria-label={`Condition ${n}`}>
                {index > 0 ? <span class="muted">{current.mode === "all" ? "and" : "or"}</span> : null}
                <Field label={`Field of condition ${n}`}>
                  {({ id }) => (
                    <select
                      id={id}
                      value={term.field}
                      onChange={(e) => {
                        const t = others.find((o) => o.key === (e.currentTarget as HTMLSelectElement).value);
                        if (!t) return;
                        const op = operatorsFor(t.type)[0] ?? "not_empty";
                        const value = defaultValue(t.type, op, t);
                        setTerm(index, { field: t.key, op, ...(value !== undefined ? { value } : {}) });
                      }}
                    >
                      {others.map((o) => (
                        <option value={o.key}>{o.label || o.key}</option>
                      ))}
                    </select>
                  )}
                </Field>
                <Field label={`Test of condition ${n}`}>
                  {({ id }) => (
                    <select
                      id={id}
                      value={term.op}
                      onChange={(e) => {
                        const op = (e.currentTarget as HTMLSelectElement).value;
                        const value = target ? defaultValue(target.type, op, target) : undefined;
                        setTerm(index, { field: term.field, op, ...(value !== undefined ? { value: term.value !== undefined && op !== "empty" && op !== "not_empty" ? term.value : value } : {}) });
                      }}
                    >
                      {ops.map((op) => (
                        <option value={op}>{OP_WORDS[op] ?? op}</option>
                      ))}
                    </select>
                  )}
                </Field>
                {target && term.op !== "empty" && term.op !== "not_empty" ? <TermValue n={n} target={target} term={term} onChange={(value) => setTerm(index, { ...term, value })} /> : null}
                <Button variant="ghost" aria-label={`Remove condition ${n}`} onClick={() => write({ ...current, terms: current.terms.filter((_, i) => i !== index) })}>
                  Remove
                </Button>
              </div>
            );
          })
        : null}
      {group && current.terms.length < MAX_TERMS && others.length > 0 ? <Button onClick={addTerm}>Add a condition</Button> : null}
    </fieldset>
  );
}

function TermValue({ n, target, term, onChange }: { n: number; target: DraftField; term: ConditionTerm; onChange: (value: ConditionTerm["value"]) => void }) {
  const label = `Value of condition ${n}`;
  if (target.type === "boolean") {
    return (
      <Field label={label}>
        {({ id }) => (
          <select id={id} value={String(term.value === true)} onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value === "true")}>
            <option value="true">Yes</option>
            <option value="false">No</option>
          </select>
        )}
      </Field>
    );
  }
  if (target.type === "select") {
    const options = (target.options as { value: string; label: string }[] | undefined) ?? [];
    const chosen = Array.isArray(term.value) ? term.value : [];
    return (
      <fieldset class="row">
        <legend>{label}</legend>
        {options.map((o) => (
          <label class="row">
            <input type="checkbox" checked={chosen.includes(o.value)} onChange={(e) => onChange((e.currentTarget as HTMLInputElement).checked ? [...chosen, o.value] : chosen.filter((c) => c !== o.value))} />
            {o.label}
          </label>
        ))}
      </fieldset>
    );
  }
  const numeric = target.type === "integer" || target.type === "decimal";
  const date = target.type === "date" || target.type === "datetime";
  return (
    <Field label={label}>
      {({ id }) => (
        <input
          id={id}
          type={numeric ? "number" : date ? "date" : "text"}
          value={term.value === undefined ? "" : String(term.value)}
          onInput={(e) => {
            const raw = (e.currentTarget as HTMLInputElement).value;
            onChange(numeric ? Number(raw) : raw);
          }}
        />
      )}
    </Field>
  );
}
