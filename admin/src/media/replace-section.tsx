import { useState } from "preact/hooks";
import { manage } from "../api/client";
import { Button } from "../ui/controls";
import { Refusal } from "./refusal";
import type { MediaItem } from "./types";
import { useAction } from "../ui/use-action";
import { wordsOf } from "../api/error-words";

/**
 * Replace the file's bytes (`replaceMedia`, multipart, with the revision read): same kind only
 * (`media_kind_mismatch` in words); the same bytes answer `unchanged`. Alt texts, focal point and
 * folder stay; the address changes (a new object). A linked item (plugin media source, mode
 * reference) says it cannot be replaced, in the words of its refusal.
 */
export function ReplaceSection({ item, onChanged, onStatus }: { item: MediaItem; onChanged: (item: MediaItem) => void; onStatus: (words: string) => void }) {
  const replace = useAction({ sameNameIsRetry: true });
  const [file, setFile] = useState<File | null>(null);
  const doReplace = async () => {
    if (!file) return;
    const chosen = file;
    const outcome = await replace.attempt(`replace ${item.id} ${item.revision} ${chosen.name} ${chosen.size} ${chosen.lastModified}`, (key) => {
      const form = new FormData();
      form.append("file", chosen, chosen.name);
      form.append("expected_revision", String(item.revision));
      return manage("replaceMedia", { params: { id: item.id }, body: form, key });
    });
    if (outcome?.ok) {
      const answer = outcome.value;
      setFile(null);
      onChanged(answer.media);
      onStatus("unchanged" in answer && answer.unchanged ? "The new file is the same as the current one; nothing changed." : `Replaced with ${chosen.name}.`);
    }
  };
  if (item.external_url) {
    // A linked item cannot be replaced (409 media_linked, docs/media.md "Linked items"): said
    // before anyone chooses a file, in the refusal's own words.
    return (
      <section class="stack details-section" aria-labelledby="media-replace-title">
        <h3 id="media-replace-title">Replace file</h3>
        <p class="small">{wordsOf("media_linked")}</p>
      </section>
    );
  }
  return (
    <section class="stack details-section" aria-labelledby="media-replace-title">
      <h3 id="media-replace-title">Replace file</h3>
      <p class="small muted">A new file of the same kind takes this one's place everywhere it is used; alt texts, focal point and folder stay. Published content keeps the old file until it is published again.</p>
      <div class="stack replace-row">
        {/* The native file input is hidden behind a button-styled label (its own text varies by browser and is hard to style). */}
        <label class="button file-button">
          Choose a new file
          <input class="visually-hidden" key={`${item.id}-${item.revision}`} type="file" onChange={(e) => setFile((e.currentTarget as HTMLInputElement).files?.[0] ?? null)} />
        </label>
        <p class="small replace-chosen" aria-live="polite">
          {file ? `Chosen: ${file.name}` : "No file chosen."}
        </p>
        <Button onClick={() => void doReplace()} busy={replace.busy !== null} disabled={!file}>
          Replace
        </Button>
      </div>
      {replace.error ? <Refusal error={replace.error} /> : null}
    </section>
  );
}
