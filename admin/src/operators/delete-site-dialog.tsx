import { useState } from "preact/hooks";
import { ops, type OpsAnswer } from "../api/client";
import { describeError } from "../api/error-words";
import { Button, Field, Notice } from "../ui/controls";
import { Dialog } from "../ui/dialog";
import { useAction } from "../ui/use-action";
import { runToEnd } from "./run-to-end";
import { formatBytes, OPERATOR_WORDS, type OpsSite } from "./words";

export type DeletionReceipt = OpsAnswer<"deleteSite">;

/**
 * "Delete this site" (deleteSite, docs/site-delete.md): only a suspended site, and only after its
 * slug is typed — the service checks the slug too (422 `confirm_mismatch`). The deletion runs in
 * shares; the dialog shows what is removed so far and hands back the receipt.
 */
export function DeleteSiteDialog(props: { open: boolean; site: OpsSite; onClose: () => void; onDeleted: (receipt: DeletionReceipt) => void }) {
  const [typed, setTyped] = useState("");
  const [progress, setProgress] = useState("");
  const action = useAction({ sameNameIsRetry: true });
  const busy = action.busy !== null;
  const matches = typed.trim() === props.site.slug;

  const close = () => {
    setTyped("");
    setProgress("");
    action.clearError();
    props.onClose();
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!matches) return;
    const body = { confirm: typed.trim() };
    const outcome = await action.attempt(props.site.id, (key) =>
      runToEnd(
        () => ops("deleteSite", { params: { id: props.site.id }, body, key }),
        (answer) => setProgress(`${answer.objects} files (${formatBytes(answer.bytes)}) removed${answer.state === "done" ? "." : " so far…"}`),
      ),
    );
    if (outcome?.ok) {
      close();
      props.onDeleted(outcome.value);
    }
  };

  const refusal = action.error ? describeError(action.error, OPERATOR_WORDS) : null;
  return (
    <Dialog open={props.open} title={`Delete ${props.site.name}`} busy={busy} onClose={close} class="operators-dialog">
      <form class="stack" onSubmit={submit} noValidate>
        <Notice kind="warning" title="This cannot be undone.">
          <p>Every entry, version, media file, member, credential and setting of this site is removed for good, and its hosts are freed.</p>
        </Notice>
        {refusal ? (
          <Notice kind="error" title={refusal.title}>
            {refusal.detail ? <p class="muted">{refusal.detail}</p> : null}
          </Notice>
        ) : null}
        <Field label={`Type the site's slug (${props.site.slug}) to confirm`}>
          {(f) => <input id={f.id} required spellcheck={false} autocomplete="off" value={typed} aria-describedby={f.describedBy} onInput={(e) => setTyped(e.currentTarget.value)} />}
        </Field>
        <p role="status" aria-live="polite" class="muted">
          {progress}
        </p>
        <div class="row">
          <Button type="submit" variant="danger" busy={busy} disabled={!matches}>
            Delete site
          </Button>
          <Button onClick={close} disabled={busy}>
            Cancel
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
