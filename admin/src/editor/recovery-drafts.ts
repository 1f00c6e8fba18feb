import { session } from "../state/session";

/**
 * Personal recovery drafts (spec 3, "Editing locks": a lost lease keeps the editor's unsaved text
 * "in a personal recovery draft"). The service has no place for them, so they live in this
 * browser's localStorage, keyed by person, site, entry and language: personal to the person on
 * this browser, never sent anywhere, kept until restored and saved, or discarded
 * (docs/admin-ui-lifecycle.md). Values are what the form held, as the save would have sent them.
 */
export interface RecoveryDraft {
  values: Record<string, unknown>;
  /** The version the text was written on (what the save named as `expected_version_id`). */
  base_version_id: string | null;
  saved_at: string;
  /** Why it was kept: the lease was taken over, or someone saved first. */
  reason: "lock_lost" | "version_conflict";
}

const PREFIX = "driftwood.recovery.v1";

function key(site: string, entry: string, lang: string): string | null {
  const person = session.value?.person.id;
  return person ? [PREFIX, person, site, entry, lang].map(encodeURIComponent).join(":") : null;
}

export function readRecovery(site: string, entry: string, lang: string): RecoveryDraft | null {
  const k = key(site, entry, lang);
  if (!k) return null;
  try {
    const raw = localStorage.getItem(k);
    const parsed = raw ? (JSON.parse(raw) as RecoveryDraft) : null;
    return parsed && typeof parsed.values === "object" && parsed.values !== null ? parsed : null;
  } catch {
    return null;
  }
}

/** Keeps the text; false when the browser refused (storage full or disabled): the caller says so. */
export function keepRecovery(site: string, entry: string, lang: string, draft: RecoveryDraft): boolean {
  const k = key(site, entry, lang);
  if (!k) return false;
  try {
    localStorage.setItem(k, JSON.stringify(draft));
    return true;
  } catch {
    return false;
  }
}

export function dropRecovery(site: string, entry: string, lang: string): void {
  const k = key(site, entry, lang);
  if (!k) return;
  try {
    localStorage.removeItem(k);
  } catch {
    // nothing kept, nothing to drop
  }
}
