import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { describeError } from "../api/error-words";
import { useLoad } from "../screens/use-load";
import { Button, Link, Notice } from "../ui/controls";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { useAction } from "../ui/use-action";
import { personWords, When } from "./words";

/**
 * What the entry and model proposal screens share (entry-proposal.tsx, model-proposal.tsx): the
 * read with focus moved to the heading once it is there, the failed read in words, the decision
 * (apply, or reject/dismiss behind a question) with one Idempotency-Key per action and the
 * outcome kept until the next one.
 */
export function useProposalRead<T>(load: (signal: AbortSignal) => Promise<T>, id: string) {
  const loaded = useLoad(load, [id]);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (loaded.data) heading.current?.focus();
  }, [Boolean(loaded.data)]);
  return { loaded, heading };
}

export function BackLink({ href, children }: { href: string; children: ComponentChildren }) {
  return (
    <p>
      <Link href={href}>{children}</Link>
    </p>
  );
}

/** The proposal could not be read: the way back and the refusal in words. */
export function ReadFailed({ back, error }: { back: ComponentChildren; error: unknown }) {
  const failure = describeError(error);
  return (
    <>
      {back}
      <Notice kind="error" title={failure.title}>
        {failure.detail ? <p>{failure.detail}</p> : null}
      </Notice>
    </>
  );
}

export type Refused = { kind: "refused"; error: unknown };

/**
 * One decision at a time: `decide(name, write, done)` clears the last outcome, writes with ONE
 * Idempotency-Key (reused when the same decision is tried again after no answer), keeps `done`'s
 * outcome or the refusal, and reads the proposal again. A click while one runs does nothing.
 */
export function useDecision<S>(reload: () => void) {
  const action = useAction({ sameNameIsRetry: true });
  const [outcome, setOutcome] = useState<S | Refused | null>(null);
  const decide = async <T,>(name: string, write: (key: string) => Promise<T>, done: (value: T) => S) => {
    if (action.busy) return;
    setOutcome(null);
    const result = await action.attempt(name, write);
    if (!result) return;
    setOutcome(result.ok ? done(result.value) : { kind: "refused", error: result.error });
    reload();
  };
  return { busy: action.busy, outcome, decide };
}

/**
 * The decision buttons of an open proposal: Apply, and the declining one (Reject, Dismiss) behind a
 * question whose focus starts on Cancel. The busy one says so ("Applying…"); both are disabled
 * while either runs.
 */
export function DecisionButtons(props: {
  busy: string | null;
  apply: { label: string; run: () => void };
  decline: { name: string; label: string; busyLabel: string; question: string; confirm: string; run: () => void; children: ComponentChildren };
}) {
  const [asking, setAsking] = useState(false);
  const { busy, apply, decline } = props;
  return (
    <>
      <div class="row review-actions">
        <Button variant="primary" busy={busy === "apply"} disabled={busy !== null} onClick={apply.run}>
          {busy === "apply" ? "Applying…" : apply.label}
        </Button>
        <Button variant="danger" busy={busy === decline.name} disabled={busy !== null} onClick={() => setAsking(true)}>
          {busy === decline.name ? decline.busyLabel : decline.label}
        </Button>
      </div>
      <ConfirmDialog
        open={asking}
        title={decline.question}
        confirm={decline.confirm}
        danger
        initialFocus="cancel"
        onConfirm={() => {
          setAsking(false);
          decline.run();
        }}
        onClose={() => setAsking(false)}
      >
        {decline.children}
      </ConfirmDialog>
    </>
  );
}

/** The end of a proposal's facts list: who decided it and when (`declined` names the other way), and its note. */
export function DecisionFacts({ proposal, declined }: { proposal: { state: string; decided_by?: string | null; updated_at: string; note?: string | null }; declined: string }) {
  return (
    <>
      {proposal.decided_by ? (
        <>
          <dt>{proposal.state === "applied" ? "Applied by" : declined}</dt>
          <dd>
            {personWords(proposal.decided_by)} · <When at={proposal.updated_at} />
          </dd>
        </>
      ) : null}
      {proposal.note ? (
        <>
          <dt>Note</dt>
          <dd class="review-note">{proposal.note}</dd>
        </>
      ) : null}
    </>
  );
}
