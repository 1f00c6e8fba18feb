import { useRef, useState } from "preact/hooks";
import { newActionKey } from "../api/client";

/**
 * One user action that writes (a click on Save, Move, Remove…): a second click while it runs does
 * nothing, and the Idempotency-Key is made once per action — trying the same action again after a
 * failure (same `what`: the operation and body) reuses it, so a retry after a lost answer is
 * answered by the service's idempotency ledger instead of writing twice. A success forgets it.
 */
export function useAction() {
  const running = useRef(false);
  const last = useRef<{ what: string; key: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  async function run<T>(what: string, call: (key: string) => Promise<T>): Promise<T | undefined> {
    if (running.current) return undefined;
    running.current = true;
    const key = last.current?.what === what ? last.current.key : newActionKey();
    last.current = { what, key };
    setBusy(true);
    setError(null);
    try {
      const answer = await call(key);
      last.current = null;
      return answer;
    } catch (thrown) {
      setError(thrown);
      return undefined;
    } finally {
      running.current = false;
      setBusy(false);
    }
  }
  return { busy, error, run, clearError: () => setError(null) };
}
