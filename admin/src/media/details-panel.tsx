import { useEffect, useState } from "preact/hooks";
import { ApiError, manage } from "../api/client";
import { describeError, fieldIssues } from "../api/error-words";
import { Button, Field, Loading, Notice } from "../ui/controls";
import { hasPreview, useFilePreview } from "./file-preview";
import { FocalPointPicker, type FocalPoint } from "./focal-point";
import { KindMark } from "./media-grid";
import { Modal } from "./modal";
import { UsageList } from "./usage-list";
import { folderPath, formatBytes, languageLabel, type MediaFolder, type MediaItem, type MediaUsage } from "./types";
import { useAction } from "./use-action";

const samePoint = (a: FocalPoint | null, b: FocalPoint | null) => (a === null || b === null ? a === b : a.x === b.x && a.y === b.y);

function Refusal({ error }: { error: unknown }) {
  const words = describeError(error);
  return (
    <Notice kind="error" title={words.title}>
      {words.detail ? <p class="muted">{words.detail}</p> : null}
    </Notice>
  );
}

/**
 * The chosen file's details (docs/admin-ui-media.md): its picture with the focal point picker,
 * facts, alt texts in every language of the site, loading hints — saved together by one
 * `updateMedia` with the revision read (a stale one is `media_changed`, said in words with a
 * reload) —, the folder it is in (`moveMedia`), where it is used (`getMediaUsage`) and removal
 * (`removeMedia`, refused in words with the usage while content uses it).
 */
export function DetailsPanel({
  site,
  item,
  languages,
  folders,
  onChanged,
  onRemoved,
  onReload,
}: {
  site: string;
  item: MediaItem;
  languages: readonly string[];
  folders: readonly MediaFolder[];
  onChanged: (item: MediaItem) => void;
  onRemoved: (item: MediaItem) => void;
  onReload: (id: string) => Promise<void>;
}) {
  const preview = useFilePreview(item);
  const save = useAction();
  const move = useAction();
  const remove = useAction();
  const replace = useAction();
  const [replacement, setReplacement] = useState<File | null>(null);
  const [alt, setAlt] = useState<Record<string, string>>({});
  const [focal, setFocal] = useState<FocalPoint | null>(item.default_focal);
  const [loading, setLoading] = useState(item.loading);
  const [priority, setPriority] = useState(item.fetch_priority);
  const [folderId, setFolderId] = useState(item.folder_id ?? "");
  const [status, setStatus] = useState("");
  const [usage, setUsage] = useState<MediaUsage | null | undefined>(undefined);
  const [usageError, setUsageError] = useState<unknown>(null);
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    setAlt(Object.fromEntries(languages.map((lang) => [lang, item.alt_texts[lang] ?? ""])));
    setFocal(item.default_focal);
    setLoading(item.loading);
    setPriority(item.fetch_priority);
    setFolderId(item.folder_id ?? "");
    // A newer revision (saved here, or reloaded after a refusal) answers any earlier refusal.
    if (save.error instanceof ApiError && save.error.code === "media_changed") save.clearError();
  }, [item.id, item.revision, item.folder_id, languages.join(",")]);

  const loadUsage = async () => {
    setUsage(undefined);
    setUsageError(null);
    try {
      setUsage(await manage("getMediaUsage", { params: { id: item.id } }));
    } catch (error) {
      setUsage(null);
      setUsageError(error);
    }
  };
  useEffect(() => {
    setStatus("");
    save.clearError();
    move.clearError();
    remove.clearError();
    replace.clearError();
    setReplacement(null);
    void loadUsage();
  }, [item.id]);

  // A refusal replaces the dialog's Remove button: focus its Close button, where the words are.
  useEffect(() => {
    if (confirming && remove.error) document.querySelector<HTMLElement>(".media-dialog[open] [data-autofocus]")?.focus();
  }, [confirming, remove.error]);

  const changedAlt = Object.fromEntries(languages.filter((lang) => (alt[lang] ?? "") !== (item.alt_texts[lang] ?? "")).map((lang) => [lang, alt[lang] ?? ""]));
  const body = {
    expected_revision: item.revision,
    ...(Object.keys(changedAlt).length ? { alt_texts: changedAlt } : {}),
    ...(item.kind === "image" && !samePoint(focal, item.default_focal) ? { default_focal: focal } : {}),
    ...(loading !== item.loading ? { loading } : {}),
    ...(priority !== item.fetch_priority ? { fetch_priority: priority } : {}),
  };
  const dirty = Object.keys(body).length > 1;
  const issues = fieldIssues(save.error);
  const stale = save.error instanceof ApiError && save.error.code === "media_changed";

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!dirty) return;
    const answer = await save.run(`update ${item.id} ${JSON.stringify(body)}`, (key) => manage("updateMedia", { params: { id: item.id }, body, key }));
    if (answer) {
      onChanged(answer.media);
      setStatus("Changes saved.");
    }
  };

  const doMove = async () => {
    const body = { ids: [item.id], folder_id: folderId || null };
    const answer = await move.run(`move ${JSON.stringify(body)}`, (key) => manage("moveMedia", { body, key }));
    const moved = answer?.media[0];
    if (moved) {
      onChanged(moved);
      setStatus(`Moved to ${folderId ? folderPath(folders, folderId) : "Unfiled"}.`);
    }
  };

  const doReplace = async () => {
    if (!replacement) return;
    const file = replacement;
    const answer = await replace.run(`replace ${item.id} ${item.revision} ${file.name} ${file.size} ${file.lastModified}`, (key) => {
      const form = new FormData();
      form.append("file", file, file.name);
      form.append("expected_revision", String(item.revision));
      return manage("replaceMedia", { params: { id: item.id }, body: form, key });
    });
    if (answer) {
      setReplacement(null);
      onChanged(answer.media);
      setStatus("unchanged" in answer && answer.unchanged ? "The new file is the same as the current one; nothing changed." : `Replaced with ${file.name}.`);
    }
  };

  const doRemove = async () => {
    const answer = await remove.run(`remove ${item.id} ${item.revision}`, (key) => manage("removeMedia", { params: { id: item.id }, body: { expected_revision: item.revision }, key }));
    if (answer) {
      setConfirming(false);
      onRemoved(answer.media);
    }
  };
  const inUse = remove.error instanceof ApiError && remove.error.code === "media_in_use" ? (remove.error.details as unknown as MediaUsage) : null;
  const altHintId = `alt-hint-${item.id}`;

  return (
    <section id="media-details" class="media-details card" aria-labelledby="media-details-title">
      <h2 id="media-details-title" class="details-title">
        {item.file_name}
      </h2>
      <p class="visually-hidden" role="status" aria-live="polite">
        {status}
      </p>
      {status ? (
        <p class="details-status" aria-hidden="true">
          ✓ {status}
        </p>
      ) : null}

      <form class="stack" onSubmit={submit} aria-label="File details">
        {item.kind === "image" && hasPreview(item) ? (
          preview ? (
            <div class="stack focal-block">
              <FocalPointPicker src={preview} alt={item.alt_texts[languages[0] ?? ""] ?? ""} value={focal} onChange={setFocal} describedBy={`focal-hint-${item.id}`} />
              <p class="hint small" id={`focal-hint-${item.id}`}>
                Focal point: the part of the picture kept when it is cropped. Click the picture, or focus it and use the arrow keys (Shift for small steps, Home to centre).{" "}
                <strong>{focal ? `Across ${Math.round(focal.x * 100)}%, down ${Math.round(focal.y * 100)}%.` : "Not set."}</strong>
              </p>
              {focal ? (
                <div class="row">
                  <Button onClick={() => setFocal(null)}>Clear focal point</Button>
                </div>
              ) : null}
            </div>
          ) : preview === undefined ? (
            <Loading label="Loading picture…" />
          ) : (
            <p class="muted">The picture could not be loaded.</p>
          )
        ) : (
          <div class="details-kind">
            <KindMark item={item} />
          </div>
        )}

        <dl class="facts">
          <dt>Type</dt>
          <dd>
            {item.kind} ({item.mime_type})
          </dd>
          <dt>Size</dt>
          <dd>{formatBytes(item.byte_length)}</dd>
          {item.width && item.height ? (
            <>
              <dt>Dimensions</dt>
              <dd>
                {item.width} × {item.height} pixels
              </dd>
            </>
          ) : null}
          <dt>Folder</dt>
          <dd>{item.folder_id ? folderPath(folders, item.folder_id) || "Unknown folder" : "Unfiled"}</dd>
          <dt>Uploaded</dt>
          <dd>{new Date(item.created_at).toLocaleString()}</dd>
          <dt>Address</dt>
          <dd class="mono">{item.url}</dd>
        </dl>

        <fieldset class="stack">
          <legend>Alt texts</legend>
          <p class="hint small" id={altHintId}>
            What the picture shows, for people who cannot see it, in each language (at most 1000 characters). Empty means none.
          </p>
          {languages.map((lang) => (
            <Field label={`Alt text, ${languageLabel(lang)}`} errors={issues.get(`alt_texts.${lang}`)}>
              {({ id, describedBy, invalid }) => (
                <textarea
                  id={id}
                  rows={2}
                  maxLength={1000}
                  lang={lang}
                  value={alt[lang] ?? ""}
                  aria-invalid={invalid ? "true" : undefined}
                  aria-describedby={[altHintId, describedBy].filter(Boolean).join(" ")}
                  onInput={(e) => setAlt({ ...alt, [lang]: (e.currentTarget as HTMLTextAreaElement).value })}
                />
              )}
            </Field>
          ))}
        </fieldset>

        <div class="details-two">
          <Field label="Loading">
            {({ id }) => (
              <select id={id} value={loading} onChange={(e) => setLoading((e.currentTarget as HTMLSelectElement).value as MediaItem["loading"])}>
                <option value="lazy">Lazy (when scrolled near)</option>
                <option value="eager">Eager (at once)</option>
              </select>
            )}
          </Field>
          <Field label="Fetch priority">
            {({ id }) => (
              <select id={id} value={priority} onChange={(e) => setPriority((e.currentTarget as HTMLSelectElement).value as MediaItem["fetch_priority"])}>
                <option value="auto">Auto</option>
                <option value="high">High</option>
                <option value="low">Low</option>
              </select>
            )}
          </Field>
        </div>

        {save.error ? (
          <div class="stack">
            <Refusal error={save.error} />
            {stale ? (
              <div class="row">
                <Button onClick={() => void onReload(item.id)}>Reload this file</Button>
              </div>
            ) : null}
          </div>
        ) : null}
        <div class="row">
          <Button type="submit" variant="primary" busy={save.busy} disabled={!dirty}>
            Save changes
          </Button>
          {!dirty ? <span class="muted small">No unsaved changes.</span> : <span class="small">Unsaved changes.</span>}
        </div>
      </form>

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
          <Button onClick={() => void doMove()} busy={move.busy} disabled={folderId === (item.folder_id ?? "")}>
            Move
          </Button>
        </div>
        {move.error ? <Refusal error={move.error} /> : null}
      </section>

      <section class="stack details-section" aria-labelledby="media-replace-title">
        <h3 id="media-replace-title">Replace file</h3>
        <p class="small muted">A new file of the same kind takes this one's place everywhere it is used; alt texts, focal point and folder stay. Published content keeps the old file until it is published again.</p>
        <div class="stack replace-row">
          <Field label="New file">
            {({ id }) => <input id={id} key={`${item.id}-${item.revision}`} type="file" onChange={(e) => setReplacement((e.currentTarget as HTMLInputElement).files?.[0] ?? null)} />}
          </Field>
          <Button onClick={() => void doReplace()} busy={replace.busy} disabled={!replacement}>
            Replace
          </Button>
        </div>
        {replace.error ? <Refusal error={replace.error} /> : null}
      </section>

      <section class="stack details-section" aria-labelledby="media-usage-title">
        <div class="row">
          <h3 id="media-usage-title">Where it is used</h3>
          <Button variant="ghost" onClick={() => void loadUsage()} aria-label="Refresh where it is used">
            Refresh
          </Button>
        </div>
        {usage === undefined ? <Loading label="Looking for content using this file…" /> : usage ? <UsageList site={site} usage={usage} /> : <Refusal error={usageError} />}
      </section>

      <section class="stack details-section" aria-labelledby="media-remove-title">
        <h3 id="media-remove-title">Remove</h3>
        <p class="small muted">Removing deletes the file and every earlier version of it. Content that uses it must stop using it first.</p>
        <div class="row">
          <Button variant="danger" onClick={() => { remove.clearError(); setConfirming(true); }}>
            Remove file…
          </Button>
        </div>
      </section>

      {confirming ? (
        <Modal open title={`Remove “${item.file_name}”?`} onClose={() => setConfirming(false)}>
          <div class="stack">
            {remove.error ? (
              <>
                <Refusal error={remove.error} />
                {inUse ? <UsageList site={site} usage={inUse} /> : null}
              </>
            ) : (
              <p>The file is deleted for good. This cannot be undone.</p>
            )}
            <div class="row">
              {remove.error ? null : (
                <Button variant="danger" busy={remove.busy} onClick={() => void doRemove()}>
                  Remove
                </Button>
              )}
              <Button data-autofocus={remove.error ? true : undefined} onClick={() => setConfirming(false)}>
                {remove.error ? "Close" : "Cancel"}
              </Button>
            </div>
          </div>
        </Modal>
      ) : null}
    </section>
  );
}
