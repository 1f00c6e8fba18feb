/**
 * The entry list's sort orders (listEntries `sort`, docs/admin-ui-lists.md): each key ascending,
 * or descending with a leading `-`. The SQL of each key is in workers/manage/entry-sort.ts.
 */
export const ENTRY_SORT_KEYS = ["title", "created", "updated", "state", "lang", "owner", "updated_by"] as const;
export type EntrySortKey = (typeof ENTRY_SORT_KEYS)[number];
export const ENTRY_SORTS = ["title", "-title", "created", "-created", "updated", "-updated", "state", "-state", "lang", "-lang", "owner", "-owner", "updated_by", "-updated_by"] as const;
export type EntrySort = (typeof ENTRY_SORTS)[number];
