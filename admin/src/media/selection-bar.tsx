import { useState } from "preact/hooks";
import { manage } from "../api/client";
import { Button, Field } from "../ui/controls";
import { useAction } from "../ui/use-action";
import { Refusal } from "./refusal";
import { folderPath, type MediaFolder, type MediaItem } from "./types";

/**
 * The files ticked in the grid (issue #30 item 13): how many, and moving them all into one folder
 * with one `moveMedia` (up to 200 ids; a logical move, addresses stay), or clearing the selection.
 */
export function SelectionBar({ ids, folders, onMoved, onClear }: { ids: readonly string[]; folders: readonly MediaFolder[]; onMoved: (moved: MediaItem[], words: string) => void; onClear: () => void }) {
  const [folderId, setFolderId] = useState("");
  const move = useAction({ sameNameIsRetry: true });
  const count = `${ids.length} ${ids.length === 1 ? "file" : "files"}`;
  const doMove = async () => {
    const body = { ids: [...ids], folder_id: folderId || null };
    const outcome = await move.attempt(`move ${JSON.stringify(body)}`, (key) => manage("moveMedia", { body, key }));
    if (outcome?.ok) onMoved(outcome.value.media, `${count} moved to ${folderId ? folderPath(folders, folderId) : "Unfiled"}.`);
  };
  return (
    <section class="media-selection" aria-label="Selected files">
      <p class="media-selection-count">{count} selected</p>
      <Field label="Move selected files to">
        {({ id }) => (
          <select id={id} value={folderId} onChange={(e) => setFolderId((e.currentTarget as HTMLSelectElement).value)}>
            <option value="">Unfiled</option>
            {folders.map((f) => (
              <option value={f.id}>{folderPath(folders, f.id)}</option>
            ))}
          </select>
        )}
      </Field>
      <Button variant="primary" busy={move.busy !== null} onClick={() => void doMove()}>
        Move {count}
      </Button>
      <Button onClick={onClear} disabled={move.busy !== null}>
        Clear selection
      </Button>
      {move.error ? <Refusal error={move.error} /> : null}
    </section>
  );
}
