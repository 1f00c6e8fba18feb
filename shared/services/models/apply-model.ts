/**
 * Model changes through the management API. This file is the entry point; the code lives in
 * sibling files of one purpose each: model-write-checks.ts (the first refusals),
 * apply-model-change.ts (the one path of every change), model-rerender.ts (re-rendering),
 * definition-writes.ts (create, settings, replace definition), proposed-definition.ts (model
 * proposals), model-folder.ts and remove-model.ts.
 */
export type { BlockedChange } from "./model-change-checks";
export type { ModelWriteAnswer } from "./apply-model-change";
export { authoriseModelWrite } from "./model-write-checks";
export {
  createModelFromDefinition,
  replaceModelDefinition,
  updateModelSettings,
  type CreateModelDefinitionInput,
  type DefinitionModel,
  type ReplaceDefinitionInput,
  type UpdateModelInput,
} from "./definition-writes";
export { applyProposedDefinition, checkProposedNewModel, proposedModelChanges, type ProposedDefinition } from "./proposed-definition";
export { setModelFolder, type ModelFolderInput } from "./model-folder";
export { removeModel, type RemoveModelInput } from "./remove-model";
