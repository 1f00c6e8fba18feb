import { useEffect, useState } from "preact/hooks";
import type { FieldInputProps } from "./types";
import { validationOf } from "./field-rules";

/**
 * `integer` and `decimal`: a number input carrying the definition's bounds as min/max/step. Text
 * that is not a number is sent as typed, so the service's refusal (not a guess here) names it.
 */
export function NumberInput({ field, value, onChange, readOnly, id, describedBy, errors }: FieldInputProps) {
  const rules = validationOf(field);
  const [text, setText] = useState(value === null || value === undefined ? "" : String(value));
  useEffect(() => {
    if (value === null || value === undefined) {
      if (text !== "") setText("");
    } else if (String(value) !== text && Number(text) !== value) setText(String(value));
  }, [value]);
  return (
    <input
      type="number"
      inputMode={field.type === "integer" ? "numeric" : "decimal"}
      id={id}
      value={text}
      readOnly={readOnly}
      min={rules.min}
      max={rules.max}
      step={rules.step ?? (field.type === "integer" ? 1 : "any")}
      aria-describedby={describedBy}
      aria-invalid={errors.length ? "true" : undefined}
      aria-required={field.required ? "true" : undefined}
      onInput={(event) => {
        const raw = (event.currentTarget as HTMLInputElement).value;
        setText(raw);
        if (raw.trim() === "") onChange(null);
        else {
          const n = Number(raw);
          onChange(Number.isFinite(n) ? n : raw);
        }
      }}
    />
  );
}
