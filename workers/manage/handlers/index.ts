import type { ManageHandler } from "../context";
import * as entries from "./entries";
import { getSite } from "./site";

/** Handlers by operationId; a test checks that every route of schema/manage-api.ts has one. */
export const HANDLERS: Readonly<Record<string, ManageHandler>> = {
  getSite,
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
};
