import { useEffect, useState } from "preact/hooks";

/** An async read for a screen: its answer, its refusal, and `reload`; re-run when `deps` change. */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[]) {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  useEffect(() => {
    const abort = new AbortController();
    setState((prior) => ({ ...prior, loading: true }));
    load(abort.signal).then(
      (data) => !abort.signal.aborted && setState({ data, loading: false }),
      (error: unknown) => !abort.signal.aborted && setState({ error, loading: false }),
    );
    return () => abort.abort();
  }, [...deps, round]);
  return { ...state, reload: () => setRound((n) => n + 1) };
}
