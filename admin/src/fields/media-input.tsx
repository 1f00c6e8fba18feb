import { useEffect, useState } from "preact/hooks";
import { manage } from "../api/client";
import { Button } from "../ui/controls";
import { MediaPicker, altText } from "../ui/media-picker";
import type { MediaSummary } from "../ui/media-thumb";
import { MediaThumb } from "../ui/media-thumb";
import { OrderedList } from "../ui/ordered-list";
import { useOwnValues } from "./own-values";
import type { FieldInputProps } from "./types";
import "../styles/fields.css";

/**
 * The media field's input (docs/admin-ui-fields.md): the chosen file(s) with a thumbnail, the file
 * name and the alt text in the entry's language (alt texts are edited in the media library), remove,
 * reorder when the field holds several; "Choose from library" opens the picker. The value is the
 * media id, or the ordered list of ids when the field is `multiple`.
 */

type Chosen = { id: string; media: MediaSummary | null };

const KNOWN = new Map<string, MediaSummary>();

function mediaIdsOf(value: unknown): string[] {
  if (typeof value === "string" && value) return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return [];
}

async function mediaOf(id: string): Promise<MediaSummary | null> {
  const known = KNOWN.get(id);
  if (known) return known;
  try {
    const { media } = await manage("getMedia", { params: { id } });
    KNOWN.set(id, media);
    return media;
  } catch {
    return null;
  }
}

export function MediaInput({ field, lang, value, onChange, readOnly, id, describedBy }: FieldInputProps) {
  const multiple = field.multiple === true;
  const label = field.label ?? field.key;
  const [items, setItems] = useState<Chosen[]>(() => mediaIdsOf(value).map((m) => ({ id: m, media: KNOWN.get(m) ?? null })));
  const [picking, setPicking] = useState(false);
  const own = useOwnValues();

  useEffect(() => {
    const ids = mediaIdsOf(value);
    if (own.mine(JSON.stringify(ids))) return;
    let live = true;
    void Promise.all(ids.map(async (m) => ({ id: m, media: await mediaOf(m) }))).then((found) => {
      if (live) setItems(found);
    });
    return () => {
      live = false;
    };
  }, [JSON.stringify(mediaIdsOf(value))]);

  const emit = (next: Chosen[]) => {
    setItems(next);
    const ids = next.map((c) => c.id);
    own.note(JSON.stringify(ids));
    onChange(multiple ? ids : (ids[0] ?? null));
  };

  const name = (c: Chosen) => c.media?.file_name ?? c.id;
  return (
    <div class="media-input" id={id} role="group" aria-label={label} aria-describedby={describedBy}>
      {items.length === 0 ? <p class="muted">{multiple ? "No files chosen." : "No file chosen."}</p> : null}
      <OrderedList
        label={label}
        items={items}
        keyOf={(c) => c.id}
        nameOf={name}
        reorderable={multiple && !readOnly}
        onReorder={emit}
        onRemove={readOnly ? undefined : (c) => emit(items.filter((x) => x.id !== c.id))}
        render={(c) => {
          const alt = c.media ? altText(c.media, lang) : "";
          return (
            <span class="media-chosen">
              {c.media ? <MediaThumb media={c.media} alt={alt} /> : null}
              <span class="media-chosen-text">
                <span class="media-chosen-name">{c.media ? c.media.file_name : `${c.id} (not found)`}</span>
                <span class={alt ? "muted" : "media-no-alt"}>{alt ? `Alt text: ${alt}` : `No alt text in ${lang}`}</span>
              </span>
            </span>
          );
        }}
      />
      {readOnly ? null : (
        <div class="row">
          <Button onClick={() => setPicking(true)} aria-haspopup="dialog" aria-label={`Choose from library for ${label}`}>
            Choose from library
          </Button>
        </div>
      )}
      <MediaPicker
        open={picking}
        lang={lang}
        multiple={multiple}
        exclude={multiple ? items.map((c) => c.id) : []}
        onClose={() => setPicking(false)}
        onPick={(picked) => {
          for (const m of picked) KNOWN.set(m.id, m);
          const fresh = picked.map((m) => ({ id: m.id, media: m }));
          emit(multiple ? [...items, ...fresh] : fresh.slice(0, 1));
          setPicking(false);
        }}
      />
    </div>
  );
}
