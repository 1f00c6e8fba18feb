import type { Outcome } from "../../shared/errors";
import { commandBuilder } from "./command-registry";
import type * as C from "./commands";
import type { WriteRunner } from "./write-runner";

/**
 * Keeps the text of a save refused with `lock_lost` as its person's recovery draft (spec 3:
 * "unsaved text stays in a personal recovery draft"; docs/recovery-drafts.md), whatever the
 * surface; the refusal says so (`recovery_draft: true`, read back with GET
 * /entries/{id}/recovery-draft). A failure to keep it leaves the refusal as it was.
 */
export async function keepRefusedText<T>(writes: WriteRunner, request: C.SaveDraftRequest, refusal: Outcome<T> & { ok: false }): Promise<Outcome<T>> {
  const { instance_id, fields, expected_version_id, slug } = request.input;
  const kept = await writes.run(
    { siteId: request.siteId, actor: request.actor, input: { instance_id, values: fields, base_version_id: expected_version_id, reason: "lock_lost" as const, ...(slug !== undefined ? { slug } : {}) } },
    commandBuilder("keepRecoveryDraft"),
  );
  if (!kept.ok) return refusal;
  return { ok: false, error: { ...refusal.error, details: { ...refusal.error.details, recovery_draft: true } } };
}
