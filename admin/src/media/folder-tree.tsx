import { useState } from "preact/hooks";
import { manage } from "../api/client";
import { describeError } from "../api/error-words";
import { Button, Field, Notice } from "../ui/controls";
import { Dialog } from "../ui/dialog";
import { folderPath, type FolderFilter, type FolderTree, type MediaFolder } from "./types";
import { useAction } from "../ui/use-action";

type Dialog = { kind: "create" } | { kind: "rename"; folder: MediaFolder } | { kind: "move"; folder: MediaFolder } | { kind: "remove"; folder: MediaFolder } | null;

/** The folder that `filter` names, if any. */
export function selectedFolder(tree: FolderTree | null, filter: FolderFilter): MediaFolder | null {
  return filter.kind === "folder" ? (tree?.folders.find((f) => f.id === filter.id) ?? null) : null;
}

/**
 * The folder tree (`listMediaFolders`): All files, Unfiled and every folder depth first with its own
 * file count; choosing one filters the grid. Create (under the chosen folder), rename, move and
 * remove the chosen folder through dialogs; the service's refusals are shown in words in them.
 */
export function FolderTreePanel({ tree, filter, onFilter, onChanged }: { tree: FolderTree | null; filter: FolderFilter; onFilter: (next: FolderFilter) => void; onChanged: (removed?: string[]) => Promise<void> }) {
  const [dialog, setDialog] = useState<Dialog>(null);
  const current = selectedFolder(tree, filter);
  const entry = (id: string, label: string, count: number, depth: number, active: boolean, choose: () => void) => (
    <li key={id}>
      <button type="button" class="folder-entry" style={{ paddingLeft: `${0.5 + depth * 0.9}rem` }} aria-current={active ? "true" : undefined} onClick={choose}>
        <span class="folder-name">{label}</span>
        <span class="folder-count" aria-label={`${count} ${count === 1 ? "file" : "files"}`}>
          {count}
        </span>
      </button>
    </li>
  );
  return (
    <nav class="media-folders" aria-label="Folders">
      <h2 class="visually-hidden">Folders</h2>
      <ul class="folder-list">
        {entry("all", "All files", tree?.total ?? 0, 0, filter.kind === "all", () => onFilter({ kind: "all" }))}
        {entry("unfiled", "Unfiled", tree?.unfiled ?? 0, 0, filter.kind === "unfiled", () => onFilter({ kind: "unfiled" }))}
        {(tree?.folders ?? []).map((f) => entry(f.id, f.name, f.media_count, f.depth - 1, filter.kind === "folder" && filter.id === f.id, () => onFilter({ kind: "folder", id: f.id })))}
      </ul>
      <div class="folder-actions">
        <Button onClick={() => setDialog({ kind: "create" })}>New folder</Button>
        {current ? (
          <>
            <Button onClick={() => setDialog({ kind: "rename", folder: current })} aria-label={`Rename folder ${current.name}`}>
              Rename
            </Button>
            <Button onClick={() => setDialog({ kind: "move", folder: current })} aria-label={`Move folder ${current.name}`}>
              Move
            </Button>
            <Button variant="danger" onClick={() => setDialog({ kind: "remove", folder: current })} aria-label={`Remove folder ${current.name}`}>
              Remove
            </Button>
          </>
        ) : null}
      </div>
      {dialog ? (
        <FolderDialog
          dialog={dialog}
          tree={tree}
          parent={current}
          onClose={() => setDialog(null)}
          onDone={async (result) => {
            setDialog(null);
            await onChanged(result.removed);
            if (result.select) onFilter({ kind: "folder", id: result.select });
          }}
        />
      ) : null}
    </nav>
  );
}

function FolderDialog({ dialog, tree, parent, onClose, onDone }: { dialog: NonNullable<Dialog>; tree: FolderTree | null; parent: MediaFolder | null; onClose: () => void; onDone: (result: { select?: string; removed?: string[] }) => Promise<void> }) {
  const folders = tree?.folders ?? [];
  const action = useAction({ sameNameIsRetry: true });
  const [name, setName] = useState(dialog.kind === "rename" ? dialog.folder.name : "");
  const initialParent = dialog.kind === "create" ? (parent?.id ?? "") : dialog.kind === "move" ? (dialog.folder.parent_id ?? "") : "";
  const [parentId, setParentId] = useState(initialParent);
  const failure = action.error ? describeError(action.error) : null;
  const parentChoices = folders.filter((f) => dialog.kind !== "move" || f.id !== dialog.folder.id);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (dialog.kind === "create") {
      const body = { name, parent_id: parentId || null };
      const answer = await action.attempt(`create ${JSON.stringify(body)}`, (key) => manage("createMediaFolder", { body, key }));
      if (answer?.ok) await onDone({ select: answer.value.folder.id });
    } else if (dialog.kind === "rename") {
      const body = { expected_revision: dialog.folder.revision, name };
      const answer = await action.attempt(`rename ${dialog.folder.id} ${JSON.stringify(body)}`, (key) => manage("updateMediaFolder", { params: { id: dialog.folder.id }, body, key }));
      if (answer?.ok) await onDone({ select: answer.value.folder.id });
    } else if (dialog.kind === "move") {
      const body = { expected_revision: dialog.folder.revision, parent_id: parentId || null };
      const answer = await action.attempt(`move ${dialog.folder.id} ${JSON.stringify(body)}`, (key) => manage("updateMediaFolder", { params: { id: dialog.folder.id }, body, key }));
      if (answer?.ok) await onDone({ select: answer.value.folder.id });
    } else {
      const f = dialog.folder;
      const body = { expected_revision: f.revision, expected_folders: f.subtree_folder_count, expected_media: f.subtree_media_count };
      const answer = await action.attempt(`remove ${f.id} ${JSON.stringify(body)}`, (key) => manage("removeMediaFolder", { params: { id: f.id }, body, key }));
      if (answer?.ok) await onDone({ removed: answer.value.removed.folder_ids });
    }
  };

  const title =
    dialog.kind === "create" ? "New folder" : dialog.kind === "rename" ? `Rename folder “${dialog.folder.name}”` : dialog.kind === "move" ? `Move folder “${dialog.folder.name}”` : `Remove folder “${dialog.folder.name}”?`;
  const parentSelect = (label: string) => (
    <Field label={label}>
      {({ id }) => (
        <select id={id} value={parentId} onChange={(e) => setParentId((e.currentTarget as HTMLSelectElement).value)}>
          <option value="">Top level</option>
          {parentChoices.map((f) => (
            <option value={f.id}>{folderPath(folders, f.id)}</option>
          ))}
        </select>
      )}
    </Field>
  );
  return (
    <Dialog open class="media-dialog" title={title} onClose={onClose}>
      <form class="stack" onSubmit={submit}>
        {dialog.kind === "create" || dialog.kind === "rename" ? (
          <Field label="Folder name" hint={`1 to ${tree?.limits.name_max ?? 80} characters.`}>
            {({ id, describedBy }) => (
              <input id={id} type="text" data-autofocus required value={name} aria-describedby={describedBy} onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} />
            )}
          </Field>
        ) : null}
        {dialog.kind === "create" ? parentSelect("Inside") : null}
        {dialog.kind === "move" ? parentSelect("Move into") : null}
        {dialog.kind === "remove" ? (
          <p>
            {dialog.folder.subtree_folder_count > 1 ? `This removes the folder and ${dialog.folder.subtree_folder_count - 1} folder(s) inside it. ` : "This removes the folder. "}
            {dialog.folder.subtree_media_count > 0 ? `Its ${dialog.folder.subtree_media_count} file(s) are kept and become Unfiled.` : "It holds no files."}
          </p>
        ) : null}
        {failure ? (
          <Notice kind="error" title={failure.title}>
            {failure.detail ? <p>{failure.detail}</p> : null}
          </Notice>
        ) : null}
        <div class="row">
          <Button type="submit" variant={dialog.kind === "remove" ? "danger" : "primary"} busy={action.busy !== null} data-autofocus={dialog.kind === "remove" ? true : undefined}>
            {dialog.kind === "create" ? "Create folder" : dialog.kind === "rename" ? "Rename" : dialog.kind === "move" ? "Move" : "Remove folder"}
          </Button>
          <Button onClick={onClose}>Cancel</Button>
        </div>
      </form>
    </Dialog>
  );
}
