import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, newActionKey } from "../api/client";

/** An async read: its value, its failure, and a way to read again. */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[]): { value: T | undefined; error: unknown; loading: boolean; reload: () => void } {
  const [state, setState] = useState<{ value: T | undefined; error: unknown; loading: boolean }>({ value: undefined, error: undefined, loading: true });
  const [round, setRound] = useState(0);
  useEffect(() => {
    const abort = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    load(abort.signal).then(
      (value) => {
        if (!abort.signal.aborted) setState({ value, error: undefined, loading: false });
      },
      (error: unknown) => {
        if (!abort.signal.aborted) setState({ value: undefined, error, loading: false });
      },
    );
    return () => abort.abort();
  }, [...deps, round]);
  return { ...state, reload: () => setRound((r) => r + 1) };
}

/**
 * One user action at a time (apply, reject, dismiss): `run(name, call)` marks it busy (buttons
 * disable), makes ONE Idempotency-Key for the action and reuses it when the same action is tried
 * again after the service could not be reached (a retry never writes twice); a refusal or a
 * success ends the action, so the next click is a new action with a new key. A click while an
 * action runs answers null and does nothing.
 */
export function useAction(): { busy: string | null; run: <T>(name: string, call: (key: string) => Promise<T>) => Promise<{ ok: true; value: T } | { ok: false; error: unknown } | null> } {
  const [busy, setBusy] = useState<string | null>(null);
  const pending = useRef<{ name: string; key: string } | null>(null);
  const running = useRef(false);
  const run = async <T>(name: string, call: (key: string) => Promise<T>) => {
    // A second click before the first answer (a double click): ignored, the first one answers.
    if (running.current) return null;
    running.current = true;
    if (pending.current?.name !== name) pending.current = { name, key: newActionKey() };
    const key = pending.current.key;
    setBusy(name);
    try {
      const value = await call(key);
      pending.current = null;
      return { ok: true as const, value };
    } catch (error) {
      // The service answered (a refusal): the action is over. Unreachable: keep the key for a retry.
      if (error instanceof ApiError) pending.current = null;
      return { ok: false as const, error };
    } finally {
      running.current = false;
      setBusy(null);
    }
  };
  return { busy, run };
}
