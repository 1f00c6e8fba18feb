/** A site copy's row in `site_copies` (migration 0033). */
export interface SiteCopyRow {
  key: string;
  fingerprint: string;
  id: string;
  template_id: string;
  target_id: string;
  created_target: number;
  content: number;
  media: number;
  step: number;
  cursor: string | null;
  copied: string;
  objects: number;
  bytes: number;
  state: "running" | "done";
  created_at: string;
  updated_at: string;
}

/** What a copy has done so far. */
export interface CopyProgress {
  state: "running" | "done";
  template_id: string;
  site_id: string;
  rows: Record<string, number>;
  objects: number;
  bytes: number;
}

export function progressOf(row: SiteCopyRow): CopyProgress {
  return { state: row.state, template_id: row.template_id, site_id: row.target_id, rows: JSON.parse(row.copied) as Record<string, number>, objects: row.objects, bytes: row.bytes };
}

export async function readCopy(control: D1Database, key: string): Promise<SiteCopyRow | null> {
  return control.prepare("SELECT * FROM site_copies WHERE key = ?").bind(key).first<SiteCopyRow>();
}
