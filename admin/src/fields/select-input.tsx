import type { FieldInputProps } from "./types";
import { optionsOf } from "./field-rules";

/** `select`: one option (a select with "None") or several (a group of checkboxes, in the options' order). */
export function SelectInput({ field, value, onChange, readOnly, id, describedBy, errors }: FieldInputProps) {
  const options = optionsOf(field);
  if (field.multiple === true) {
    const chosen = new Set(Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);
    return (
      <div role="group" id={id} aria-labelledby={`${id}-label`} aria-describedby={describedBy} class="choice-group">
        {options.map((option) => (
          <label class="choice">
            <input
              type="checkbox"
              checked={chosen.has(option.value)}
              disabled={readOnly}
              onChange={(event) => {
                const on = (event.currentTarget as HTMLInputElement).checked;
                const next = options.map((o) => o.value).filter((v) => (v === option.value ? on : chosen.has(v)));
                onChange(next.length ? next : null);
              }}
            />
            {option.label}
          </label>
        ))}
      </div>
    );
  }
  const current = typeof value === "string" ? value : "";
  const known = options.some((o) => o.value === current);
  return (
    <select
      id={id}
      value={current}
      disabled={readOnly}
      aria-describedby={describedBy}
      aria-invalid={errors.length ? "true" : undefined}
      aria-required={field.required ? "true" : undefined}
      onChange={(event) => {
        const next = (event.currentTarget as HTMLSelectElement).value;
        onChange(next === "" ? null : next);
      }}
    >
      <option value="">None</option>
      {options.map((option) => (
        <option value={option.value}>{option.label}</option>
      ))}
      {current && !known ? <option value={current}>{`${current} (no longer an option)`}</option> : null}
    </select>
  );
}
