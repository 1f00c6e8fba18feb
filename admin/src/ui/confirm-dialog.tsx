import type { ComponentChildren } from "preact";
import { describeError } from "../api/error-words";
import { Button, Notice } from "./controls";
import { Dialog } from "./dialog";
import { useAction } from "./use-action";

/**
 * A modal question on the base Dialog (ui/dialog.tsx: native <dialog>, Escape cancels — not while
 * `busy` —, focus returns to the opener). `confirm` names the action ("Take over", "Move to
 * Trash"), never just "OK". Focus starts on the confirming button, or on Cancel (the safe choice)
 * with `initialFocus="cancel"`. `error`, when given, is the service's refusal, shown in words
 * inside the dialog, which stays open so the person can cancel.
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: ComponentChildren;
  children?: ComponentChildren;
  confirm: string;
  cancel?: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  initialFocus?: "confirm" | "cancel";
  error?: unknown;
  class?: string;
}) {
  const onCancel = props.initialFocus === "cancel";
  const refusal = props.error ? describeError(props.error) : null;
  return (
    <Dialog open={props.open} title={props.title} busy={props.busy} onClose={props.onClose} class={props.class}>
      <div class="stack">{props.children}</div>
      {refusal ? (
        <Notice kind="error" title={refusal.title}>
          {refusal.detail ? <p class="muted">{refusal.detail}</p> : null}
        </Notice>
      ) : null}
      <div class="row dialog-actions">
        <Button variant={props.danger ? "danger" : "primary"} busy={props.busy} onClick={props.onConfirm} data-autofocus={onCancel ? undefined : true}>
          {props.confirm}
        </Button>
        <Button onClick={props.onClose} disabled={props.busy} data-autofocus={onCancel ? true : undefined}>
          {props.cancel ?? "Cancel"}
        </Button>
      </div>
    </Dialog>
  );
}

/**
 * A ConfirmDialog that runs one consequential write itself (deactivate, remove, revoke…): ONE
 * Idempotency-Key for the action (ui/use-action.ts — kept for a retry after no answer), the button
 * busy while it runs, the refusal shown in words inside the dialog; on success `run`'s own
 * follow-up has happened and the dialog closes.
 */
export function ConfirmAction(props: {
  open: boolean;
  title: ComponentChildren;
  children?: ComponentChildren;
  confirm: string;
  danger?: boolean;
  run: (key: string) => Promise<void>;
  onClose: () => void;
  class?: string;
}) {
  const action = useAction({ sameNameIsRetry: true });
  const close = () => {
    action.clearError();
    props.onClose();
  };
  return (
    <ConfirmDialog
      open={props.open}
      title={props.title}
      confirm={props.confirm}
      danger={props.danger}
      class={props.class}
      busy={action.busy !== null}
      error={action.error}
      onClose={close}
      onConfirm={async () => {
        const outcome = await action.attempt("confirm", props.run);
        if (outcome?.ok) close();
      }}
    >
      {props.children}
    </ConfirmDialog>
  );
}
