/**
 * Menu items as stored and as given (docs/menus.md). A menu holds, per language, a tree of at most
 * MAX_MENU_ITEMS items and MAX_MENU_DEPTH levels; each item points at an entry (stored as its
 * translation group, so every language resolves its own published version) or at a URL.
 */
export const MAX_MENU_ITEMS = 100;
export const MAX_MENU_DEPTH = 3;

export type MenuTargetInput = { kind: "entry"; entry_id: string } | { kind: "url"; url: string };
export interface MenuItemInput {
  label: string;
  target: MenuTargetInput;
  children?: MenuItemInput[];
}

export type StoredTarget = { kind: "entry"; group_id: string } | { kind: "url"; url: string };
export interface StoredMenuItem {
  label: string;
  target: StoredTarget;
  children: StoredMenuItem[];
}
export type StoredMenu = Record<string, StoredMenuItem[]>;

/** An https URL, or a path on the site itself ("/about", never "//host"). */
export function isMenuUrl(url: string): boolean {
  if (url.startsWith("/")) return !url.startsWith("//") && !/[\s\\]/.test(url);
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" && parsed.username === "" && parsed.password === "";
  } catch {
    return false;
  }
}

/** Every entry id the items name (to resolve to translation groups in one read). */
export function entryIds(items: readonly MenuItemInput[]): string[] {
  return items.flatMap((item) => [...(item.target.kind === "entry" ? [item.target.entry_id] : []), ...entryIds(item.children ?? [])]);
}

/** Count and depth problems, and URLs that are not https or site paths, by path. */
export function shapeIssues(lang: string, items: readonly MenuItemInput[]): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  let count = 0;
  const walk = (list: readonly MenuItemInput[], path: string, depth: number) => {
    list.forEach((item, i) => {
      const here = `${path}[${i}]`;
      count++;
      if (depth > MAX_MENU_DEPTH) issues.push({ path: here, message: `menus nest at most ${MAX_MENU_DEPTH} levels` });
      if (item.target.kind === "url" && !isMenuUrl(item.target.url)) issues.push({ path: `${here}.target.url`, message: "an https URL or a path on the site (/…)" });
      walk(item.children ?? [], `${here}.children`, depth + 1);
    });
  };
  walk(items, `items.${lang}`, 1);
  if (count > MAX_MENU_ITEMS) issues.push({ path: `items.${lang}`, message: `at most ${MAX_MENU_ITEMS} items per language` });
  return issues;
}

/** The stored form: entry ids replaced by their translation groups. */
export function storedItems(items: readonly MenuItemInput[], groups: ReadonlyMap<string, string>): StoredMenuItem[] {
  return items.map((item) => ({
    label: item.label,
    target: item.target.kind === "entry" ? { kind: "entry", group_id: groups.get(item.target.entry_id) ?? "" } : { kind: "url", url: item.target.url },
    children: storedItems(item.children ?? [], groups),
  }));
}

/** Translation groups the stored items point at. */
export function storedGroups(items: readonly StoredMenuItem[]): string[] {
  return items.flatMap((item) => [...(item.target.kind === "entry" ? [item.target.group_id] : []), ...storedGroups(item.children)]);
}
