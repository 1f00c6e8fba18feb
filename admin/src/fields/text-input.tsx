import type { FieldInputProps } from "./types";
import { validationOf } from "./field-rules";

/** `text` (one line) and `long_text` (a text area); length bounds shown as attributes and a hint. */
export function TextInput({ field, value, onChange, readOnly, id, describedBy, errors }: FieldInputProps) {
  const rules = validationOf(field);
  const common = {
    id,
    value: typeof value === "string" ? value : value === null || value === undefined ? "" : String(value),
    readOnly,
    "aria-describedby": describedBy,
    "aria-invalid": errors.length ? ("true" as const) : undefined,
    "aria-required": field.required ? ("true" as const) : undefined,
    maxLength: rules.max_length,
    onInput: (event: Event) => {
      const text = (event.currentTarget as HTMLInputElement | HTMLTextAreaElement).value;
      onChange(text === "" ? null : text);
    },
  };
  if (field.type === "long_text") return <textarea {...common} rows={4} />;
  return <input type="text" {...common} />;
}

