import { useRef, useState } from "preact/hooks";
import { ApiError, newActionKey } from "../api/client";

/**
 * One user action at a time, each with ONE Idempotency-Key (issue #15: "a double click or a retry
 * never saves twice"). `run(name, write)` refuses to start while another action runs (a second
 * click arriving before the button is disabled is ignored synchronously); the key is made at the
 * click and kept when the write failed without an answer (network), so "Try again" sends the same
 * key and the service answers the first write's result instead of writing again. An answered
 * refusal drops the key: the person changes something and acts anew.
 */
export function useAction() {
  const running = useRef(false);
  const pending = useRef<{ name: string; key: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [retry, setRetry] = useState<string | null>(null);

  async function run<T>(name: string, write: (key: string) => Promise<T>, options: { retrying?: boolean } = {}): Promise<T | undefined> {
    if (running.current) return undefined;
    running.current = true;
    const key = options.retrying && pending.current?.name === name ? pending.current.key : newActionKey();
    pending.current = { name, key };
    setBusy(name);
    setRetry(null);
    try {
      const answer = await write(key);
      pending.current = null;
      return answer;
    } catch (error) {
      if (error instanceof ApiError) pending.current = null;
      else setRetry(name);
      throw error;
    } finally {
      running.current = false;
      setBusy(null);
    }
  }

  return { run, busy, retry };
}
