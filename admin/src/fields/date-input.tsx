import type { FieldInputProps } from "./types";

/**
 * `date` (YYYY-MM-DD) and `datetime`. A date-time is edited in UTC (the hint says so) and sent as
 * ISO-8601 with `Z`; a stored value with another offset shows as that instant in UTC.
 */
export function DateInput({ field, value, onChange, readOnly, id, describedBy, errors }: FieldInputProps) {
  const isDateTime = field.type === "datetime";
  const shown = typeof value === "string" ? (isDateTime ? toUtcLocal(value) : value) : "";
  return (
    <input
      type={isDateTime ? "datetime-local" : "date"}
      id={id}
      value={shown}
      readOnly={readOnly}
      step={isDateTime ? 1 : undefined}
      aria-describedby={describedBy}
      aria-invalid={errors.length ? "true" : undefined}
      aria-required={field.required ? "true" : undefined}
      onInput={(event) => {
        const raw = (event.currentTarget as HTMLInputElement).value;
        if (raw === "") onChange(null);
        else onChange(isDateTime ? `${raw.length === 16 ? `${raw}:00` : raw}Z` : raw);
      }}
    />
  );
}

/** An ISO-8601 date-time as `YYYY-MM-DDTHH:MM:SS` in UTC, for a datetime-local input. */
function toUtcLocal(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return "";
  return new Date(ms).toISOString().slice(0, 19);
}
