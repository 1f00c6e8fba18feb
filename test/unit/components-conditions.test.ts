import { describe, expect, it } from "vitest";
import type { FieldDefinition } from "../../schema/model-definition";
import { componentIssues } from "../../shared/content/components";
import { isShown } from "../../shared/content/conditions";
import { AppError } from "../../shared/errors";
import { requireUsableFieldValidation } from "../../shared/content/field-validation-rules";

/*
 * The parts of docs/content-rules-fields.md the HTTP surface cannot reach yet: relation kinds
 * (issue #13, another slice) add `relation` / `localizedMembership` to field definitions, and the
 * component check already refuses a one-to-many or language-specific relation inside a component
 * with 422 relation_type_not_authorable. Plus the operator semantics on empty values.
 */

const field = (extra: Record<string, unknown>): FieldDefinition => ({ id: "f", key: "f", label: "F", type: "text", ...extra }) as FieldDefinition;

describe("relation kinds inside components", () => {
  it("refuses a one-to-many relation inside a component as relation_type_not_authorable, with its path", () => {
    const fields = [field({ key: "g", type: "component", fields: [field({ key: "r", type: "relation", targets: ["mdl_x"], relation: "one_to_many" })] })];
    expect(componentIssues(fields).notAuthorable).toEqual([{ path: "fields[0].fields[0].relation", message: expect.stringContaining("one-to-many") }]);
    let thrown: unknown;
    try {
      requireUsableFieldValidation(fields);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect((thrown as AppError).code).toBe("relation_type_not_authorable");
  });

  it("refuses language-specific membership inside a component, and lets to-one relations nest (issue #22 item 4)", () => {
    const localized = [field({ key: "g", type: "component", fields: [field({ key: "r", type: "relation", targets: ["mdl_x"], relation: "many_to_many", localizedMembership: true })] })];
    expect(componentIssues(localized).notAuthorable.map((i) => i.path)).toEqual(["fields[0].fields[0].localized_membership"]);
    const manyToOne = [field({ key: "g", type: "component", fields: [field({ key: "r", type: "relation", targets: ["mdl_x"], relation: "many_to_one" })] })];
    expect(componentIssues(manyToOne)).toEqual({ notAuthorable: [], config: [] });
  });
});

describe("condition semantics on empty values", () => {
  const scope = [
    field({ key: "n", type: "integer" }),
    field({ key: "s", type: "select", options: [{ value: "a", label: "A" }], multiple: true }),
    field({ key: "t", type: "text" }),
  ];
  const shown = (condition: unknown, values: Record<string, unknown>) => isShown(field({ key: "x", condition }), scope, values);

  it("lets an empty value satisfy only empty and the negative operators", () => {
    expect(shown({ field: "n", op: "ne", value: 1 }, {})).toBe(true);
    expect(shown({ field: "n", op: "lt", value: 1 }, {})).toBe(false);
    expect(shown({ field: "s", op: "not_in", value: ["a"] }, { s: [] })).toBe(true);
    expect(shown({ field: "s", op: "in", value: ["a"] }, { s: [] })).toBe(false);
    expect(shown({ field: "t", op: "not_equals", value: "x" }, { t: "" })).toBe(true);
    expect(shown({ field: "t", op: "equals", value: "" }, { t: "" })).toBe(false);
    expect(shown({ field: "t", op: "empty" }, { t: null })).toBe(true);
  });

  it("tests a multiple select by any chosen value", () => {
    expect(shown({ field: "s", op: "in", value: ["a"] }, { s: ["b", "a"] })).toBe(true);
    expect(shown({ field: "s", op: "not_in", value: ["a"] }, { s: ["b", "a"] })).toBe(false);
  });

  it("treats a term it cannot read (a field since removed) as false", () => {
    expect(shown({ field: "gone", op: "empty" }, {})).toBe(false);
  });
});
