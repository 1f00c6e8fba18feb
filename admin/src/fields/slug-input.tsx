import type { FieldInputProps } from "./types";
import { validationOf } from "./field-rules";

/** `slug`: lower-case letters, digits and single hyphens (the hint says so; the service decides). */
export function SlugInput({ field, value, onChange, readOnly, id, describedBy, errors }: FieldInputProps) {
  const rules = validationOf(field);
  return (
    <input
      type="text"
      id={id}
      class="mono"
      value={typeof value === "string" ? value : ""}
      readOnly={readOnly}
      spellcheck={false}
      autoCapitalize="off"
      autoComplete="off"
      maxLength={Math.min(rules.max_length ?? 200, 200)}
      aria-describedby={describedBy}
      aria-invalid={errors.length ? "true" : undefined}
      aria-required={field.required ? "true" : undefined}
      onInput={(event) => {
        const text = (event.currentTarget as HTMLInputElement).value;
        onChange(text === "" ? null : text);
      }}
    />
  );
}
