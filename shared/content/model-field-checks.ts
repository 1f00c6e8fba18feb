/**
 * The checks of a model's fields that go beyond their shape and are not about validation bounds:
 * executable custom validation (refused), components (what may nest, how deep) and conditions.
 * Run wherever a model's fields are accepted (through requireUsableFieldValidation): model create,
 * definition replace, model proposals and their apply. See docs/content-rules-fields.md.
 */
import type { FieldDefinition } from "../../schema/model-definition";
import { AppError } from "../errors";
import type { Issue } from "../services/validation/parse";
import { componentIssues, forEachFieldScope } from "./components";
import { conditionIssues } from "./conditions";

/** `validation.custom` anywhere (nested fields included): spec 3's unsupported executable text validation. */
export function customValidationIssues(fields: readonly FieldDefinition[]): Issue[] {
  const issues: Issue[] = [];
  forEachFieldScope(fields, (scope, prefix) => {
    scope.forEach((field, index) => {
      if (field.validation?.custom !== undefined) {
        issues.push({ path: `${prefix}[${index}].validation.custom`, message: "Executable custom validation is not supported: use pattern, lengths and bounds." });
      }
    });
  });
  return issues;
}

/**
 * Throws, in this order: 422 relation_type_not_authorable, 422 invalid_field_config (components),
 * 422 invalid_field_condition — each listing every issue of its kind with its path. Nothing is
 * written. (unsupported_text_validation and invalid_field_validation come before these:
 * field-validation-rules.ts.)
 */
export function requireSupportedFields(fields: readonly FieldDefinition[]): void {
  const components = componentIssues(fields);
  if (components.notAuthorable.length > 0) {
    throw new AppError("relation_type_not_authorable", "This kind of relation cannot be inside a component.", { issues: components.notAuthorable });
  }
  if (components.config.length > 0) throw new AppError("invalid_field_config", "Some component fields cannot be used.", { issues: components.config });
  const conditions: Issue[] = [];
  forEachFieldScope(fields, (scope, prefix) => conditions.push(...conditionIssues(scope, prefix)));
  if (conditions.length > 0) throw new AppError("invalid_field_condition", "Some field conditions cannot be used.", { issues: conditions });
}
