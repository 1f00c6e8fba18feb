import { useRef } from "preact/hooks";
import { newActionKey } from "../api/client";

/**
 * One Idempotency-Key per user action (admin/src/api/client.ts): the same key while the action is
 * retried with the same input, a new one once it succeeded or its input changed. `forInput` names
 * the input (e.g. the chosen role), so a changed choice is a new action.
 */
export function useActionKey(): { key: (forInput: string) => string; done: () => void } {
  const held = useRef<{ input: string; key: string } | null>(null);
  return {
    key(forInput) {
      if (held.current?.input !== forInput) held.current = { input: forInput, key: newActionKey() };
      return held.current.key;
    },
    done() {
      held.current = null;
    },
  };
}
