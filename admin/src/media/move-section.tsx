import { useState } from "preact/hooks";
import { manage } from "../api/client";
import { Button, Field } from "../ui/controls";
import { Refusal } from "./refusal";
import { folderPath, type MediaFolder, type MediaItem } from "./types";
import { useAction } from "../ui/use-action";

/** The file's folder: "Move to folder" and Move (`moveMedia` with one id; a logical move, the address stays). */
export function MoveSection({ item, folders, onChanged, onStatus }: { item: MediaItem; folders: readonly MediaFolder[]; onChanged: (item: MediaItem) => void; onStatus: (words: string) => void }) {
  const move = useAction({ sameNameIsRetry: true });
  const [folderId, setFolderId] = useState(item.folder_id ?? "");
  const doMove = async () => {
    const body = { ids: [item.id], folder_id: folderId || null };
    const answer = await move.attempt(`move ${JSON.stringify(body)}`, (key) => manage("moveMedia", { body, key }));
    const moved = answer?.ok ? answer.value.media[0] : undefined;
    if (moved) {
      onChanged(moved);
      onStatus(`Moved to ${folderId ? folderPath(folders, folderId) : "Unfiled"}.`);
    }
  };
  return (
    <section class="stack details-section" aria-labelledby="media-move-title">
      <h3 id="media-move-title">Folder</h3>
      <div class="row move-row">
        <Field label="Move to folder">
          {({ id }) => (
            <select id={id} value={folderId} onChange={(e) => setFolderId((e.currentTarget as HTMLSelectElement).value)}>
              <option value="">Unfiled</option>
              {folders.map((f) => (
                <option value={f.id}>{folderPath(folders, f.id)}</option>
              ))}
            </select>
          )}
        </Field>
        <Button onClick={() => void doMove()} busy={move.busy !== null} disabled={folderId === (item.folder_id ?? "")}>
          Move
        </Button>
      </div>
      {move.error ? <Refusal error={move.error} /> : null}
    </section>
  );
}
