import type { FieldInputProps } from "./types";

/** `location`: latitude and longitude as two labelled numbers ({ lat, lon }); both empty clears it. */
export function LocationInput({ field, value, onChange, readOnly, id, describedBy, errors }: FieldInputProps) {
  const current = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  const part = (name: "lat" | "lon") => (typeof current[name] === "number" ? String(current[name]) : current[name] === undefined || current[name] === null ? "" : String(current[name]));
  const set = (name: "lat" | "lon", raw: string) => {
    const next: Record<string, unknown> = { ...current };
    if (raw.trim() === "") delete next[name];
    else next[name] = Number.isFinite(Number(raw)) ? Number(raw) : raw;
    onChange(Object.keys(next).length ? next : null);
  };
  const label = field.label ?? field.key;
  return (
    <div role="group" id={id} aria-labelledby={`${id}-label`} aria-describedby={describedBy} class="location-input">
      <label>
        <span>Latitude</span>
        <input type="number" step="any" min={-90} max={90} value={part("lat")} readOnly={readOnly} aria-label={`${label} latitude`} aria-invalid={errors.length ? "true" : undefined} onInput={(e) => set("lat", (e.currentTarget as HTMLInputElement).value)} />
      </label>
      <label>
        <span>Longitude</span>
        <input type="number" step="any" min={-180} max={180} value={part("lon")} readOnly={readOnly} aria-label={`${label} longitude`} aria-invalid={errors.length ? "true" : undefined} onInput={(e) => set("lon", (e.currentTarget as HTMLInputElement).value)} />
      </label>
    </div>
  );
}
