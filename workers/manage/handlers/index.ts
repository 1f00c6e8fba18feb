import type { ManageHandler } from "../context";
import * as bulk from "./bulk";
import * as editing from "./editing";
import * as entries from "./entries";
import * as generatedBackend from "./generated-backend";
import * as imports from "./imports";
import * as exports from "./exports";
import * as media from "./media";
import * as mediaFolders from "./media-folders";
import * as mediaEdits from "./media-edits";
import * as mediaReplace from "./media-replace";
import * as mediaOriginals from "./media-originals";
import * as mediaSources from "./media-sources";
import * as mediaUsage from "./media-usage";
import * as modelProposals from "./model-proposals";
import * as models from "./models";
import * as plugins from "./plugins";
import * as pluginOperations from "./plugin-operations";
import * as proposals from "./proposals";
import * as roles from "./roles";
import { listEntryRelatedFrom } from "./related-from";
import * as redirects from "./redirects";
import * as releases from "./releases";
import * as recovery from "./recovery-drafts";
import * as schedules from "./schedules";
import * as settings from "./settings";
import * as cors from "./cors";
import * as savedQueries from "./saved-queries";
import * as menus from "./menus";
import * as pages from "./pages";
import * as comments from "./comments";
import * as siteChrome from "./site-chrome";
import * as accessRules from "./access-rules";
import * as trash from "./trash";
import { getSite } from "./site";

/** Handlers by operationId; a test checks that every route of schema/manage-api.ts has one. */
export const HANDLERS: Readonly<Record<string, ManageHandler>> = {
  getSite,
  getGeneratedBackend: generatedBackend.getGeneratedBackend,
  getGenerationReadiness: generatedBackend.getGenerationReadiness,
  getGenerationReadinessContent: generatedBackend.getGenerationReadinessContent,
  createBackendReadToken: generatedBackend.createBackendReadToken,
  listBackendReadTokens: generatedBackend.listBackendReadTokens,
  revokeBackendReadToken: generatedBackend.revokeBackendReadToken,
  startEditing: editing.startEditing,
  renewEditing: editing.renewEditing,
  stopEditing: editing.stopEditing,
  takeOverEditing: editing.takeOverEditing,
  listRichBlocks: plugins.listRichBlocks,
  listPluginOperations: pluginOperations.listPluginOperations,
  // Media sources of plugins (docs/media.md, "Media sources").
  listMediaSources: mediaSources.listMediaSources,
  listMediaSourceItems: mediaSources.listMediaSourceItems,
  importMediaSourceItem: mediaSources.importMediaSourceItem,
  invokePluginOperation: pluginOperations.invokePluginOperation,
  listModels: models.listModels,
  getModel: models.getModel,
  createModel: models.createModel,
  updateModel: models.updateModel,
  replaceModelDefinition: models.replaceModelDefinition,
  planModelDefinition: models.planModelDefinition,
  setModelFolder: models.setModelFolder,
  removeModel: models.removeModel,
  listRoles: roles.listRoles,
  createRole: roles.createRole,
  updateRole: roles.updateRole,
  removeRole: roles.removeRole,
  getSettings: settings.getSettings,
  updateSettings: settings.updateSettings,
  getCorsSettings: cors.getCorsSettings,
  putCorsSettings: cors.putCorsSettings,
  listSavedQueries: savedQueries.listSavedQueries,
  createSavedQuery: savedQueries.createSavedQuery,
  updateSavedQuery: savedQueries.updateSavedQuery,
  deleteSavedQuery: savedQueries.deleteSavedQuery,
  listMenus: menus.listMenus,
  getMenu: menus.getMenu,
  putMenu: menus.putMenu,
  deleteMenu: menus.deleteMenu,
  // Pages (docs/pages.md).
  listPages: pages.listPages,
  getPage: pages.getPage,
  savePage: pages.savePage,
  // Comments (docs/comments.md).
  listComments: comments.listComments,
  moderateComment: comments.moderateComment,
  deleteComment: comments.deleteComment,
  getCommentSettings: comments.getCommentSettings,
  putCommentSettings: comments.putCommentSettings,
  getSiteChrome: siteChrome.getSiteChrome,
  getSeoSettings: siteChrome.getSeoSettings,
  getRobotsRules: siteChrome.getRobotsRules,
  putSiteChrome: siteChrome.putSiteChrome,
  putSeoSettings: siteChrome.putSeoSettings,
  putRobotsRules: siteChrome.putRobotsRules,
  getAccessRules: accessRules.getAccessRules,
  putAccessRules: accessRules.putAccessRules,
  listEntries: entries.listEntries,
  createEntry: entries.createEntry,
  getEntry: entries.getEntry,
  saveEntry: entries.saveEntry,
  addEntryLanguage: entries.addEntryLanguage,
  listEntryVersions: entries.listEntryVersions,
  restoreEntryVersion: entries.restoreEntryVersion,
  publishEntry: entries.publishEntry,
  unpublishEntry: entries.unpublishEntry,
  moveEntry: entries.moveEntry,
  trashEntry: entries.trashEntry,
  restoreEntry: entries.restoreEntry,
  purgeEntry: entries.purgeEntry,
  listEntryDependents: entries.listEntryDependents,
  checkEntryRestore: trash.checkEntryRestore,
  // Redirects (docs/redirects.md).
  listRedirects: redirects.listRedirects,
  createRedirect: redirects.createRedirect,
  updateRedirect: redirects.updateRedirect,
  deleteRedirect: redirects.deleteRedirect,
  reviewRedirects: redirects.reviewRedirects,
  // Scheduled publishing (docs/scheduled-publishing.md).
  // Personal recovery drafts (docs/recovery-drafts.md).
  getRecoveryDraft: recovery.getRecoveryDraft,
  keepRecoveryDraft: recovery.keepRecoveryDraft,
  deleteRecoveryDraft: recovery.deleteRecoveryDraft,
  // Releases (docs/releases.md).
  createRelease: releases.createRelease,
  listReleases: releases.listReleases,
  getRelease: releases.getRelease,
  updateRelease: releases.updateRelease,
  publishRelease: releases.publishRelease,
  previewRelease: releases.previewRelease,
  deleteRelease: releases.deleteRelease,
  createSchedule: schedules.createSchedule,
  listSchedules: schedules.listSchedules,
  getPublishingCalendar: schedules.getPublishingCalendar,
  updateSchedule: schedules.updateSchedule,
  cancelSchedule: schedules.cancelSchedule,
  // Bulk actions (docs/bulk-actions.md).
  bulkPublishEntries: bulk.bulkPublishEntries,
  bulkUnpublishEntries: bulk.bulkUnpublishEntries,
  bulkTrashEntries: bulk.bulkTrashEntries,
  bulkRestoreEntries: bulk.bulkRestoreEntries,
  bulkMoveEntries: bulk.bulkMoveEntries,
  bulkAssignEntries: bulk.bulkAssignEntries,
  bulkRelateEntries: bulk.bulkRelateEntries,
  listEntryRelatedFrom,
  createEntryProposal: proposals.createEntryProposal,
  listProposals: proposals.listProposals,
  getProposal: proposals.getProposal,
  assignEntry: proposals.assignEntry,
  listEntryAssignees: proposals.listEntryAssignees,
  previewEntry: proposals.previewEntry,
  createModelProposal: modelProposals.createModelProposal,
  listModelProposals: modelProposals.listModelProposals,
  getModelProposal: modelProposals.getModelProposal,
  listPlugins: plugins.listPlugins,
  listPluginManageViews: plugins.listPluginManageViews,
  listPluginContentActions: plugins.listPluginContentActions,
  launchPluginManageView: plugins.launchPluginManageView,
  launchPluginContentAction: plugins.launchPluginContentAction,
  uploadMedia: media.uploadMedia,
  getMedia: media.getMedia,
  // Media folders and moves (docs/media.md, "Folders").
  listMediaFolders: mediaFolders.listMediaFolders,
  createMediaFolder: mediaFolders.createMediaFolder,
  updateMediaFolder: mediaFolders.updateMediaFolder,
  removeMediaFolder: mediaFolders.removeMediaFolder,
  moveMedia: mediaFolders.moveMedia,
  // Media list and edit (handlers/media-edits.ts).
  listMedia: mediaEdits.listMedia,
  updateMedia: mediaEdits.updateMedia,
  // Media replace (handlers/media-replace.ts).
  replaceMedia: mediaReplace.replaceMedia,
  // Originals by language (handlers/media-originals.ts).
  listMediaOriginals: mediaOriginals.listMediaOriginals,
  setMediaOriginal: mediaOriginals.setMediaOriginal,
  removeMediaOriginal: mediaOriginals.removeMediaOriginal,
  // Media usage and remove (handlers/media-usage.ts).
  getMediaUsage: mediaUsage.getMediaUsage,
  removeMedia: mediaUsage.removeMedia,
  // Imports as jobs (handlers/imports.ts; docs/imports.md).
  createImportSource: imports.createImportSource,
  createImport: imports.createImport,
  uploadImportPart: imports.uploadImportPart,
  completeImportUpload: imports.completeImportUpload,
  getImportJob: imports.getImportJob,
  advanceImport: imports.advanceImport,
  pauseImport: imports.pauseImport,
  resumeImport: imports.resumeImport,
  cancelImport: imports.cancelImport,
  advanceImportUndo: imports.advanceImportUndo,
  retryImportUndo: imports.retryImportUndo,
  getImportFindings: imports.getImportFindings,
  getWordPressReview: imports.getWordPressReview,
  decideWordPressReview: imports.decideWordPressReview,
  uploadImportMedia: imports.uploadImportMedia,
  getImportMapping: imports.getImportMapping,
  putImportMapping: imports.putImportMapping,
  getImportPrincipals: imports.getImportPrincipals,
  getHistoryAssignments: imports.getHistoryAssignments,
  putHistoryAssignments: imports.putHistoryAssignments,
  readImportArtifact: imports.readImportArtifact,
  // Exports as jobs (handlers/exports.ts; docs/exports.md).
  createExport: exports.createExport,
  advanceExport: exports.advanceExport,
  getExportJob: exports.getExportJob,
  readExportChunk: exports.readExportChunk,
};
