/**
 * Every event name the services emit today (`events: [{ name: … }]` in shared/services), documented
 * with their payloads in docs/events.md. Subscriptions name some of these, or `*` for all.
 */
export const EVENT_NAMES = [
  "entry.created",
  "entry.draft_saved",
  "entry.language_added",
  "entry.version_restored",
  "entry.published",
  "entry.unpublished",
  "entry.moved",
  "entry.assigned",
  "entry.trashed",
  "entry.restored",
  "entry.purged",
  "model.created",
  "model.updated",
  "model.renamed",
  "model.folder_changed",
  "model.deleted",
  "model.manual_order_changed",
  "model_proposal.created",
  "model_proposal.applied",
  "model_proposal.dismissed",
  "proposal.created",
  "proposal.applied",
  "proposal.rejected",
  "role.created",
  "role.updated",
  "role.deleted",
  "site.settings_updated",
  "media.uploaded",
  "media.folder.created",
  "media.folder.updated",
  "media.folder.removed",
  "media.moved",
  // Media edits (PUT /media/{id}).
  "media.updated",
  // Media replace (POST /media/{id}/replace).
  "media.replaced",
  // Originals by language (PUT/DELETE /media/{id}/originals/{lang}).
  "media.original.updated",
  "media.original.removed",
  // Media remove (POST /media/{id}/remove).
  "media.removed",
  // Saved queries (docs/saved-queries.md).
  "saved_query.created",
  "saved_query.updated",
  "saved_query.deleted",
  // Menus (docs/menus.md).
  "menu.updated",
  "menu.deleted",
  // Comments (docs/comments.md).
  "comment.posted",
  "comment.moderated",
  "comment.deleted",
  // Scheduled publishing (docs/scheduled-publishing.md).
  "schedule.created",
  "schedule.updated",
  "schedule.cancelled",
  "schedule.fired",
  "schedule.stale",
  "schedule.failed",
  // Releases (docs/releases.md): spec 1's "release" events.
  "release.created",
  "release.updated",
  "release.deleted",
  "release.published",
  "release.stale",
  "release.failed",
  // Redirects (docs/redirects.md).
  "redirect.created",
  "redirect.updated",
  "redirect.deleted",
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

/** Whether a subscription's list (`["*"]` or names) takes an event. */
export function subscribes(events: readonly string[], name: string): boolean {
  return events.includes("*") || events.includes(name);
}
