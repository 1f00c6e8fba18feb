/** The one path every surface (admin, management, plugin, seed) takes to change content. */
export { createEntry, type CreateEntryInput } from "./create-entry";
export { saveDraft, type SaveDraftInput } from "./save-draft";
export { addLanguage, type AddLanguageInput } from "./add-language";
export { publishEntry, unpublishEntry, moveEntry, publishedDependents, type PublishInput, type UnpublishInput, type MoveInput } from "./transitions";
export { trashEntry, restoreEntry, purgeEntry, type TrashInput, type TrashAnswer, type PurgeAnswer } from "./trash";
export { restoreVersion, type RestoreVersionInput } from "./restore-version";
export { commitPlan, planStatements, type Committed, type IdempotencyRecord, type PlannedBatch } from "./commit-plan";
export type { Actor, LifecycleContext, WritePlan } from "./context";
export type { EntryView } from "./entry-view";
