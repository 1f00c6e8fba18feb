import type { ComponentChildren } from "preact";
import { describeError } from "../api/error-words";
import { Button, Notice } from "../ui/controls";
import { useAction } from "../ui/use-action";
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
  run: (key: string) => Promise<void>;
  onClose: () => void;
}) {
  const action = useAction({ sameNameIsRetry: true });
  const busy = action.busy !== null;
  const error = action.error ? describeError(action.error) : null;
  const close = () => {
    action.clearError();
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
              const outcome = await action.attempt("confirm", props.run);
              if (outcome?.ok) close();
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
