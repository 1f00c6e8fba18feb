import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { describeError } from "../api/error-words";
import { Button, Notice } from "../ui/controls";
import { Dialog } from "./dialog";

/**
 * A confirmation for one consequential action (deactivate, reactivate, remove, revoke): says what
 * follows, runs the action once (the button is disabled while it runs), and shows the service's
 * refusal in words inside the dialog, which stays open so the person can cancel.
 */
export function ConfirmAction(props: {
  open: boolean;
  title: ComponentChildren;
  children: ComponentChildren;
  confirmLabel: string;
  danger?: boolean;
  run: () => Promise<void>;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ReturnType<typeof describeError> | null>(null);
  const close = () => {
    setError(null);
    props.onClose();
  };
  return (
    <Dialog open={props.open} title={props.title} busy={busy} onClose={close}>
      <div class="stack">
        {props.children}
        {error ? (
          <Notice kind="error" title={error.title}>
            {error.detail ? <p class="muted">{error.detail}</p> : null}
          </Notice>
        ) : null}
        <div class="row people-dialog-actions">
          <Button
            variant={props.danger ? "danger" : "primary"}
            busy={busy}
            onClick={async () => {
              setBusy(true);
              setError(null);
              try {
                await props.run();
                close();
              } catch (thrown) {
                setError(describeError(thrown));
              } finally {
                setBusy(false);
              }
            }}
          >
            {props.confirmLabel}
          </Button>
          <Button onClick={close} disabled={busy}>
            Cancel
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
