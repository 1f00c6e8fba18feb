import type { OpsAnswer } from "../api/client";

/** A site as the operators' routes answer it (docs/operations-api.md, "The site as answered"). */
export type OpsSite = OpsAnswer<"getSite">;

/**
 * The operators' refusals in words (docs/operations-api.md, docs/site-copy.md, docs/site-delete.md),
 * given to `describeError` before the editors' words: here a slug is a site's.
 */
export const OPERATOR_WORDS: Readonly<Record<string, string>> = {
  slug_taken: "Another site already has this slug.",
  host_taken: "Another site is served at this host, or it is the admin's own host.",
  last_host: "A site needs at least one host. Add another host before removing this one.",
  unknown_database: "This deployment has no site database of that name.",
  site_suspended: "This site is suspended: resume it first.",
  site_not_suspended: "Only a suspended site can be deleted. Suspend it first.",
  confirm_mismatch: "The slug typed does not match this site's slug.",
  already_member: "This person is already a member of this site.",
  model_conflict: "The target site has a model of the same slug or name defined differently.",
  single_entry_taken: "A single-entry model holds its one entry on both sites.",
  entry_slug_taken: "Entries of a shared model use the same address on both sites.",
  media_folder_exists: "Both sites have a top-level media folder of the same name.",
  not_found: "This site no longer exists.",
  unauthorized: "You are signed out, or your account may no longer run the operators' screens.",
};

/** Bytes for people: 0 B, 12.3 KB, 4.5 MB, 1.2 GB (powers of 1,000, as storage is sold). */
export function formatBytes(bytes: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${value} ${units[0]}` : `${value.toFixed(1)} ${units[unit]}`;
}

/** Entry figures in words: "12 published, 3 draft, 1 in Trash" (states with none left out). */
export function entryFigures(entries: Readonly<Record<string, number>>): string {
  const words: Record<string, string> = { published: "published", draft: "draft", in_review: "in review", unpublished: "unpublished", trashed: "in Trash" };
  const parts = Object.entries(entries)
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${words[state] ?? state.replace(/_/g, " ")}`);
  return parts.length ? parts.join(", ") : "no entries";
}

/** An ISO moment as the reader's local date and time, or a dash. */
export function formatWhen(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : "—";
}
