import { Button } from "../ui/controls";
import { useFilePreview } from "./file-preview";
import { formatBytes, type MediaItem } from "./types";

const KIND_MARK: Record<string, string> = { image: "IMG", document: "DOC", audio: "AUD", video: "VID", file: "FILE" };

/** A kind mark where there is no picture (documents, audio, video, large or unreadable images). */
export function KindMark({ item }: { item: MediaItem }) {
  const ext = item.file_name.includes(".") ? item.file_name.split(".").pop()?.toUpperCase().slice(0, 5) : undefined;
  return (
    <span class="kind-mark" aria-hidden="true">
      {ext ?? KIND_MARK[item.kind] ?? "FILE"}
    </span>
  );
}

/** The picture of an item, or its kind mark. Decorative: the card names the file in words. */
export function Thumbnail({ item }: { item: MediaItem }) {
  const url = useFilePreview(item);
  if (url) return <img class="thumb-img" src={url} alt="" loading="lazy" />;
  if (url === undefined) return <span class="thumb-loading" aria-hidden="true" />;
  return <KindMark item={item} />;
}

/**
 * The grid of files: each card is a button (Tab reaches it, Enter or Space chooses it; the chosen
 * one is marked pressed and outlined, and says "selected" in words), showing the picture, the file
 * name and its kind and size. "Load more" follows the list's cursor. A checkbox on each card
 * ("Select NAME") ticks files for the screen's actions on several at once (moving).
 */
export function MediaGrid({
  items,
  selectedId,
  onSelect,
  hasMore,
  loadingMore,
  onMore,
  picked,
  onPick,
}: {
  items: readonly MediaItem[];
  selectedId: string | null;
  onSelect: (item: MediaItem) => void;
  hasMore: boolean;
  loadingMore: boolean;
  onMore: () => void;
  /** Files ticked for an action on several at once (moving); each card has its own checkbox. */
  picked?: ReadonlySet<string>;
  onPick?: (item: MediaItem, on: boolean) => void;
}) {
  return (
    <>
      <ul class="media-grid" aria-label="Files">
        {items.map((item) => {
          const selected = item.id === selectedId;
          return (
            <li key={item.id}>
              {onPick ? (
                <span class="media-pick">
                  <input type="checkbox" aria-label={`Select ${item.file_name}`} checked={picked?.has(item.id) ?? false} onChange={(e) => onPick(item, (e.currentTarget as HTMLInputElement).checked)} />
                </span>
              ) : null}
              <button type="button" class="media-card" aria-pressed={selected ? "true" : "false"} aria-controls={selectedId ? "media-details" : undefined} onClick={() => onSelect(item)}>
                <span class="media-thumb">
                  <Thumbnail item={item} />
                </span>
                <span class="media-card-name">{item.file_name}</span>
                <span class="media-card-meta">
                  {item.kind} · {formatBytes(item.byte_length)}
                  {item.width && item.height ? ` · ${item.width}×${item.height}` : ""}
                  {item.external_url ? " · linked" : ""}
                </span>
                {selected ? <span class="media-card-selected">✓ Selected</span> : null}
              </button>
            </li>
          );
        })}
      </ul>
      {hasMore ? (
        <div class="row media-more">
          <Button onClick={onMore} busy={loadingMore}>
            Load more files
          </Button>
        </div>
      ) : null}
    </>
  );
}
