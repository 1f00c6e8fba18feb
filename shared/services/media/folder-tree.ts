import { codePointLength, isReadableName, isWellFormedText, nameKey } from "../../content/plain-text";
import type { MediaFolderRow } from "../../repositories/media-folder-repository";

/** Spec 2, Limits: 5 levels, 500 folders per site, names 1 to 80 characters. */
export const MEDIA_FOLDER_LIMITS = { max_depth: 5, max_folders: 500, name_max: 80 } as const;

/**
 * A folder as every answer shows it (spec 2, "Media item", folder object). The subtree counts
 * include the folder itself and its own files: they are what POST /media/folders/{id}/remove
 * expects as `expected_folders` and `expected_media`.
 */
export interface MediaFolderView {
  id: string;
  name: string;
  parent_id: string | null;
  revision: number;
  /** 1 = top level. */
  depth: number;
  media_count: number;
  subtree_folder_count: number;
  subtree_media_count: number;
  created_at: string;
  updated_at: string;
}

/** The site's folders as a tree: depth-first order, depths, subtree sizes (pure; at most 500 rows). */
export class FolderTree {
  readonly byId: Map<string, MediaFolderRow>;
  readonly #children = new Map<string | null, MediaFolderRow[]>();

  constructor(
    readonly rows: readonly MediaFolderRow[],
    readonly mediaCounts: ReadonlyMap<string | null, number> = new Map(),
  ) {
    this.byId = new Map(rows.map((r) => [r.id, r]));
    for (const row of [...rows].sort((a, b) => (a.name_key < b.name_key ? -1 : a.name_key > b.name_key ? 1 : a.id < b.id ? -1 : 1))) {
      // A parent that no longer exists (never written, but defensive) shows the folder at top level.
      const parent = row.parent_id !== null && this.byId.has(row.parent_id) ? row.parent_id : null;
      const list = this.#children.get(parent) ?? [];
      list.push(row);
      this.#children.set(parent, list);
    }
  }

  children(id: string | null): readonly MediaFolderRow[] {
    return this.#children.get(id) ?? [];
  }

  /** 1 for a top-level folder. */
  depth(id: string): number {
    let depth = 0;
    for (let at: string | null = id; at !== null && depth <= this.rows.length; depth++) at = this.byId.get(at)?.parent_id ?? null;
    return depth;
  }

  /** The folder and every folder below it, depth first. */
  subtree(id: string): MediaFolderRow[] {
    const root = this.byId.get(id);
    if (!root) return [];
    const out: MediaFolderRow[] = [];
    const walk = (row: MediaFolderRow) => {
      out.push(row);
      for (const child of this.children(row.id)) walk(child);
    };
    walk(root);
    return out;
  }

  /** Levels of the subtree rooted here: 1 for a folder without subfolders. */
  height(id: string): number {
    const kids = this.children(id);
    return 1 + (kids.length === 0 ? 0 : Math.max(...kids.map((k) => this.height(k.id))));
  }

  view(id: string): MediaFolderView {
    const row = this.byId.get(id);
    if (!row) throw new Error(`folder ${id} is not in the tree`);
    const sub = this.subtree(id);
    return {
      id: row.id,
      name: row.name,
      parent_id: row.parent_id,
      revision: row.revision,
      depth: this.depth(id),
      media_count: this.mediaCounts.get(id) ?? 0,
      subtree_folder_count: sub.length,
      subtree_media_count: sub.reduce((n, f) => n + (this.mediaCounts.get(f.id) ?? 0), 0),
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  /** Every folder, depth first (siblings by name, case-insensitive). */
  list(): MediaFolderView[] {
    const out: MediaFolderView[] = [];
    const walk = (parent: string | null) => {
      for (const child of this.children(parent)) {
        out.push(this.view(child.id));
        walk(child.id);
      }
    };
    walk(null);
    return out;
  }

  /** Files with no folder (a folder_id naming no folder counts too: it is shown nowhere else). */
  unfiled(): number {
    let n = 0;
    for (const [folder, count] of this.mediaCounts) if (folder === null || !this.byId.has(folder)) n += count;
    return n;
  }

  total(): number {
    let n = 0;
    for (const count of this.mediaCounts.values()) n += count;
    return n;
  }
}

/**
 * A folder name as stored: trimmed and in NFC; its key is {@link nameKey} (NFC and case folding),
 * unique under a parent. Undefined (refused) when empty, longer than 80 code points, not
 * well-formed Unicode (a lone surrogate), or holding control characters (C0, DEL, C1),
 * bidirectional controls or other invisible format characters (docs/media.md, "Text in names").
 */
export function folderName(sent: string): { name: string; name_key: string } | undefined {
  if (!isWellFormedText(sent)) return undefined;
  const name = sent.trim().normalize("NFC");
  const length = codePointLength(name);
  if (length < 1 || length > MEDIA_FOLDER_LIMITS.name_max || !isReadableName(name)) return undefined;
  return { name, name_key: nameKey(name) };
}

/**
 * The key a stored folder is compared by, recomputed from its name: rows written before names were
 * compared by {@link nameKey} stored `lower(name)`, which SQL cannot turn into NFC.
 */
export function folderKey(row: Pick<MediaFolderRow, "name">): string {
  return nameKey(row.name);
}
