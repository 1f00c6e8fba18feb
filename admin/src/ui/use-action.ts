import { useRef, useState } from "preact/hooks";
import { ApiError, newActionKey } from "../api/client";

export type ActionOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/**
 * One user action that writes at a time, each with ONE Idempotency-Key (issue #15: "a double click
 * or a retry never saves twice"). A second call while one runs is ignored synchronously (a double
 * click arriving before the button is disabled). The key is made at the click and kept while the
 * write failed without an answer (network), so trying the same action again sends the same key and
 * the service answers the first write's result instead of writing again; an answered refusal (the
 * service commits nothing for it) or a success ends the action, and the next click makes a new key.
 *
 * Which call is "the same action again": with `retrying: true` (a "Try again" button), the same
 * `name`; by default none — unless the hook is made with `sameNameIsRetry`, where the same `name`
 * is (callers then put what the write depends on into the name, e.g. the body).
 *
 * `run` answers the write's value and throws its failure; `attempt` answers `{ ok, value | error }`
 * (null when ignored). Both keep `busy` (the running action's name), `error` (the last failure,
 * cleared at the next start or by `clearError`) and `retry` (the name of the action that failed
 * without an answer, for a "Try again").
 */
export function useAction(settings: { sameNameIsRetry?: boolean } = {}) {
  const running = useRef(false);
  const pending = useRef<{ name: string; key: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [retry, setRetry] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  async function attempt<T>(name: string, write: (key: string) => Promise<T>, options: { retrying?: boolean } = {}): Promise<ActionOutcome<T> | null> {
    if (running.current) return null;
    running.current = true;
    const again = options.retrying ?? settings.sameNameIsRetry ?? false;
    const key = again && pending.current?.name === name ? pending.current.key : newActionKey();
    pending.current = { name, key };
    setBusy(name);
    setRetry(null);
    setError(null);
    try {
      const value = await write(key);
      pending.current = null;
      return { ok: true, value };
    } catch (failure) {
      if (failure instanceof ApiError) pending.current = null;
      else setRetry(name);
      setError(failure);
      return { ok: false, error: failure };
    } finally {
      running.current = false;
      setBusy(null);
    }
  }

  async function run<T>(name: string, write: (key: string) => Promise<T>, options: { retrying?: boolean } = {}): Promise<T | undefined> {
    const outcome = await attempt(name, write, options);
    if (!outcome) return undefined;
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  return { run, attempt, busy, retry, error, clearError: () => setError(null) };
}
