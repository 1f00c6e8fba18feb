import type { FieldInputProps } from "./types";

/** `boolean`: a checkbox; "not set" (null) and "no" (false) differ, so a set value can be cleared. */
export function BooleanInput({ field, value, onChange, readOnly, id, describedBy }: FieldInputProps) {
  return (
    <span class="row">
      <input
        type="checkbox"
        id={id}
        class="checkbox"
        checked={value === true}
        disabled={readOnly}
        aria-describedby={describedBy}
        onChange={(event) => onChange((event.currentTarget as HTMLInputElement).checked)}
      />
      <span class="muted" aria-hidden="true">
        {value === true ? "Yes" : value === false ? "No" : "Not set"}
      </span>
      {value !== null && value !== undefined && !readOnly ? (
        <button type="button" class="button-ghost" onClick={() => onChange(null)} aria-label={`Clear ${field.label ?? field.key}`}>
          Clear
        </button>
      ) : null}
    </span>
  );
}
