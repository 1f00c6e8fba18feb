import { Button, Field } from "../ui/controls";
import type { MediaItem } from "./types";

/** A crop as `PUT /media/{id}` takes it: the kept rectangle, fractions 0..1 of the picture (docs/media.md, "Crop"). */
export type Crop = NonNullable<MediaItem["crop"]>;

export const sameCrop = (a: Crop | null, b: Crop | null) => (a === null || b === null ? a === b : a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height);

const SIDES = [
  { key: "x", label: "Crop left edge (%)" },
  { key: "y", label: "Crop top edge (%)" },
  { key: "width", label: "Crop width (%)" },
  { key: "height", label: "Crop height (%)" },
] as const;

const fraction = (percent: number) => Math.round(percent * 10) / 1000;

/** What is wrong with a crop in words (the service refuses the same: inside the picture, at least 1 % a side), or null. */
export function cropProblem(crop: Crop | null): string | null {
  if (!crop) return null;
  if ([crop.x, crop.y, crop.width, crop.height].some((n) => !Number.isFinite(n))) return "Enter a number in each crop field.";
  if (crop.width < 0.01 || crop.height < 0.01) return "The crop's width and height must be at least 1 %.";
  if (crop.x < 0 || crop.y < 0 || crop.x + crop.width > 1.000001 || crop.y + crop.height > 1.000001) return "The crop must stay inside the picture: left + width and top + height at most 100 %.";
  return null;
}

/** The largest centred square of a picture, as a crop (the preset most layouts want). */
function centreSquare(item: MediaItem): Crop {
  const w = item.width ?? 1;
  const h = item.height ?? 1;
  if (w >= h) {
    const width = Math.round((h / w) * 1000) / 1000;
    return { x: Math.round(((1 - width) / 2) * 1000) / 1000, y: 0, width, height: 1 };
  }
  const height = Math.round((w / h) * 1000) / 1000;
  return { x: 0, y: Math.round(((1 - height) / 2) * 1000) / 1000, width: 1, height };
}

/**
 * The crop of an image (issue #30 item 13): the kept rectangle in percent of the picture, typed or
 * set by a preset, drawn on the picture above, and saved with the other details. Stored on the
 * item; delivery applies it when responsive images come (docs/media.md, "Crop").
 */
export function CropFields({ item, value, onChange }: { item: MediaItem; value: Crop | null; onChange: (next: Crop | null) => void }) {
  const problem = cropProblem(value);
  const shown = value ?? { x: 0, y: 0, width: 1, height: 1 };
  return (
    <fieldset class="stack crop-fields" aria-describedby={`crop-hint-${item.id}`}>
      <legend>Crop</legend>
      <p class="hint small" id={`crop-hint-${item.id}`}>
        The part of the picture to keep, in percent of its width and height (drawn as a dashed frame on the picture). Kept with the file; sites use it when they show the picture. {value ? null : <strong>Not cropped: the whole picture.</strong>}
      </p>
      <div class="details-two">
        {SIDES.map((side) => (
          <Field label={side.label}>
            {({ id, describedBy }) => (
              <input
                id={id}
                type="number"
                inputMode="decimal"
                min={side.key === "width" || side.key === "height" ? 1 : 0}
                max={100}
                step={0.1}
                value={Math.round(shown[side.key] * 1000) / 10}
                aria-invalid={problem && value ? "true" : undefined}
                aria-describedby={[describedBy, problem && value ? `crop-problem-${item.id}` : undefined].filter(Boolean).join(" ") || undefined}
                onInput={(e) => onChange({ ...shown, [side.key]: fraction(Number((e.currentTarget as HTMLInputElement).value)) })}
              />
            )}
          </Field>
        ))}
      </div>
      {problem && value ? (
        <p class="error" id={`crop-problem-${item.id}`} role="alert">
          <span aria-hidden="true">⚠ </span>
          {problem}
        </p>
      ) : null}
      <div class="row">
        {item.width && item.height ? <Button onClick={() => onChange(centreSquare(item))}>Square in the centre</Button> : null}
        {value ? <Button onClick={() => onChange(null)}>Whole picture (no crop)</Button> : null}
      </div>
    </fieldset>
  );
}
