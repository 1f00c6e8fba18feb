import type { AppError } from "../../../errors";
import type { Finding } from "../findings";

/** Findings of a WordPress write step's items (docs/imports.md, "Findings"). */

export const finding = (item_seq: number, code: Finding["code"], message: string, details: Record<string, unknown> = {}): Finding => ({ item_seq, code, message, details });

/** A refused write of an item as its finding: permission, address taken, or the refusal itself. */
export function refusalFinding(seq: number, error: AppError, doing: string): Finding {
  if (error.code === "missing_permission" || error.code === "forbidden" || error.code === "field_denied" || error.code === "locale_denied") {
    return finding(seq, "permission_denied", `${doing}: the import's caller may not do this now.`, { code: error.code });
  }
  if (error.code === "slug_taken") return finding(seq, "slug_taken", `${doing}: the address is taken in the model; the item was skipped, not renamed.`, { code: error.code });
  return finding(seq, "item_refused", `${doing}: ${error.message}`, { code: error.code, ...(error.details ?? {}) });
}
