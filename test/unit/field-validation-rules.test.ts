import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { FieldDefinition } from "../../schema/model-definition";
import { fieldValidationIssues } from "../../shared/content/field-validation-rules";

function field(type: string, validation: Record<string, unknown>, extra: Record<string, unknown> = {}): FieldDefinition {
  return v.parse(FieldDefinition, { id: `fld_${type}`, key: "f", label: "F", type, validation, ...extra });
}

const paths = (fields: FieldDefinition[]) => fieldValidationIssues(fields).map((issue) => issue.path);

describe("fieldValidationIssues", () => {
  it("refuses a pattern RE2 cannot compile, valid JavaScript or not", () => {
    for (const pattern of ["(", "[z-a]", "(?<=a)b", "(?<!a)b", "a(?=b)", "a(?!b)", "(a)\\1", "a{1001}"]) {
      expect(paths([field("text", { pattern })]), pattern).toEqual(["fields[0].validation.pattern"]);
    }
  });

  it("accepts the patterns people write, nested quantifiers included (RE2 runs them in linear time)", () => {
    for (const pattern of ["^[A-Z]{3}$", "^(a+)+$", "^\\d{4}-\\d{2}$", "^[\\p{L} ]+$", "(?i)^abc", "^(?:x|y)*$"]) {
      expect(paths([field("text", { pattern })]), pattern).toEqual([]);
    }
  });

  it("refuses each minimum above its maximum, at the maximum's path and the field's index", () => {
    expect(paths([field("text", {}), field("text", { min_length: 5, max_length: 4 })])).toEqual(["fields[1].validation.max_length"]);
    expect(paths([field("decimal", { min: 2, max: 1 })])).toEqual(["fields[0].validation.max"]);
    expect(paths([field("relation", { min_items: 3, max_items: 2 }, { multiple: true, targets: ["mdl_x"] })])).toEqual(["fields[0].validation.max_items"]);
    expect(paths([field("date", { min_date: "2024-02-01", max_date: "2024-01-31" })])).toEqual(["fields[0].validation.max_date"]);
  });

  it("accepts equal bounds, and compares datetime bounds as instants", () => {
    expect(paths([field("text", { min_length: 4, max_length: 4 }), field("integer", { min: 3, max: 3 })])).toEqual([]);
    // 10:00+02:00 is 08:00Z, before 09:00Z.
    expect(paths([field("datetime", { min_date: "2024-01-01T10:00:00+02:00", max_date: "2024-01-01T09:00:00Z" })])).toEqual([]);
    expect(paths([field("datetime", { min_date: "2024-01-01T09:00:00Z", max_date: "2024-01-01T10:00:00+02:00" })])).toEqual(["fields[0].validation.max_date"]);
  });
});
