import type { JSX } from "preact";

export interface FocalPoint {
  x: number;
  y: number;
}

const clamp = (value: number) => Math.min(1, Math.max(0, Math.round(value * 1000) / 1000));
const percent = (value: number) => `${Math.round(value * 100)}%`;

/**
 * A focal point picker on an image (docs/admin-ui-media.md): a click on the picture, or the arrow
 * keys while it has focus (5 % a step, 1 % with Shift; Home centres it), sets x/y as fractions 0..1
 * of width and height — the `default_focal` of `PUT /media/{id}`. The point is a marker on the
 * picture and its value is read out in words (role slider with aria-valuetext: "across 50 %, down
 * 45 %"). Without a point the marker is absent and the value says so. Shared: the entry editor's
 * media picker may import it.
 */
export function FocalPointPicker({ src, alt, value, onChange, label = "Focal point", describedBy, crop = null }: { src: string; alt: string; value: FocalPoint | null; onChange: (next: FocalPoint) => void; label?: string; describedBy?: string; crop?: { x: number; y: number; width: number; height: number } | null }) {
  const shown = value ?? { x: 0.5, y: 0.5 };
  const words = value ? `across ${percent(value.x)}, down ${percent(value.y)}` : "not set (centre used)";
  const onKey = (event: JSX.TargetedKeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? 0.01 : 0.05;
    const moves: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    if (event.key === "Home") {
      event.preventDefault();
      onChange({ x: 0.5, y: 0.5 });
      return;
    }
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    onChange({ x: clamp(shown.x + move[0]), y: clamp(shown.y + move[1]) });
  };
  const onClick = (event: JSX.TargetedMouseEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return;
    onChange({ x: clamp((event.clientX - box.left) / box.width), y: clamp((event.clientY - box.top) / box.height) });
    event.currentTarget.focus();
  };
  return (
    <div
      class="focal-picker"
      role="slider"
      tabIndex={0}
      aria-label={label}
      aria-describedby={describedBy}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(shown.x * 100)}
      aria-valuetext={words}
      onKeyDown={onKey}
      onClick={onClick}
    >
      <img src={src} alt={alt} draggable={false} />
      {crop ? <span class="crop-frame" style={{ left: percent(crop.x), top: percent(crop.y), width: percent(crop.width), height: percent(crop.height) }} aria-hidden="true" /> : null}
      {value ? (
        <span class="focal-marker" style={{ left: percent(value.x), top: percent(value.y) }} aria-hidden="true">
          <span class="focal-marker-dot" />
        </span>
      ) : null}
    </div>
  );
}
