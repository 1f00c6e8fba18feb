import type { ManageAnswer } from "../api/client";

/** One row of a model's entry list (entry-list.tsx), as `listEntries` answers it. */
export type EntryRow = ManageAnswer<"listEntries">["data"][number];

/**
 * Rows in display order (issue #30 item 10): the service sorts the whole list (`sort`, across
 * pages); each item's translations come right under the first of its languages the list reached.
 */
export function grouped(rows: readonly EntryRow[]): { entry: EntryRow; translation: boolean }[] {
  const groups = new Map<string, EntryRow[]>();
  for (const row of rows) groups.set(row.translation_group_id, [...(groups.get(row.translation_group_id) ?? []), row]);
  return [...groups.values()].flatMap((list) => {
    // The group sits where the first of its rows fell; its primary language leads it.
    const first = list.find((e) => e.instance_id === e.primary_instance_id) ?? (list[0] as EntryRow);
    return [{ entry: first, translation: false }, ...list.filter((e) => e !== first).map((entry) => ({ entry, translation: true }))];
  });
}

/** Who wrote the current draft, in words: a credential, app, plugin or import by its name and kind. */
export function updatedBy(entry: EntryRow): string {
  const by = entry.updated_by;
  if (!by) return "Nobody yet";
  const name = by.name ?? (by.kind === "person" ? "A former member" : null);
  switch (by.kind) {
    case "person":
      return name ?? "Someone";
    case "credential":
      return `${name ?? "A revoked credential"} (credential)`;
    case "oauth_app":
      return `${name ?? "An app"} (connected app)`;
    case "plugin":
      return `${name ?? "A plugin"} (plugin)`;
    case "import":
      return name ?? "An import";
    default:
      return "The service";
  }
}

/** A timestamp in the reader's locale, to the minute. */
export function formatWhen(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}
