import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { describeError } from "../api/error-words";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { Button, Notice } from "../ui/controls";
import type { LeaseState } from "./use-lease";

/** "HH:MM" in the person's own clock. */
export function clock(iso: string | null | undefined): string {
  if (!iso) return "";
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? "" : at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

export function holderName(lease: LeaseState): string {
  return lease.holder?.name ?? "another person";
}

/**
 * Who holds the editing lease, for an observer (spec 3, "Editing locks"): "Being edited by NAME",
 * read-only until they stop or this person takes over (confirmed in a dialog). The lease view has
 * no start time, so "since" is when this page first saw them holding it (said so in words).
 */
export function LeaseBanner({ lease, title, children }: { lease: LeaseState; title?: string; children?: (takeOver: ComponentChildren) => ComponentChildren }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ReturnType<typeof describeError> | null>(null);
  const name = holderName(lease);

  const takeOver = async () => {
    setBusy(true);
    setError(null);
    try {
      await lease.takeOver();
      setAsking(false);
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  const dialog = (
    <ConfirmDialog open={asking} title={`Take over from ${name}?`} confirm="Take over" danger busy={busy} onConfirm={() => void takeOver()} onClose={() => setAsking(false)}>
      <p>You will be the one editing this language. {name === "another person" ? "They" : name} can no longer save here: their next save is refused, and their unsaved text stays in their own recovery draft.</p>
      {error ? <Notice kind="error" title={error.title}>{error.detail ? <p>{error.detail}</p> : null}</Notice> : null}
    </ConfirmDialog>
  );

  if (lease.status === "other" || (lease.status === "lost" && lease.holder)) {
    const takeOverButton = <Button onClick={() => setAsking(true)}>Take over</Button>;
    // `title` and `children`: the recovery draft a take-over kept is said inside this one banner.
    return (
      <div class="lease-banner" data-lease={lease.status}>
        <Notice kind="warning" title={title ?? `Being edited by ${name}`}>
          <p>
            {title ? <>Being edited by {name}. </> : null}
            {lease.since ? <>Seen editing since {clock(lease.since)}. </> : null}
            You can read along: this page checks every 10 seconds and shows their saved changes. Editing opens for you when they stop.
          </p>
          {children ? children(takeOverButton) : <div class="row">{takeOverButton}</div>}
        </Notice>
        {dialog}
      </div>
    );
  }
  if (lease.status === "held" && lease.gained) {
    return (
      <div class="lease-banner" data-lease="gained">
        <Notice kind="success" title="You are editing now.">
          <p>The other person stopped editing; this page shows the latest saved version.</p>
        </Notice>
      </div>
    );
  }
  if (lease.status === "none" && lease.refusal) {
    return (
      <div class="lease-banner" data-lease="none">
        <Notice kind="info" title="You can read this entry but not edit it here.">
          <p>{lease.refusal.title}</p>
        </Notice>
      </div>
    );
  }
  return null;
}
