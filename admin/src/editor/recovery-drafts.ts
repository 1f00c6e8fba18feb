import { ApiError, manage, newActionKey } from "../api/client";

/**
 * Personal recovery drafts (spec 3, "Editing locks": a lost lease keeps the editor's unsaved text
 * "in a personal recovery draft"), kept on the server per person and entry language for 30 days
 * (GET/PUT/DELETE /entries/{id}/recovery-draft; docs/recovery-drafts.md): the same draft on every
 * browser of the person, and the one a save refused with lock_lost on any surface (API, MCP) left.
 * Values are what the form held, as the save would have sent them.
 */
export interface RecoveryDraft {
  values: Record<string, unknown>;
  /** The version the text was written on (what the save named as `expected_version_id`). */
  base_version_id: string | null;
  saved_at: string;
  /** Why it was kept: the lease was taken over, someone saved first, or it is the text typed and not saved yet (kept while typing). */
  reason: "lock_lost" | "version_conflict" | "unsaved";
}

/** The person's draft of this entry language, or null (none, or the service could not be asked). */
export async function readRecovery(entry: string): Promise<RecoveryDraft | null> {
  try {
    const draft = await manage("getRecoveryDraft", { params: { id: entry } });
    return { values: draft.values, base_version_id: draft.base_version_id, saved_at: draft.saved_at, reason: draft.reason };
  } catch (error) {
    if (!(error instanceof ApiError)) console.warn("recovery draft not read", error);
    return null;
  }
}

/** Keeps the text on the server; false when it was not kept (the caller says so). */
export async function keepRecovery(entry: string, draft: RecoveryDraft, slug?: string | null): Promise<boolean> {
  try {
    await manage("keepRecoveryDraft", { params: { id: entry }, body: { values: draft.values, base_version_id: draft.base_version_id, reason: draft.reason, ...(slug ? { slug } : {}) }, key: newActionKey() });
    return true;
  } catch {
    return false;
  }
}

export async function dropRecovery(entry: string): Promise<void> {
  try {
    await manage("deleteRecoveryDraft", { params: { id: entry }, key: newActionKey() });
  } catch {
    // none kept (404), or the service could not be asked: it expires after 30 days
  }
}
