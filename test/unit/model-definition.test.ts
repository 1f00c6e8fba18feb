import { dateTimeMillis, isCalendarDate } from "../../schema/dates";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import {
  FIELD_TYPES,
  FieldDefinition,
  FieldKey,
  FieldType,
  FieldValidation,
  ModelFields,
  UNIQUE_TYPES,
} from "../../schema/model-definition";

type Schema = v.GenericSchema;

/** Dot paths of every issue (`""` for the root), or `[]` when the input is accepted. */
function issuePaths(schema: Schema, input: unknown): string[] {
  const result = v.safeParse(schema, input);
  return result.success ? [] : result.issues.map((issue) => v.getDotPath(issue) ?? "");
}

function accepts(schema: Schema, input: unknown): boolean {
  return v.safeParse(schema, input).success;
}

/** A valid field of `type` with the extras that type needs, plus `extra`. */
function fieldOf(type: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const needs: Record<string, unknown> =
    type === "select"
      ? { options: [{ value: "a", label: "A" }, { value: "b", label: "B" }] }
      : type === "relation"
        ? { targets: ["mdl_authors"] }
        : type === "component"
          ? { fields: [{ key: "inner", label: "Inner", type: "text" }] }
          : {};
  return { id: `fld_${type}`, key: `f${type.replace("_", "")}`, label: `The ${type}`, type, ...needs, ...extra };
}

describe("FieldType", () => {
  it("accepts every listed type when given one", () => {
    expect(FIELD_TYPES).toHaveLength(14);
    for (const type of FIELD_TYPES) expect(accepts(FieldType, type)).toBe(true);
  });

  it("refuses a value when it is not a listed type", () => {
    for (const type of ["html", "TEXT", "", 1, null]) expect(accepts(FieldType, type)).toBe(false);
  });
});

describe("FieldKey", () => {
  it("accepts a key when it starts lowercase and holds letters, digits or underscores", () => {
    for (const key of ["title", "heroImage", "a", "a_1", `a${"b".repeat(63)}`]) expect(accepts(FieldKey, key)).toBe(true);
  });

  it("refuses a key when its form is wrong", () => {
    for (const key of ["", "Title", "1abc", "_x", "with-dash", "sp ace", "é", `a${"b".repeat(64)}`, 3]) {
      expect(accepts(FieldKey, key)).toBe(false);
    }
  });
});

describe("FieldDefinition", () => {
  it("accepts a minimal field of every type when it carries what the type needs", () => {
    for (const type of FIELD_TYPES) expect(issuePaths(FieldDefinition, fieldOf(type))).toEqual([]);
  });

  it("accepts every optional setting when each fits the type", () => {
    const full = fieldOf("select", {
      required: true,
      private: false,
      help: "Pick some",
      multiple: true,
      validation: { min_items: 1, max_items: 2 },
    });
    expect(issuePaths(FieldDefinition, full)).toEqual([]);
    expect(issuePaths(FieldDefinition, fieldOf("text", { title: true, validation: { min_length: 1, max_length: 9, pattern: "^[A-Z]" } }))).toEqual([]);
    expect(issuePaths(FieldDefinition, fieldOf("decimal", { validation: { min: -1.5, max: 1.5, step: 0.5 } }))).toEqual([]);
    expect(issuePaths(FieldDefinition, fieldOf("date", { validation: { min_date: "2024-01-01", max_date: "2024-12-31" } }))).toEqual([]);
  });

  it("refuses a definition when it holds an unknown key", () => {
    expect(issuePaths(FieldDefinition, fieldOf("text", { colour: "red" }))).toEqual(["colour"]);
  });

  it("refuses a definition when id, key, label or help are malformed", () => {
    expect(issuePaths(FieldDefinition, fieldOf("text", { id: "" }))).toEqual(["id"]);
    expect(issuePaths(FieldDefinition, fieldOf("text", { id: `fld_${"x".repeat(61)}` }))).toEqual(["id"]);
    expect(issuePaths(FieldDefinition, fieldOf("text", { id: "fld x" }))).toEqual(["id"]);
    expect(issuePaths(FieldDefinition, fieldOf("text", { key: "Bad" }))).toEqual(["key"]);
    expect(issuePaths(FieldDefinition, fieldOf("text", { label: "" }))).toEqual(["label"]);
    expect(issuePaths(FieldDefinition, fieldOf("text", { label: "x".repeat(121) }))).toEqual(["label"]);
    expect(issuePaths(FieldDefinition, fieldOf("text", { help: "x".repeat(501) }))).toEqual(["help"]);
    expect(issuePaths(FieldDefinition, fieldOf("text", { type: "html" }))).toEqual(["type"]);
    expect(issuePaths(FieldDefinition, fieldOf("text", { required: "yes" }))).toEqual(["required"]);
  });

  it("accepts an id when it is exactly 64 characters long", () => {
    expect(issuePaths(FieldDefinition, fieldOf("text", { id: `fld_${"x".repeat(60)}` }))).toEqual([]);
  });

  describe("options", () => {
    it("refuses options when the field is not a select", () => {
      expect(issuePaths(FieldDefinition, fieldOf("text", { options: [{ value: "a", label: "A" }] }))).toEqual(["options"]);
    });

    it("refuses a select when it has no options", () => {
      expect(issuePaths(FieldDefinition, { id: "fld_s", key: "s", label: "S", type: "select" })).toEqual(["options"]);
    });

    it("refuses options when the list is empty, too long, repeats a value or holds a bad option", () => {
      expect(issuePaths(FieldDefinition, fieldOf("select", { options: [] }))).toEqual(["options"]);
      const many = Array.from({ length: 201 }, (_, i) => ({ value: `v${i}`, label: `V${i}` }));
      expect(issuePaths(FieldDefinition, fieldOf("select", { options: many }))).toEqual(["options"]);
      expect(issuePaths(FieldDefinition, fieldOf("select", { options: [{ value: "a", label: "A" }, { value: "a", label: "B" }] }))).toEqual(["options"]);
      expect(issuePaths(FieldDefinition, fieldOf("select", { options: [{ value: "", label: "A" }] }))).toEqual(["options.0.value"]);
      expect(issuePaths(FieldDefinition, fieldOf("select", { options: [{ value: "a", label: "x".repeat(121) }] }))).toEqual(["options.0.label"]);
      expect(issuePaths(FieldDefinition, fieldOf("select", { options: [{ value: "a", label: "A", colour: "red" }] }))).toEqual(["options.0.colour"]);
    });

    it("accepts 200 options when their values are unique", () => {
      const many = Array.from({ length: 200 }, (_, i) => ({ value: `v${i}`, label: "Same label" }));
      expect(issuePaths(FieldDefinition, fieldOf("select", { options: many }))).toEqual([]);
    });
  });

  describe("targets", () => {
    it("refuses a relation when it has no targets", () => {
      expect(issuePaths(FieldDefinition, { id: "fld_r", key: "r", label: "R", type: "relation" })).toEqual(["targets"]);
    });

    it("refuses targets when the field is not a relation", () => {
      expect(issuePaths(FieldDefinition, fieldOf("media", { targets: ["mdl_a"] }))).toEqual(["targets"]);
    });

    it("refuses targets when empty, more than 16, repeated or malformed", () => {
      expect(issuePaths(FieldDefinition, fieldOf("relation", { targets: [] }))).toEqual(["targets"]);
      const many = Array.from({ length: 17 }, (_, i) => `mdl_${i}`);
      expect(issuePaths(FieldDefinition, fieldOf("relation", { targets: many }))).toEqual(["targets"]);
      expect(issuePaths(FieldDefinition, fieldOf("relation", { targets: ["mdl_a", "mdl_a"] }))).toEqual(["targets"]);
      expect(issuePaths(FieldDefinition, fieldOf("relation", { targets: [""] }))).toEqual(["targets.0"]);
    });

    it("accepts 16 targets when they are unique", () => {
      const many = Array.from({ length: 16 }, (_, i) => `mdl_${i}`);
      expect(issuePaths(FieldDefinition, fieldOf("relation", { targets: many }))).toEqual([]);
    });
  });

  describe("multiple", () => {
    it("accepts multiple when the type is select, media or relation", () => {
      for (const type of ["select", "media", "relation", "component"]) {
        expect(issuePaths(FieldDefinition, fieldOf(type, { multiple: true }))).toEqual([]);
      }
    });

    it("refuses multiple: true when the type holds one value", () => {
      for (const type of FIELD_TYPES.filter((t) => !["select", "media", "relation", "component"].includes(t))) {
        expect(issuePaths(FieldDefinition, fieldOf(type, { multiple: true }))).toEqual(["multiple"]);
      }
    });

    it("accepts multiple: false when the type holds one value", () => {
      expect(issuePaths(FieldDefinition, fieldOf("text", { multiple: false }))).toEqual([]);
    });
  });

  describe("title", () => {
    it("refuses title: true when the field is not text", () => {
      expect(issuePaths(FieldDefinition, fieldOf("integer", { title: true }))).toEqual(["title"]);
      expect(issuePaths(FieldDefinition, fieldOf("slug", { title: true }))).toEqual(["title"]);
    });

    it("accepts title: false when the field is not text", () => {
      expect(issuePaths(FieldDefinition, fieldOf("integer", { title: false }))).toEqual([]);
    });
  });

  describe("validation", () => {
    it("refuses length and pattern settings when the type is not a text type", () => {
      expect(issuePaths(FieldDefinition, fieldOf("integer", { validation: { min_length: 1 } }))).toEqual(["validation"]);
      expect(issuePaths(FieldDefinition, fieldOf("select", { validation: { pattern: "a" } }))).toEqual(["validation"]);
      for (const type of ["text", "long_text", "rich_text", "slug"]) {
        expect(issuePaths(FieldDefinition, fieldOf(type, { validation: { min_length: 1, max_length: 5, pattern: "a" } }))).toEqual([]);
      }
    });

    it("refuses min, max and step when the type is not a number type", () => {
      expect(issuePaths(FieldDefinition, fieldOf("text", { validation: { min: 1 } }))).toEqual(["validation"]);
      expect(issuePaths(FieldDefinition, fieldOf("date", { validation: { step: 1 } }))).toEqual(["validation"]);
      expect(issuePaths(FieldDefinition, fieldOf("integer", { validation: { min: 1, max: 5, step: 2 } }))).toEqual([]);
    });

    it("refuses min_date and max_date when the type is not a date type", () => {
      expect(issuePaths(FieldDefinition, fieldOf("text", { validation: { min_date: "2024-01-01" } }))).toEqual(["validation"]);
      expect(issuePaths(FieldDefinition, fieldOf("datetime", { validation: { max_date: "2024-01-01T00:00:00Z" } }))).toEqual([]);
    });

    it("refuses item counts when the field is not multiple", () => {
      expect(issuePaths(FieldDefinition, fieldOf("select", { validation: { min_items: 1 } }))).toEqual(["validation"]);
      expect(issuePaths(FieldDefinition, fieldOf("media", { multiple: false, validation: { max_items: 3 } }))).toEqual(["validation"]);
      expect(issuePaths(FieldDefinition, fieldOf("media", { multiple: true, validation: { max_items: 3 } }))).toEqual([]);
    });

    it("leaves a min above its max and datetime order to the apply checks (invalid_field_validation)", () => {
      expect(issuePaths(FieldDefinition, fieldOf("text", { validation: { min_length: 5, max_length: 4 } }))).toEqual([]);
      expect(issuePaths(FieldDefinition, fieldOf("date", { validation: { min_date: "2024-02-01", max_date: "2024-01-31" } }))).toEqual([]);
    });

    it("refuses a date bound when it is not in the type's format", () => {
      expect(issuePaths(FieldDefinition, fieldOf("date", { validation: { min_date: "2024-02-30" } }))).toEqual(["validation.min_date"]);
      expect(issuePaths(FieldDefinition, fieldOf("date", { validation: { max_date: "2024-01-01T00:00:00Z" } }))).toEqual([
        "validation.max_date",
      ]);
      expect(issuePaths(FieldDefinition, fieldOf("datetime", { validation: { min_date: "2024-01-01" } }))).toEqual(["validation.min_date"]);
    });

    it("refuses a pattern when it is too long (whether it compiles is an apply check)", () => {
      expect(issuePaths(FieldDefinition, fieldOf("text", { validation: { pattern: "a".repeat(501) } }))).toEqual(["validation.pattern"]);
    });

    it("refuses a setting when its value is out of its own range", () => {
      expect(issuePaths(FieldDefinition, fieldOf("text", { validation: { min_length: -1 } }))).toEqual(["validation.min_length"]);
      expect(issuePaths(FieldDefinition, fieldOf("text", { validation: { max_length: 1.5 } }))).toEqual(["validation.max_length"]);
      expect(issuePaths(FieldDefinition, fieldOf("decimal", { validation: { step: 0 } }))).toEqual(["validation.step"]);
      expect(issuePaths(FieldDefinition, fieldOf("decimal", { validation: { step: -1 } }))).toEqual(["validation.step"]);
      expect(issuePaths(FieldDefinition, fieldOf("decimal", { validation: { min: Number.POSITIVE_INFINITY } }))).toEqual(["validation.min"]);
      expect(issuePaths(FieldDefinition, fieldOf("decimal", { validation: { min: "1" } }))).toEqual(["validation.min"]);
    });

    it("refuses validation when it holds an unknown setting", () => {
      expect(issuePaths(FieldDefinition, fieldOf("text", { validation: { maxLength: 3 } }))).toEqual(["validation.maxLength"]);
    });
  });

  it("reports independent problems together when a definition has several", () => {
    const paths = issuePaths(FieldDefinition, fieldOf("text", { label: "", options: [{ value: "a", label: "A" }], multiple: true }));
    expect(paths.sort()).toEqual(["label", "multiple", "options"]);
  });

  it("exposes a title for OpenAPI when asked", () => {
    expect(v.getTitle(FieldDefinition)).toBe("FieldDefinition");
    expect(v.getTitle(FieldType)).toBe("FieldType");
    expect(v.getTitle(ModelFields)).toBe("ModelFields");
    expect(v.getTitle(FieldValidation)).toBe("FieldValidation");
  });
});

describe("ModelFields", () => {
  const title = { id: "fld_1", key: "title", label: "Title", type: "text", title: true };
  const body = { id: "fld_2", key: "body", label: "Body", type: "rich_text" };

  it("accepts fields when keys and ids are unique", () => {
    expect(issuePaths(ModelFields, [title, body])).toEqual([]);
    expect(issuePaths(ModelFields, [])).toEqual([]);
  });

  it("refuses fields when two share a key", () => {
    expect(issuePaths(ModelFields, [title, body, { ...body, id: "fld_3" }])).toEqual(["2.key"]);
  });

  it("refuses fields when two share an id", () => {
    expect(issuePaths(ModelFields, [title, body, { ...body, key: "other" }])).toEqual(["2.id"]);
  });

  it("refuses fields when more than one is the title", () => {
    expect(issuePaths(ModelFields, [title, { ...title, id: "fld_9", key: "name" }])).toEqual(["1.title"]);
  });

  it("refuses fields when there are more than 200", () => {
    const many = Array.from({ length: 201 }, (_, i) => ({ id: `fld_${i}`, key: `f${i}`, label: `F${i}`, type: "text" }));
    expect(issuePaths(ModelFields, many)).toEqual([""]);
    expect(issuePaths(ModelFields, many.slice(0, 200))).toEqual([]);
  });

  it("reports the item's own problem when a field is invalid", () => {
    expect(issuePaths(ModelFields, [title, { ...body, type: "select" }])).toEqual(["1.options"]);
  });

  it("refuses fields when not given an array", () => {
    expect(issuePaths(ModelFields, { title })).toEqual([""]);
  });
});

describe("date helpers", () => {
  it("accepts a calendar date when it exists", () => {
    for (const date of ["2024-02-29", "2000-02-29", "1999-12-31", "0001-01-01"]) expect(isCalendarDate(date)).toBe(true);
  });

  it("refuses a calendar date when it does not exist or is malformed", () => {
    for (const date of ["2023-02-29", "1900-02-29", "2024-04-31", "2024-13-01", "2024-00-10", "2024-1-01", "24-01-01", "2024-01-01T00:00:00Z"]) {
      expect(isCalendarDate(date)).toBe(false);
    }
  });

  it("reads a date-time as an instant when it has Z or an offset", () => {
    expect(dateTimeMillis("2024-01-01T00:00:00Z")).toBe(Date.UTC(2024, 0, 1));
    expect(dateTimeMillis("2024-01-01T02:30:00+02:30")).toBe(Date.UTC(2024, 0, 1));
    expect(dateTimeMillis("2023-12-31T23:00-01:00")).toBe(Date.UTC(2024, 0, 1));
    expect(dateTimeMillis("2024-01-01T00:00:00.123456Z")).toBe(Date.UTC(2024, 0, 1, 0, 0, 0, 123));
    expect(dateTimeMillis("0050-06-01T00:00:00Z")).toBe(Date.parse("0050-06-01T00:00:00Z"));
  });

  it("refuses a date-time when it lacks a zone, is malformed or names no real time", () => {
    for (const text of [
      "2024-01-01T00:00:00",
      "2024-01-01",
      "2024-01-01 00:00:00Z",
      "2024-02-30T00:00:00Z",
      "2024-01-01T24:00:00Z",
      "2024-01-01T00:60:00Z",
      "2024-01-01T00:00:60Z",
      "2024-01-01T00:00:00+24:00",
      "2024-01-01T00:00:00+0200",
      "2024-01-01t00:00:00z",
    ]) {
      expect(dateTimeMillis(text)).toBeUndefined();
    }
  });
});

describe("FieldDefinition unique", () => {
  it("accepts a model or language scope and refuses any other value", () => {
    expect(accepts(FieldDefinition, fieldOf("text", { unique: "model" }))).toBe(true);
    expect(accepts(FieldDefinition, fieldOf("integer", { unique: "language" }))).toBe(true);
    expect(issuePaths(FieldDefinition, fieldOf("text", { unique: "site" }))).toEqual(["unique"]);
    expect(issuePaths(FieldDefinition, fieldOf("text", { unique: true }))).toEqual(["unique"]);
  });

  it("leaves the type check to the model apply (422 unique_unsupported, not a schema issue)", () => {
    expect(accepts(FieldDefinition, fieldOf("boolean", { unique: "model" }))).toBe(true);
    expect(UNIQUE_TYPES).toEqual(["text", "slug", "integer", "decimal"]);
  });
});
