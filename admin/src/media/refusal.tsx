import { describeError } from "../api/error-words";
import { Notice } from "../ui/controls";

/** A refusal of the service in words (an alert), with the service's own message below. */
export function Refusal({ error }: { error: unknown }) {
  const words = describeError(error);
  return (
    <Notice kind="error" title={words.title}>
      {words.detail ? <p class="muted">{words.detail}</p> : null}
    </Notice>
  );
}
