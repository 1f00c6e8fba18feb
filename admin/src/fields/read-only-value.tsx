import { show } from "../ui/field-diff";
import type { FieldInputProps } from "./types";

/**
 * A field type without an input here (or one not built yet): its value shown as text, read-only.
 * The editor keeps the value untouched, so a save never loses it.
 */
export function ReadOnlyValue({ field, value, id, describedBy }: FieldInputProps) {
  const text = show(value);
  return (
    <output id={id} aria-describedby={describedBy} class="read-only-value" data-type={field.type}>
      {text ? <pre>{text}</pre> : <span class="muted">(empty)</span>}
      <span class="muted"> This {field.type.replace(/_/g, " ")} field cannot be edited here yet.</span>
    </output>
  );
}
