import { describeError } from "../api/error-words";
import { Notice } from "../ui/controls";

/** A refusal of the service in words (an alert), with the service's own message below; `words`: a screen's own table. */
export function Refusal({ error, words: own }: { error: unknown; words?: Readonly<Record<string, string>> }) {
  const words = describeError(error, own);
  return (
    <Notice kind="error" title={words.title}>
      {words.detail ? <p class="muted">{words.detail}</p> : null}
    </Notice>
  );
}
