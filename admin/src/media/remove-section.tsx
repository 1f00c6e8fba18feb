import { useEffect, useState } from "preact/hooks";
import { ApiError, manage } from "../api/client";
import { Button } from "../ui/controls";
import { Dialog } from "../ui/dialog";
import { Refusal } from "./refusal";
import type { MediaItem, MediaUsage } from "./types";
import { UsageList } from "./usage-list";
import { useAction } from "../ui/use-action";

/**
 * Remove the file (`removeMedia` with the revision read) after a confirming dialog. While content
 * uses it the service refuses (`media_in_use`): the dialog shows the refusal in words and the usage
 * from its details, and focus moves to its Close button.
 */
export function RemoveSection({ site, item, onRemoved }: { site: string; item: MediaItem; onRemoved: (item: MediaItem) => void }) {
  const remove = useAction({ sameNameIsRetry: true });
  const [confirming, setConfirming] = useState(false);
  // A refusal replaces the dialog's Remove button: focus its Close button, where the words are.
  useEffect(() => {
    if (confirming && remove.error) document.querySelector<HTMLElement>(".media-dialog[open] [data-autofocus]")?.focus();
  }, [confirming, remove.error]);
  const doRemove = async () => {
    const answer = await remove.attempt(`remove ${item.id} ${item.revision}`, (key) => manage("removeMedia", { params: { id: item.id }, body: { expected_revision: item.revision }, key }));
    if (answer?.ok) {
      setConfirming(false);
      onRemoved(answer.value.media);
    }
  };
  const inUse = remove.error instanceof ApiError && remove.error.code === "media_in_use" ? (remove.error.details as unknown as MediaUsage) : null;
  return (
    <section class="stack details-section" aria-labelledby="media-remove-title">
      <h3 id="media-remove-title">Remove</h3>
      <p class="small muted">Removing deletes the file and every earlier version of it. Content that uses it must stop using it first.</p>
      <div class="row">
        <Button
          variant="danger"
          onClick={() => {
            remove.clearError();
            setConfirming(true);
          }}
        >
          Remove file…
        </Button>
      </div>
      {confirming ? (
        <Dialog open class="media-dialog" title={`Remove “${item.file_name}”?`} onClose={() => setConfirming(false)}>
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
                <Button variant="danger" busy={remove.busy !== null} onClick={() => void doRemove()}>
                  Remove
                </Button>
              )}
              <Button data-autofocus={remove.error ? true : undefined} onClick={() => setConfirming(false)}>
                {remove.error ? "Close" : "Cancel"}
              </Button>
            </div>
          </div>
        </Dialog>
      ) : null}
    </section>
  );
}
