import { useState } from "preact/hooks";
import type { useOutcome } from "./outcome";

/**
 * The one save of a settings form (General, Comments, Member-only paths): one write at a time,
 * its words in the screen's live region, then the settings read again — so the form holds the
 * new revision, and a change by someone else in between is refused by the service
 * (`settings_changed`, said in SETTINGS_WORDS) instead of overwritten.
 */
export function useSettingsSave(said: ReturnType<typeof useOutcome>, reload: () => void) {
  const [busy, setBusy] = useState(false);
  /** Runs `write` (the PUT with the revision read); its answer is the sentence that says it is saved. */
  const run = async (write: () => Promise<string>): Promise<void> => {
    if (busy) return;
    setBusy(true);
    try {
      said.done(await write());
      reload();
    } catch (error) {
      said.failed(error);
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}
