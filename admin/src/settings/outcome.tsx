import { useState } from "preact/hooks";
import { describeError } from "../api/error-words";
import { Notice } from "../ui/controls";
import { SETTINGS_WORDS } from "./words";

export type Outcome = { kind: "success" | "error"; title: string; detail?: string; issues?: string[] } | null;

/**
 * The one live region of a settings screen: the Notice of the last action (a status, or an alert
 * for a refusal, in words with the service's issues listed).
 */
export function useOutcome() {
  const [outcome, setOutcome] = useState<Outcome>(null);
  return {
    outcome,
    done: (title: string) => setOutcome({ kind: "success", title }),
    failed: (error: unknown) => {
      const words = describeError(error, SETTINGS_WORDS);
      const issues = (error as { details?: { issues?: { path: string; message: string }[] } } | null)?.details?.issues;
      setOutcome({ kind: "error", title: words.title, ...(words.detail ? { detail: words.detail } : {}), ...(issues?.length ? { issues: issues.map((i) => `${i.path}: ${i.message}`) } : {}) });
    },
    /** A failure the screen words itself (a test delivery the receiver refused). */
    refused: (title: string) => setOutcome({ kind: "error", title }),
    clear: () => setOutcome(null),
  };
}

export function OutcomeNotice({ outcome }: { outcome: Outcome }) {
  if (!outcome) return null;
  return (
    <Notice kind={outcome.kind} title={outcome.title}>
      {outcome.detail ? <p>{outcome.detail}</p> : null}
      {outcome.issues ? (
        <ul>
          {outcome.issues.map((i) => (
            <li>{i}</li>
          ))}
        </ul>
      ) : null}
    </Notice>
  );
}
