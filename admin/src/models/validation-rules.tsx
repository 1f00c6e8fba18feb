import { useId, useState } from "preact/hooks";
import { Field } from "../ui/controls";
import { DATE_TYPES, LENGTH_TYPES, MULTIPLE_TYPES, NUMBER_TYPES, type DraftField } from "./definition";

type Rules = Record<string, string | number | undefined>;

/**
 * What an example value meets under the rules, in words (the builder's live example). The service
 * checks the same bounds when entries are saved; a pattern runs under RE2 there and under the
 * browser's engine here, which agree on the patterns RE2 accepts.
 */
export function exampleVerdict(type: string, rules: Rules, example: string): { ok: boolean; words: string } {
  if (example === "") return { ok: true, words: "Type an example to try the rules." };
  const problems: string[] = [];
  if (LENGTH_TYPES.includes(type as never)) {
    const n = [...example].length;
    if (typeof rules.min_length === "number" && n < rules.min_length) problems.push(`too short: ${n} characters, at least ${rules.min_length}`);
    if (typeof rules.max_length === "number" && n > rules.max_length) problems.push(`too long: ${n} characters, at most ${rules.max_length}`);
    if (typeof rules.pattern === "string" && rules.pattern) {
      try {
        if (!new RegExp(rules.pattern, "u").test(example)) problems.push(`does not match the pattern ${rules.pattern}`);
      } catch {
        problems.push("the pattern is not a valid regular expression");
      }
    }
  } else if (NUMBER_TYPES.includes(type as never)) {
    const x = Number(example);
    if (!Number.isFinite(x)) problems.push("not a number");
    else {
      if (type === "integer" && !Number.isInteger(x)) problems.push("not a whole number");
      if (typeof rules.min === "number" && x < rules.min) problems.push(`below the minimum ${rules.min}`);
      if (typeof rules.max === "number" && x > rules.max) problems.push(`above the maximum ${rules.max}`);
      if (typeof rules.step === "number" && rules.step > 0) {
        const base = typeof rules.min === "number" ? rules.min : 0;
        const steps = (x - base) / rules.step;
        if (Math.abs(steps - Math.round(steps)) > 1e-9) problems.push(`not a multiple of the step ${rules.step}`);
      }
    }
  } else if (DATE_TYPES.includes(type as never)) {
    if (typeof rules.min_date === "string" && rules.min_date && example < rules.min_date) problems.push(`before ${rules.min_date}`);
    if (typeof rules.max_date === "string" && rules.max_date && example > rules.max_date) problems.push(`after ${rules.max_date}`);
  }
  return problems.length === 0 ? { ok: true, words: `“${example}” is accepted.` } : { ok: false, words: `“${example}” is refused: ${problems.join("; ")}.` };
}

/** The bounds a type takes: number inputs and, for text, a pattern. */
function boundsFor(field: DraftField): { name: string; label: string; kind: "number" | "text" | "date" }[] {
  const out: { name: string; label: string; kind: "number" | "text" | "date" }[] = [];
  if (LENGTH_TYPES.includes(field.type)) out.push({ name: "min_length", label: "Fewest characters", kind: "number" }, { name: "max_length", label: "Most characters", kind: "number" }, { name: "pattern", label: "Pattern (regular expression)", kind: "text" });
  if (NUMBER_TYPES.includes(field.type)) out.push({ name: "min", label: "Smallest value", kind: "number" }, { name: "max", label: "Largest value", kind: "number" }, { name: "step", label: "Step", kind: "number" });
  if (DATE_TYPES.includes(field.type)) out.push({ name: "min_date", label: "Earliest", kind: "date" }, { name: "max_date", label: "Latest", kind: "date" });
  if (MULTIPLE_TYPES.includes(field.type) && field.multiple === true) out.push({ name: "min_items", label: "Fewest items", kind: "number" }, { name: "max_items", label: "Most items", kind: "number" });
  return out;
}

/** A field's validation rules with a live example: each bound typed, and a value to try against them. */
export function ValidationRules({ field, onChange }: { field: DraftField; onChange: (rules: Rules | undefined) => void }) {
  const rules = (field.validation ?? {}) as Rules;
  const bounds = boundsFor(field);
  const [example, setExample] = useState("");
  const verdictId = useId();
  if (bounds.length === 0) return null;
  const set = (name: string, raw: string, kind: string) => {
    const value = raw === "" ? undefined : kind === "number" ? Number(raw) : raw;
    const next = { ...rules, [name]: value };
    onChange(Object.values(next).some((v) => v !== undefined) ? next : undefined);
  };
  const tryable = !(MULTIPLE_TYPES.includes(field.type) && !LENGTH_TYPES.includes(field.type) && !NUMBER_TYPES.includes(field.type) && !DATE_TYPES.includes(field.type));
  const verdict = exampleVerdict(field.type, rules, example);
  return (
    <fieldset class="stack">
      <legend>Validation rules</legend>
      <div class="builder-grid">
        {bounds.map((b) => (
          <Field label={b.label}>
            {({ id }) => (
              <input id={id} type={b.kind === "number" ? "number" : b.kind === "date" ? (field.type === "datetime" ? "datetime-local" : "date") : "text"} class={b.kind === "text" ? "mono" : undefined} value={rules[b.name] ?? ""} onInput={(e) => set(b.name, (e.currentTarget as HTMLInputElement).value, b.kind)} />
            )}
          </Field>
        ))}
      </div>
      {tryable ? (
        <>
          <Field label="Try an example value" hint="Checked live against the rules above, as entries will be.">
            {({ id, describedBy }) => <input id={id} type={DATE_TYPES.includes(field.type) ? "date" : "text"} value={example} aria-describedby={[describedBy, verdictId].filter(Boolean).join(" ")} onInput={(e) => setExample((e.currentTarget as HTMLInputElement).value)} />}
          </Field>
          <p id={verdictId} class={verdict.ok ? "example-ok" : "example-bad"}>
            <span aria-hidden="true">{example === "" ? "" : verdict.ok ? "✓ " : "✗ "}</span>
            {verdict.words}
          </p>
        </>
      ) : null}
    </fieldset>
  );
}
