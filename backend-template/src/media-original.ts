/**
 * The retained original of a media field for a served language (spec 3: `<field>_originals` holds
 * served locale → media id → facts and transferred URL). Null when none was retained.
 */
export interface MediaOriginal {
  id: string;
  lang: string | null;
  url: string;
  mime_type: string;
  byte_length: number;
  width: number | null;
  height: number | null;
}

export function mediaOriginal(row: Record<string, unknown>, field: string, lang: string, mediaId?: string): MediaOriginal | null {
  const raw = row[`${field}_originals`];
  const originals = (typeof raw === "string" ? (JSON.parse(raw) as unknown) : raw) as Record<string, Record<string, MediaOriginal>> | null | undefined;
  const byMedia = originals?.[lang];
  if (byMedia === undefined) return null;
  const id = mediaId ?? (typeof row[`${field}_id`] === "string" ? (row[`${field}_id`] as string) : undefined);
  return id === undefined ? null : byMedia[id] ?? null;
}
