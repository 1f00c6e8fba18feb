import { useRef, useState } from "preact/hooks";
import { ApiError, newActionKey } from "../api/client";
import { describeError } from "../api/error-words";
import { Button } from "../ui/controls";
import { Thumbnail } from "./media-grid";
import { Dialog } from "../ui/dialog";
import { duplicateOf, streamUpload, type UploadAnswer } from "./upload";
import { formatBytes, type MediaItem } from "./types";

type RowState = "waiting" | "sending" | "done" | "reused" | "failed" | "skipped";

interface Row {
  id: number;
  file: File;
  sent: number;
  state: RowState;
  message?: string;
  detail?: string;
  /** A fault of the network (not a refusal): Retry sends the same request again. */
  retryable?: boolean;
  /** The action's key and duplicate choice, kept so Retry repeats exactly the same request. */
  key: string;
  onDuplicate: "ask" | "use_existing" | "copy";
}

type DuplicateChoice = "use_existing" | "copy" | "cancel";

interface Pending {
  file: File;
  existing: MediaItem;
  copies: number;
  answer: (choice: DuplicateChoice) => void;
}

let rowIds = 0;

/**
 * Upload (docs/admin-ui-media.md): drop files on the area or choose them with the button; each is
 * sent alone through the admin's streamed upload with a progress bar and its state in words. The
 * limit from `getMediaLimits` is checked before a byte is sent (the service still decides). When
 * the library already holds the bytes (`media_duplicate`), a dialog offers the existing file, a copy,
 * or nothing. Files go into the folder being viewed (Unfiled otherwise).
 */
export function UploadPanel({ maxBytes, folderId, folderLabel, onUploaded }: { maxBytes: number | null; folderId: string | null; folderLabel: string; onUploaded: (media: MediaItem, how: "new" | "reused") => void }) {
  const [rows, setRows] = useState<Row[]>([]);
  const [dragging, setDragging] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  const [announce, setAnnounce] = useState("");
  const queue = useRef<Promise<void>>(Promise.resolve());
  const stops = useRef(new Map<number, AbortController>());
  const input = useRef<HTMLInputElement>(null);

  const patch = (id: number, next: Partial<Row>) => setRows((all) => all.map((r) => (r.id === id ? { ...r, ...next } : r)));

  const ask = (file: File, existing: MediaItem, copies: number) => new Promise<DuplicateChoice>((answer) => setPending({ file, existing, copies, answer }));

  async function send(row: Row): Promise<void> {
    patch(row.id, { state: "sending", sent: 0, message: undefined, detail: undefined });
    let current = row;
    for (;;) {
      try {
        const stop = new AbortController();
        stops.current.set(row.id, stop);
        const answer: UploadAnswer = await streamUpload(current.file, { name: current.file.name, folder_id: folderId, on_duplicate: current.onDuplicate }, current.key, (sent) => patch(row.id, { sent }), stop.signal).finally(() =>
          stops.current.delete(row.id),
        );
        const reused = answer.reused === true;
        patch(row.id, { state: reused ? "reused" : "done", sent: current.file.size, message: reused ? "Used the file already in the library." : "Uploaded." });
        setAnnounce(reused ? `${current.file.name}: used the file already in the library.` : `${current.file.name} uploaded.`);
        onUploaded(answer.media, reused ? "reused" : "new");
        return;
      } catch (error) {
        const duplicate = current.onDuplicate === "ask" ? duplicateOf(error) : null;
        if (duplicate) {
          const choice = await ask(current.file, duplicate.existing, duplicate.copies);
          setPending(null);
          if (choice === "cancel") {
            patch(row.id, { state: "skipped", message: "Not uploaded: the library already holds this file." });
            setAnnounce(`${current.file.name} was not uploaded.`);
            return;
          }
          // A new choice is a new action: a new key.
          current = { ...current, onDuplicate: choice, key: newActionKey() };
          patch(row.id, { onDuplicate: choice, key: current.key, sent: 0 });
          continue;
        }
        if (error instanceof DOMException && error.name === "AbortError") {
          patch(row.id, { state: "skipped", message: "Cancelled." });
          setAnnounce(`${current.file.name}: upload cancelled.`);
          return;
        }
        const words = describeError(error);
        patch(row.id, { state: "failed", message: words.title, detail: words.detail, retryable: !(error instanceof ApiError) });
        setAnnounce(`${current.file.name} was not uploaded: ${words.title}`);
        return;
      }
    }
  }

  function add(files: readonly File[]) {
    const fresh: Row[] = [];
    for (const file of files) {
      const row: Row = { id: ++rowIds, file, sent: 0, state: "waiting", key: newActionKey(), onDuplicate: "ask" };
      if (maxBytes !== null && file.size > maxBytes) {
        row.state = "failed";
        row.message = `This file is ${formatBytes(file.size)}; files may be at most ${formatBytes(maxBytes)}.`;
      }
      fresh.push(row);
    }
    setRows((all) => [...fresh, ...all]);
    for (const row of fresh) if (row.state === "waiting") queue.current = queue.current.then(() => send(row));
  }

  const retry = (row: Row) => {
    patch(row.id, { state: "waiting", retryable: false });
    queue.current = queue.current.then(() => send(row));
  };

  return (
    <section class="media-upload" aria-labelledby="media-upload-title">
      <h2 id="media-upload-title" class="visually-hidden">
        Upload
      </h2>
      <div
        role="group"
        aria-label="Drop files to upload"
        class={`drop-zone${dragging ? " drop-zone-active" : ""}`}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          add([...(event.dataTransfer?.files ?? [])]);
        }}
      >
        <p>
          Drop files here, or{" "}
          <label class="button button-primary file-button">
            choose files to upload
            <input
              ref={input}
              class="visually-hidden"
              type="file"
              multiple
              onChange={(event) => {
                const list = (event.currentTarget as HTMLInputElement).files;
                add(list ? [...list] : []);
                (event.currentTarget as HTMLInputElement).value = "";
              }}
            />
          </label>
        </p>
        <p class="muted small">
          Into: <strong>{folderLabel}</strong>
          {maxBytes !== null ? ` · up to ${formatBytes(maxBytes)} a file` : ""}
        </p>
      </div>
      <p class="visually-hidden" role="status" aria-live="polite">
        {announce}
      </p>
      {rows.some((r) => r.state !== "waiting" && r.state !== "sending") ? (
        <div class="row">
          <Button variant="ghost" onClick={() => setRows((all) => all.filter((r) => r.state === "waiting" || r.state === "sending"))}>
            Clear finished uploads
          </Button>
        </div>
      ) : null}
      {rows.length ? (
        <ul class="upload-rows" aria-label="Uploads">
          {rows.map((row) => {
            const total = row.file.size || 1;
            const sent = Math.min(row.sent, total);
            const pct = Math.round((sent / total) * 100);
            const words =
              row.state === "sending" ? `${pct}% — ${formatBytes(sent)} of ${formatBytes(row.file.size)}` : row.state === "waiting" ? "Waiting…" : (row.message ?? "");
            return (
              <li key={row.id} class={`upload-row upload-${row.state}`}>
                <span class="upload-name">{row.file.name}</span>
                <progress max={total} value={row.state === "done" || row.state === "reused" ? total : sent} aria-label={`Upload of ${row.file.name}`} />
                <span class="upload-words">
                  <span aria-hidden="true">{row.state === "failed" ? "⚠ " : row.state === "done" || row.state === "reused" ? "✓ " : ""}</span>
                  {words}
                  {row.detail ? <span class="muted"> {row.detail}</span> : null}
                </span>
                {row.state === "sending" ? (
                  <Button onClick={() => stops.current.get(row.id)?.abort()} aria-label={`Cancel upload of ${row.file.name}`}>
                    Cancel
                  </Button>
                ) : null}
                {row.state === "failed" && row.retryable ? (
                  <Button onClick={() => retry(row)} aria-label={`Retry upload of ${row.file.name}`}>
                    Retry
                  </Button>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
      {pending ? (
        <Dialog open class="media-dialog" title="This file is already in the library" onClose={() => pending.answer("cancel")}>
          <div class="duplicate-body">
            <span class="media-thumb small-thumb">
              <Thumbnail item={pending.existing} />
            </span>
            <p>
              “{pending.file.name}” has the same content as <strong>{pending.existing.file_name}</strong>
              {pending.copies > 1 ? ` (the library holds ${pending.copies} copies)` : ""}.
            </p>
          </div>
          <div class="row">
            <Button variant="primary" data-autofocus onClick={() => pending.answer("use_existing")}>
              Use the existing file
            </Button>
            <Button onClick={() => pending.answer("copy")}>Upload a copy</Button>
            <Button onClick={() => pending.answer("cancel")}>Cancel</Button>
          </div>
        </Dialog>
      ) : null}
    </section>
  );
}
