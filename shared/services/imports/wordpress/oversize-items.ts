import type { Finding } from "../findings";
import type { StagedItem } from "./wxr-items";

/**
 * The largest staged payload (its JSON, in UTF-8 bytes) an item may have: the management API's body
 * cap, so an imported entry is never larger than one the API would create. A D1 row holds at most
 * 2,000,000 bytes, and a larger item (a post of pasted base64 images) used to fail its parse step
 * with SQLITE_TOOBIG, leaving the job in `parsing` for ever (probe finding, session 17).
 */
export const STAGED_ITEM_MAX_BYTES = 1024 * 1024;

/** The marker an oversize item is staged with: kind `other`, so no step reads its content. */
export interface OversizeMarker {
  element: string;
  too_large: true;
}

const encoder = new TextEncoder();

/** An item as it is staged: its payload serialised once, for the bound and for the INSERT. */
export interface SerialisedItem {
  kind: StagedItem["kind"];
  source_key: string;
  payload: string;
}

/**
 * Serialises each item's payload and replaces each one past the bound by a marker (so the job's item
 * count and order stay the file's), saying why in an `item_too_large` finding, given before the
 * review so the person deciding sees it; `firstSeq` is the seq the first of `items` is staged with.
 */
export function keepOversizeOut(items: readonly StagedItem[], firstSeq: number): { items: SerialisedItem[]; findings: Finding[] } {
  const findings: Finding[] = [];
  const kept = items.map((item, n): SerialisedItem => {
    const payload = JSON.stringify(item.payload);
    const bytes = encoder.encode(payload).length;
    if (bytes <= STAGED_ITEM_MAX_BYTES) return { kind: item.kind, source_key: item.source_key, payload };
    findings.push({
      item_seq: firstSeq + n,
      code: "item_too_large",
      message: `This ${item.kind} item is larger than ${STAGED_ITEM_MAX_BYTES} bytes and is not imported.`,
      details: { kind: item.kind, source_key: item.source_key, bytes, max_bytes: STAGED_ITEM_MAX_BYTES },
    });
    const marker: OversizeMarker = { element: `${item.kind} (too large)`, too_large: true };
    return { kind: "other", source_key: item.source_key, payload: JSON.stringify(marker) };
  });
  return { items: kept, findings };
}

/** Whether a staged `other` item is an oversize marker (reported at parse: the write skips it without a second finding). */
export function isOversizeMarker(payload: string): boolean {
  const parsed: unknown = JSON.parse(payload);
  return typeof parsed === "object" && parsed !== null && (parsed as Partial<OversizeMarker>).too_large === true;
}
