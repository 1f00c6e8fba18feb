import { useEffect, useState } from "preact/hooks";
import { ApiError, manage } from "../api/client";
import { fieldIssues } from "../api/error-words";
import { Button, Field, Loading } from "../ui/controls";
import { hasPreview, useFilePreview } from "./file-preview";
import { FocalPointPicker, type FocalPoint } from "./focal-point";
import { CropFields, cropProblem, sameCrop, type Crop } from "./crop-fields";
import { KindMark } from "./media-grid";
import { MoveSection } from "./move-section";
import { Refusal } from "./refusal";
import { RemoveSection } from "./remove-section";
import { ReplaceSection } from "./replace-section";
import { UsageSection } from "./usage-section";
import { folderPath, formatBytes, languageLabel, type MediaFolder, type MediaItem } from "./types";
import { useAction } from "../ui/use-action";

const samePoint = (a: FocalPoint | null, b: FocalPoint | null) => (a === null || b === null ? a === b : a.x === b.x && a.y === b.y);

/**
 * The chosen file's details (docs/admin-ui-media.md): its picture with the focal point picker,
 * facts, alt texts in every language of the site, loading hints — saved together by one
 * `updateMedia` with the revision read (a stale one is `media_changed`, said in words with a
 * reload) —, then its sections: folder, replace, usage, remove (one file each). The screen keys
 * this panel by the file's id, so choosing another file starts afresh.
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
  const save = useAction({ sameNameIsRetry: true });
  const [alt, setAlt] = useState<Record<string, string>>({});
  const [focal, setFocal] = useState<FocalPoint | null>(item.default_focal);
  const [crop, setCrop] = useState<Crop | null>(item.crop);
  const [loading, setLoading] = useState(item.loading);
  const [priority, setPriority] = useState(item.fetch_priority);
  const [status, setStatus] = useState("");

  useEffect(() => {
    setAlt(Object.fromEntries(languages.map((lang) => [lang, item.alt_texts[lang] ?? ""])));
    setFocal(item.default_focal);
    setCrop(item.crop);
    setLoading(item.loading);
    setPriority(item.fetch_priority);
    // A newer revision (saved here, or reloaded after a refusal) answers any earlier refusal.
    if (save.error instanceof ApiError && save.error.code === "media_changed") save.clearError();
  }, [item.revision, languages.join(",")]);

  const changedAlt = Object.fromEntries(languages.filter((lang) => (alt[lang] ?? "") !== (item.alt_texts[lang] ?? "")).map((lang) => [lang, alt[lang] ?? ""]));
  const body = {
    expected_revision: item.revision,
    ...(Object.keys(changedAlt).length ? { alt_texts: changedAlt } : {}),
    ...(item.kind === "image" && !samePoint(focal, item.default_focal) ? { default_focal: focal } : {}),
    ...(item.kind === "image" && !sameCrop(crop, item.crop) ? { crop } : {}),
    ...(loading !== item.loading ? { loading } : {}),
    ...(priority !== item.fetch_priority ? { fetch_priority: priority } : {}),
  };
  const dirty = Object.keys(body).length > 1;
  const badCrop = item.kind === "image" ? cropProblem(crop) : null;
  const issues = fieldIssues(save.error);
  const stale = save.error instanceof ApiError && save.error.code === "media_changed";

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!dirty || badCrop) return;
    const answer = await save.attempt(`update ${item.id} ${JSON.stringify(body)}`, (key) => manage("updateMedia", { params: { id: item.id }, body, key }));
    if (answer?.ok) {
      onChanged(answer.value.media);
      setStatus("Changes saved.");
    }
  };

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
            <div class="stack focal-block details-preview">
              <FocalPointPicker src={preview} alt={item.alt_texts[languages[0] ?? ""] ?? ""} value={focal} onChange={setFocal} describedBy={`focal-hint-${item.id}`} crop={crop} />
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
          {item.external_url ? (
            <>
              <dt>Linked</dt>
              <dd>
                From a plugin's media source; the file stays at <span class="mono">{item.external_url}</span>
              </dd>
            </>
          ) : null}
        </dl>

        {item.kind === "image" ? <CropFields item={item} value={crop} onChange={setCrop} /> : null}

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
          <Button type="submit" variant="primary" busy={save.busy !== null} disabled={!dirty || badCrop !== null}>
            Save changes
          </Button>
          {!dirty ? <span class="muted small">No unsaved changes.</span> : <span class="small">Unsaved changes.</span>}
        </div>
      </form>

      <MoveSection key={item.folder_id ?? ""} item={item} folders={folders} onChanged={onChanged} onStatus={setStatus} />
      <ReplaceSection item={item} onChanged={onChanged} onStatus={setStatus} />
      <UsageSection site={site} item={item} />
      <RemoveSection site={site} item={item} onRemoved={onRemoved} />
    </section>
  );
}
