import { PAGE_DEPTH_LIMIT } from "./page-model";

/** One page of a language as the tree sees it: its group, its own segment and its parent's group. */
export interface PageNode {
  group: string;
  slug: string | null;
  parent: string | null;
}

/**
 * Each page's path: `/` then the slugs from the top page down (`/about/team`). A page whose chain
 * is broken — an ancestor absent from `nodes` (not in this language, unpublished, in Trash), a
 * segment without slug, a chain deeper than {@link PAGE_DEPTH_LIMIT} — has no path (`null`).
 */
export function pagePaths(nodes: readonly PageNode[]): Map<string, string | null> {
  const byGroup = new Map(nodes.map((n) => [n.group, n]));
  const paths = new Map<string, string | null>();
  const pathOf = (group: string, depth: number): string | null => {
    const known = paths.get(group);
    if (known !== undefined) return known;
    const node = byGroup.get(group);
    if (!node || node.slug === null || depth > PAGE_DEPTH_LIMIT) return null;
    const above = node.parent === null ? "" : pathOf(node.parent, depth + 1);
    const path = above === null ? null : `${above}/${node.slug}`;
    paths.set(group, path);
    return path;
  };
  for (const node of nodes) pathOf(node.group, 0);
  return paths;
}

/** Page rows ordered by path (pages without one last, by slug). */
export function byPath<T extends { path: string | null; slug: string | null }>(rows: T[]): T[] {
  return rows.sort((a, b) => (a.path === null) !== (b.path === null) ? (a.path === null ? 1 : -1) : (a.path ?? a.slug ?? "").localeCompare(b.path ?? b.slug ?? ""));
}
