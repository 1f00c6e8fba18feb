import { useEffect, useId, useState } from "preact/hooks";
import { manage, type ManageAnswer } from "../api/client";
import { Button } from "./controls";
import { MediaThumb, type MediaSummary } from "./media-thumb";
import { PickerDialog } from "./picker-dialog";
import { PickerResults, usePages } from "./picker-results";
import { SourceImport } from "../media/source-import";

type Folder = ManageAnswer<"listMediaFolders">["folders"][number];

/** The alt text of a media item in a language, else its first one, else "". */
export function altText(media: MediaSummary, lang: string): string {
  return media.alt_texts[lang] ?? Object.values(media.alt_texts)[0] ?? "";
}

/**
 * Arrow keys move between the grid's tiles (left/right along the row, up/down to the tile above or
 * below), Home and End to the first and last; Tab still walks them one by one.
 */
function moveInGrid(event: KeyboardEvent): void {
  const tiles = Array.from((event.currentTarget as HTMLElement).querySelectorAll<HTMLButtonElement>("button.media-tile")).filter((b) => !b.disabled);
  const at = tiles.indexOf(document.activeElement as HTMLButtonElement);
  if (at === -1) return;
  const top = (b: HTMLElement) => b.getBoundingClientRect().top;
  const columns = Math.max(1, tiles.filter((b) => Math.abs(top(b) - top(tiles[0] as HTMLElement)) < 2).length);
  const step: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: columns, ArrowUp: -columns };
  let next: number;
  if (event.key === "Home") next = 0;
  else if (event.key === "End") next = tiles.length - 1;
  else if (step[event.key] !== undefined) next = at + (step[event.key] as number);
  else return;
  if (next < 0 || next >= tiles.length) return;
  event.preventDefault();
  tiles[next]?.focus();
}

/**
 * "Choose from library": the media library as a grid (`listMedia`, 60 at a time, "Load more"),
 * searched by the service (`q`: file name, alt texts, tags) and filtered by folder
 * (`listMediaFolders`). Every tile is a toggle button (Tab or the arrow keys to move, Space or Enter
 * to choose; aria-pressed says what is chosen, a tick shows it too); "Use selected" hands the items
 * back in the order chosen. The plugins' media sources are offered here as in the library ("Add
 * from …", media/source-import.tsx): an item imported or linked from one comes back chosen.
 */
export function MediaPicker({ open, lang, multiple, kind, exclude, onPick, onClose }: { open: boolean; lang: string; multiple: boolean; kind?: string | undefined; exclude: readonly string[]; onPick: (media: MediaSummary[]) => void; onClose: () => void }) {
  const id = useId();
  const [folders, setFolders] = useState<Folder[]>([]);
  const [folder, setFolder] = useState("");
  const [query, setQuery] = useState("");
  const [asked, setAsked] = useState("");
  const [chosen, setChosen] = useState<MediaSummary[]>([]);
  const pages = usePages(async (from) => {
    const page = await manage("listMedia", { query: { q: asked || undefined, folder_id: folder || undefined, kind: kind as "image" | undefined, limit: "60", cursor: from ?? undefined } });
    return { items: page.data as MediaSummary[], next: page.page.next_cursor };
  });
  const items = pages.items ?? [];

  useEffect(() => {
    if (!open) return;
    setChosen([]);
    manage("listMediaFolders").then((answer) => setFolders(answer.folders), () => setFolders([]));
  }, [open]);
  useEffect(() => {
    if (!open) return;
    pages.restart();
  }, [open, folder, asked]);

  const toggle = (media: MediaSummary) => {
    if (!multiple) {
      setChosen([media]);
      return;
    }
    setChosen((list) => (list.some((m) => m.id === media.id) ? list.filter((m) => m.id !== media.id) : [...list, media]));
  };

  return (
    <PickerDialog
      open={open}
      wide
      title="Choose from library"
      onClose={onClose}
      footer={
        <>
          <Button variant="primary" disabled={chosen.length === 0} onClick={() => onPick(chosen)}>
            {chosen.length > 1 ? `Use ${chosen.length} selected` : "Use selected"}
          </Button>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
        </>
      }
    >
      <form
        class="picker-filters"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          setAsked(query.trim());
        }}
      >
        <div class="field">
          <label for={`${id}-q`}>Search the library</label>
          <input id={`${id}-q`} type="search" value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for={`${id}-folder`}>Folder</label>
          <select id={`${id}-folder`} value={folder} onChange={(e) => setFolder(e.currentTarget.value)}>
            <option value="">All folders</option>
            {folders.map((f) => (
              <option value={f.id}>{`${"— ".repeat(Math.max(0, f.depth - 1))}${f.name}`}</option>
            ))}
          </select>
        </div>
        <Button type="submit">Search</Button>
      </form>
      <SourceImport
        onImported={(media) => {
          pages.restart();
          // Chosen at once (the reason it was imported), unless the field takes another kind.
          if (!kind || media.kind === kind) toggle(media);
        }}
      />
      <PickerResults
        pages={pages}
        loading="Loading the library…"
        status={items.length === 0 ? "Nothing in the library matches." : `${items.length} ${items.length === 1 ? "file" : "files"} shown${chosen.length ? `, ${chosen.length} selected` : ""}.`}
      >
        <ul class="media-grid" aria-label="Library files" onKeyDown={moveInGrid}>
          {items.map((media) => {
            const already = exclude.includes(media.id);
            const selected = chosen.some((m) => m.id === media.id);
            const alt = altText(media, lang);
            return (
              <li>
                <button type="button" class={`media-tile${selected ? " is-selected" : ""}`} aria-pressed={selected ? "true" : "false"} disabled={already} onClick={() => toggle(media)}>
                  <MediaThumb media={media} alt="" />
                  <span class="media-tile-name">{media.file_name}</span>
                  {alt ? <span class="visually-hidden">{`, ${alt}`}</span> : null}
                  {already ? <span class="muted">Already chosen</span> : null}
                  {selected ? (
                    <span class="media-tile-tick" aria-hidden="true">
                      ✓
                    </span>
                  ) : null}
                </button>
              </li>
            );
          })}
        </ul>
      </PickerResults>
    </PickerDialog>
  );
}
