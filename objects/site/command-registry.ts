import * as lifecycle from "../../shared/services/lifecycle";
import { createModel } from "../../shared/services/models/create-model";
import { setManualOrder } from "../../shared/services/models/manual-order";
import * as modelApply from "../../shared/services/models/apply-model";
import * as modelProposals from "../../shared/services/proposals/model-proposals";
import * as pluginTransitions from "../../shared/services/plugins/transitions";
import * as proposals from "../../shared/services/proposals/entry-proposals";
import * as roles from "../../shared/services/people/roles";
import * as siteSettings from "../../shared/services/settings/site-settings";
import { putCorsSettings } from "../../shared/services/cors/cors-settings";
import * as savedQueries from "../../shared/services/saved-queries/saved-queries";
import * as menus from "../../shared/services/menus/menus";
import { savePage } from "../../shared/services/pages/save-page";
import * as comments from "../../shared/services/comments/comments";
import { putCommentSettings } from "../../shared/services/comments/comment-settings-write";
import * as siteChrome from "../../shared/services/site-chrome/chrome-writes";
import { putAccessRules } from "../../shared/services/access-rules/access-rules";
import { uploadMedia } from "../../shared/services/media/upload";
import * as mediaFolders from "../../shared/services/media/folders";
import { moveMedia } from "../../shared/services/media/move";
import { updateMedia } from "../../shared/services/media/edit";
import { replaceMedia } from "../../shared/services/media/replace";
import * as mediaOriginals from "../../shared/services/media/original-writes";
import { removeMedia } from "../../shared/services/media/remove";
import * as schedules from "../../shared/services/schedules/schedules";
import * as releases from "../../shared/services/releases/releases";
import { publishRelease } from "../../shared/services/releases/publish";
import * as recovery from "../../shared/services/recovery/recovery-drafts";
import * as redirects from "../../shared/services/redirects/redirects";
import * as backendReadTokens from "../../shared/services/generator/read-tokens";
import * as importSources from "../../shared/services/imports/sources";
import { recordImportPart } from "../../shared/services/imports/upload";
import { recordImportMedia } from "../../shared/services/imports/wordpress/attachments";
import { createExport } from "../../shared/services/exports/create-export";
import type { PlanBuilder } from "./write-runner";

/**
 * Every write a SiteObject runs, by name, with the HTTP status of its success. Surfaces (admin,
 * management, plugin) send a name and an input; the object runs the builder through its write path.
 */
export const COMMANDS = {
  createEntry: { build: lifecycle.createEntry, status: 201 },
  saveDraft: { build: lifecycle.saveDraft, status: 200 },
  addLanguage: { build: lifecycle.addLanguage, status: 201 },
  publish: { build: lifecycle.publishEntry, status: 200 },
  unpublish: { build: lifecycle.unpublishEntry, status: 200 },
  move: { build: lifecycle.moveEntry, status: 200 },
  trash: { build: lifecycle.trashEntry, status: 200 },
  restore: { build: lifecycle.restoreEntry, status: 200 },
  purge: { build: lifecycle.purgeEntry, status: 200 },
  restoreVersion: { build: lifecycle.restoreVersion, status: 200 },
  createModel: { build: createModel, status: 201 },
  setManualOrder: { build: setManualOrder, status: 200 },
  createRole: { build: roles.createRole, status: 201 },
  updateRole: { build: roles.updateRole, status: 200 },
  removeRole: { build: roles.removeRole, status: 200 },
  updateSettings: { build: siteSettings.updateSettings, status: 200 },
  // Browser access to the public API (docs/cors.md).
  putCorsSettings: { build: putCorsSettings, status: 200 },
  // Saved queries (docs/saved-queries.md).
  createSavedQuery: { build: savedQueries.createSavedQuery, status: 201 },
  updateSavedQuery: { build: savedQueries.updateSavedQuery, status: 200 },
  deleteSavedQuery: { build: savedQueries.deleteSavedQuery, status: 200 },
  // Menus (docs/menus.md): the plan answers 201 when it creates the menu.
  putMenu: { build: menus.putMenu, status: 200 },
  deleteMenu: { build: menus.deleteMenu, status: 200 },
  // Pages (docs/pages.md): the plan answers 201 when it creates the page.
  savePage: { build: savePage, status: 200 },
  // Comments (docs/comments.md): the public post (201), moderation and deletes (run again when repeated, spec 2 rule 4), settings.
  postComment: { build: comments.postComment, status: 201 },
  moderateComment: { build: comments.moderateComment, status: 200 },
  deleteComment: { build: comments.deleteComment, status: 200 },
  putCommentSettings: { build: putCommentSettings, status: 200 },
  // Site Chrome, SEO and robots (docs/site-chrome.md).
  putSiteChrome: { build: siteChrome.putSiteChrome, status: 200 },
  putSeoSettings: { build: siteChrome.putSeoSettings, status: 200 },
  putRobotsRules: { build: siteChrome.putRobotsRules, status: 200 },
  // Access-proxy rules (docs/access-rules.md).
  putAccessRules: { build: putAccessRules, status: 200 },
  createModelDefinition: { build: modelApply.createModelFromDefinition, status: 201 },
  updateModelSettings: { build: modelApply.updateModelSettings, status: 200 },
  replaceModelDefinition: { build: modelApply.replaceModelDefinition, status: 200 },
  setModelFolder: { build: modelApply.setModelFolder, status: 200 },
  removeModel: { build: modelApply.removeModel, status: 200 },
  createProposal: { build: proposals.createProposal, status: 201 },
  applyProposal: { build: proposals.applyProposal, status: 200 },
  rejectProposal: { build: proposals.rejectProposal, status: 200 },
  assignEntry: { build: proposals.assignEntry, status: 200 },
  createModelProposal: { build: modelProposals.createModelProposal, status: 201 },
  applyModelProposal: { build: modelProposals.applyModelProposal, status: 200 },
  dismissModelProposal: { build: modelProposals.dismissModelProposal, status: 200 },
  pluginPublish: { build: pluginTransitions.pluginPublish, status: 200 },
  pluginUnpublish: { build: pluginTransitions.pluginUnpublish, status: 200 },
  // 201 for a stored file; the plan answers 200 when it reuses an existing one (spec 2 rule 3).
  uploadMedia: { build: uploadMedia, status: 201 },
  // Media folders and moves (docs/media.md, "Folders").
  createMediaFolder: { build: mediaFolders.createFolder, status: 201 },
  updateMediaFolder: { build: mediaFolders.updateFolder, status: 200 },
  removeMediaFolder: { build: mediaFolders.removeFolder, status: 200 },
  moveMedia: { build: moveMedia, status: 200 },
  // Media edits (PUT /media/{id}).
  updateMedia: { build: updateMedia, status: 200 },
  // Media replace (POST /media/{id}/replace; docs/media.md, "Replace").
  replaceMedia: { build: replaceMedia, status: 200 },
  // Originals by language (PUT/DELETE /media/{id}/originals/{lang}; docs/media.md). The plan answers 201 for a first override.
  setMediaOriginal: { build: mediaOriginals.setMediaOriginal, status: 200 },
  removeMediaOriginal: { build: mediaOriginals.removeMediaOriginal, status: 200 },
  // Media remove (POST /media/{id}/remove; docs/media.md, "Remove"): R2 deletes follow the commit.
  removeMedia: { build: removeMedia, status: 200 },
  // Scheduled publishing (docs/scheduled-publishing.md): the alarm fires them (objects/site/schedule-runner.ts).
  createSchedule: { build: schedules.createSchedule, status: 201 },
  updateSchedule: { build: schedules.updateSchedule, status: 200 },
  cancelSchedule: { build: schedules.cancelSchedule, status: 200 },
  // Releases (docs/releases.md): publishing one is one batch; a timed one rides on the schedules' alarm.
  createRelease: { build: releases.createRelease, status: 201 },
  updateRelease: { build: releases.updateRelease, status: 200 },
  deleteRelease: { build: releases.deleteRelease, status: 200 },
  publishRelease: { build: publishRelease, status: 200 },
  // Personal recovery drafts (docs/recovery-drafts.md): also kept by the object when a save is refused with lock_lost.
  keepRecoveryDraft: { build: recovery.keepRecoveryDraft, status: 200 },
  dropRecoveryDraft: { build: recovery.dropRecoveryDraft, status: 200 },
  // Redirects (docs/redirects.md): each write checks the whole set.
  createRedirect: { build: redirects.createRedirect, status: 201 },
  updateRedirect: { build: redirects.updateRedirect, status: 200 },
  deleteRedirect: { build: redirects.deleteRedirect, status: 200 },
  // Read tokens of the generated backend (docs/generated-backend.md, "Access").
  createBackendReadToken: { build: backendReadTokens.createBackendReadToken, status: 201 },
  revokeBackendReadToken: { build: backendReadTokens.revokeBackendReadToken, status: 200 },
  // Imports and exports (docs/imports.md, docs/exports.md): creating a source, an import or an export is one batch (rule 3).
  createImportSource: { build: importSources.createImportSource, status: 201 },
  createImport: { build: importSources.createImport, status: 201 },
  recordImportPart: { build: recordImportPart, status: 200 },
  recordImportMedia: { build: recordImportMedia, status: 200 },
  createExport: { build: createExport, status: 201 },
} as const;

export type CommandName = keyof typeof COMMANDS;

/**
 * Commands a site object may commit in a group with the same commands queued right behind them
 * (group commit, objects/site/write-group.ts; docs/write-fairness.md "Group commit (session 17)").
 * Only a plain create: it makes a new entry, so no other write queued beside it can name it, and
 * every check between creates is in the batch (slug index, unique values' trigger, single-entry
 * guard). A save, publish or any write of an existing entry reads what the write before it may
 * change, so it runs alone.
 */
export const GROUPED_COMMANDS: ReadonlySet<CommandName> = new Set<CommandName>(["createEntry"]);
type BuilderOf<K extends CommandName> = (typeof COMMANDS)[K]["build"];
export type CommandInput<K extends CommandName> = Parameters<BuilderOf<K>>[1];
export type CommandAnswer<K extends CommandName> = Awaited<ReturnType<BuilderOf<K>>>["answer"];

export function commandBuilder<K extends CommandName>(name: K): PlanBuilder<CommandInput<K>, CommandAnswer<K>> {
  return COMMANDS[name].build as unknown as PlanBuilder<CommandInput<K>, CommandAnswer<K>>;
}
