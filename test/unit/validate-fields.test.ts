import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { FieldDefinition } from "../../schema/model-definition";
import {
  RICH_TEXT_MAX_BYTES,
  mediaIds,
  relationTargets,
  titleField,
  toKeyedValues,
  toStoredValues,
  validateFieldValues,
  type ValidationMode,
} from "../../shared/content/validate-fields";

/** A field definition, parsed by the real schema so every test definition is itself valid. */
function def(type: string, extra: Record<string, unknown> = {}): FieldDefinition {
  const needs: Record<string, unknown> =
    type === "select"
      ? { options: [{ value: "red", label: "Red" }, { value: "green", label: "Green" }, { value: "blue", label: "Blue" }] }
      : type === "relation"
        ? { targets: ["mdl_authors"] }
        : {};
  return v.parse(FieldDefinition, { id: `fld_${type}`, key: "f", label: "F", type, ...needs, ...extra });
}

/** [path, code] of each issue for a single field keyed `f` holding `value`. */
function check(field: FieldDefinition, value: unknown, mode: ValidationMode = "publish"): [string, string][] {
  return validateFieldValues([field], { [field.key]: value }, mode).map((issue) => [issue.path, issue.code]);
}

const ok: [string, string][] = [];

describe("validateFieldValues", () => {
  describe("required and empty values", () => {
    const required = def("text", { required: true });

    it("refuses a missing, null or empty required value when publishing or strict", () => {
      for (const mode of ["publish", "strict"] as const) {
        expect(validateFieldValues([required], {}, mode).map((i) => [i.path, i.code])).toEqual([["f", "required"]]);
        expect(check(required, null, mode)).toEqual([["f", "required"]]);
        expect(check(required, "", mode)).toEqual([["f", "required"]]);
        expect(check(required, undefined, mode)).toEqual([["f", "required"]]);
      }
    });

    it("accepts a missing or empty required value when the mode is draft", () => {
      expect(validateFieldValues([required], {}, "draft")).toEqual([]);
      expect(check(required, null, "draft")).toEqual(ok);
      expect(check(required, "", "draft")).toEqual(ok);
    });

    it("still checks a given value when the mode is draft", () => {
      expect(check(required, 5, "draft")).toEqual([["f", "wrong_type"]]);
      expect(check(def("text", { validation: { max_length: 2 } }), "abc", "draft")).toEqual([["f", "too_long"]]);
    });

    it("refuses an empty list for a required multiple field when publishing", () => {
      const tags = def("select", { multiple: true, required: true });
      expect(check(tags, [])).toEqual([["f", "required"]]);
      expect(check(tags, [], "draft")).toEqual(ok);
    });

    it("accepts empty values when the field is optional", () => {
      for (const type of ["text", "integer", "boolean", "date", "select", "media", "relation", "location"]) {
        expect(check(def(type), null)).toEqual(ok);
        expect(validateFieldValues([def(type)], {}, "strict")).toEqual([]);
      }
      expect(check(def("slug"), "")).toEqual(ok);
      expect(check(def("media", { multiple: true }), [])).toEqual(ok);
    });

    it("does not apply bounds when an optional value is empty", () => {
      expect(check(def("text", { validation: { min_length: 3 } }), "")).toEqual(ok);
      expect(check(def("select", { multiple: true, validation: { min_items: 2 } }), [])).toEqual(ok);
    });

    it("refuses an empty string or list when it is not the field's empty value", () => {
      expect(check(def("integer"), "")).toEqual([["f", "wrong_type"]]);
      expect(check(def("boolean"), "")).toEqual([["f", "wrong_type"]]);
      expect(check(def("text"), [])).toEqual([["f", "wrong_type"]]);
      expect(check(def("select", { multiple: true }), "")).toEqual([["f", "wrong_type"]]);
    });

    it("accepts false and 0 as values when the field is required", () => {
      expect(check(def("boolean", { required: true }), false)).toEqual(ok);
      expect(check(def("integer", { required: true }), 0)).toEqual(ok);
    });
  });

  describe("unknown fields", () => {
    it("refuses a key when the model has no such field, in every mode", () => {
      for (const mode of ["draft", "publish", "strict"] as const) {
        const issues = validateFieldValues([def("text")], { f: "x", colour: "red" }, mode);
        expect(issues.map((i) => [i.path, i.code])).toEqual([["colour", "unknown_field"]]);
      }
    });

    it("refuses a field id when values are keyed by id by mistake", () => {
      const issues = validateFieldValues([def("text")], { fld_text: "x" }, "draft");
      expect(issues.map((i) => [i.path, i.code])).toEqual([["fld_text", "unknown_field"]]);
    });

    it("ignores inherited properties when a key names one", () => {
      // Model applies refuse such keys (422 invalid_field_key); a definition stored before that rule still reads safely.
      const field: FieldDefinition = { id: "fld_c", key: "constructor", label: "C", type: "text", required: true };
      expect(validateFieldValues([field], {}, "publish").map((i) => i.code)).toEqual(["required"]);
      expect(validateFieldValues([field], {}, "draft")).toEqual([]);
    });
  });

  describe("text types", () => {
    it("accepts a string when the field is text, long_text or rich_text", () => {
      for (const type of ["text", "long_text", "rich_text"]) expect(check(def(type), "Hello\nworld")).toEqual(ok);
    });

    it("refuses a value when it is not a string", () => {
      for (const type of ["text", "long_text", "rich_text", "slug"]) {
        for (const value of [1, true, ["a"], { a: 1 }]) expect(check(def(type), value)).toEqual([["f", "wrong_type"]]);
      }
    });

    it("refuses a value when it is shorter than min_length or longer than max_length", () => {
      const field = def("long_text", { validation: { min_length: 2, max_length: 4 } });
      expect(check(field, "a")).toEqual([["f", "too_short"]]);
      expect(check(field, "abcde")).toEqual([["f", "too_long"]]);
      expect(check(field, "ab")).toEqual(ok);
      expect(check(field, "abcd")).toEqual(ok);
    });

    it("counts characters, not UTF-16 units, when measuring length", () => {
      const field = def("text", { validation: { max_length: 2 } });
      expect(check(field, "😀😀")).toEqual(ok);
      expect(check(field, "😀😀😀")).toEqual([["f", "too_long"]]);
    });

    it("refuses a value when it does not match the pattern", () => {
      const field = def("text", { validation: { pattern: "^[A-Z]{3}$" } });
      expect(check(field, "ABC")).toEqual(ok);
      expect(check(field, "abc")).toEqual([["f", "pattern_mismatch"]]);
    });

    it("refuses rich_text when it is larger than the byte cap", () => {
      const field = def("rich_text");
      expect(check(field, "a".repeat(RICH_TEXT_MAX_BYTES))).toEqual(ok);
      expect(check(field, "a".repeat(RICH_TEXT_MAX_BYTES + 1))).toEqual([["f", "too_long"]]);
      // 3 bytes each in UTF-8, so fewer characters than the cap still exceed it.
      expect(check(field, "€".repeat(RICH_TEXT_MAX_BYTES / 2))).toEqual([["f", "too_long"]]);
    });

    it("applies max_length to rich_text when it is set", () => {
      expect(check(def("rich_text", { validation: { max_length: 5 } }), "<p>hi</p>")).toEqual([["f", "too_long"]]);
    });
  });

  describe("slug", () => {
    it("accepts a slug when it is lowercase words joined by single hyphens", () => {
      for (const slug of ["a", "hello-world", "2024-recap", "x".repeat(200)]) expect(check(def("slug"), slug)).toEqual(ok);
    });

    it("refuses a slug when its form is wrong", () => {
      for (const slug of ["Hello", "a--b", "-a", "a-", "a_b", "a b", "é"]) {
        expect(check(def("slug"), slug)).toEqual([["f", "invalid_slug"]]);
      }
    });

    it("refuses a slug when it is longer than 200 characters", () => {
      expect(check(def("slug"), "x".repeat(201))).toEqual([["f", "too_long"]]);
    });

    it("applies length and pattern settings when a slug has them", () => {
      const field = def("slug", { validation: { min_length: 3, max_length: 5, pattern: "^[a-z]" } });
      expect(check(field, "ab")).toEqual([["f", "too_short"]]);
      expect(check(field, "abcdef")).toEqual([["f", "too_long"]]);
      expect(check(field, "1abc")).toEqual([["f", "pattern_mismatch"]]);
    });
  });

  describe("integer", () => {
    it("accepts a whole number when it is safe", () => {
      for (const value of [0, -3, 42, Number.MAX_SAFE_INTEGER]) expect(check(def("integer"), value)).toEqual(ok);
    });

    it("refuses a value when it is not a whole number", () => {
      for (const value of [1.5, "1", true, Number.NaN, Number.POSITIVE_INFINITY, [1]]) {
        expect(check(def("integer"), value)).toEqual([["f", "wrong_type"]]);
      }
    });

    it("refuses a whole number when it is beyond the safe range", () => {
      expect(check(def("integer"), Number.MAX_SAFE_INTEGER + 1)).toEqual([["f", "out_of_range"]]);
      expect(check(def("integer"), -(2 ** 60))).toEqual([["f", "out_of_range"]]);
    });

    it("refuses a value when it is below min or above max", () => {
      const field = def("integer", { validation: { min: 1, max: 10 } });
      expect(check(field, 0)).toEqual([["f", "below_min"]]);
      expect(check(field, 11)).toEqual([["f", "above_max"]]);
      expect(check(field, 1)).toEqual(ok);
      expect(check(field, 10)).toEqual(ok);
    });

    it("refuses a value when it is off the step counted from min", () => {
      const field = def("integer", { validation: { min: 1, step: 5 } });
      expect(check(field, 6)).toEqual(ok);
      expect(check(field, 5)).toEqual([["f", "step_mismatch"]]);
    });

    it("counts the step from 0 when there is no min", () => {
      const field = def("integer", { validation: { step: 5 } });
      expect(check(field, -10)).toEqual(ok);
      expect(check(field, 12)).toEqual([["f", "step_mismatch"]]);
    });
  });

  describe("decimal", () => {
    it("accepts a finite number when given one", () => {
      for (const value of [0, -1.25, 3.14159, 1e300]) expect(check(def("decimal"), value)).toEqual(ok);
    });

    it("refuses a value when it is not a finite number", () => {
      for (const value of ["1.5", Number.NaN, Number.NEGATIVE_INFINITY, {}]) {
        expect(check(def("decimal"), value)).toEqual([["f", "wrong_type"]]);
      }
    });

    it("tolerates floating-point error when checking the step", () => {
      const field = def("decimal", { validation: { step: 0.1 } });
      expect(check(field, 0.3)).toEqual(ok);
      expect(check(field, 0.1 + 0.2)).toEqual(ok);
      expect(check(field, 0.35)).toEqual([["f", "step_mismatch"]]);
      const offset = def("decimal", { validation: { min: 0.05, step: 0.1 } });
      expect(check(offset, 1.05)).toEqual(ok);
      expect(check(offset, 1.1)).toEqual([["f", "step_mismatch"]]);
    });

    it("refuses a value when it is outside min and max", () => {
      const field = def("decimal", { validation: { min: -0.5, max: 0.5 } });
      expect(check(field, -0.51)).toEqual([["f", "below_min"]]);
      expect(check(field, 0.51)).toEqual([["f", "above_max"]]);
    });
  });

  describe("boolean", () => {
    it("accepts true and false when given", () => {
      expect(check(def("boolean"), true)).toEqual(ok);
      expect(check(def("boolean"), false)).toEqual(ok);
    });

    it("refuses a value when it is not a boolean", () => {
      for (const value of ["true", 1, 0, []]) expect(check(def("boolean"), value)).toEqual([["f", "wrong_type"]]);
    });
  });

  describe("date", () => {
    it("accepts a real calendar date when written YYYY-MM-DD", () => {
      for (const value of ["2024-02-29", "1999-12-31"]) expect(check(def("date"), value)).toEqual(ok);
    });

    it("refuses a date when it does not exist or is malformed", () => {
      for (const value of ["2023-02-29", "2024-13-01", "2024-1-1", "01/02/2024", "2024-01-01T00:00:00Z"]) {
        expect(check(def("date"), value)).toEqual([["f", "invalid_date"]]);
      }
    });

    it("refuses a value when it is not a string", () => {
      expect(check(def("date"), 20240101)).toEqual([["f", "wrong_type"]]);
    });

    it("refuses a date when it is before min_date or after max_date", () => {
      const field = def("date", { validation: { min_date: "2024-01-01", max_date: "2024-12-31" } });
      expect(check(field, "2023-12-31")).toEqual([["f", "below_min"]]);
      expect(check(field, "2025-01-01")).toEqual([["f", "above_max"]]);
      expect(check(field, "2024-01-01")).toEqual(ok);
      expect(check(field, "2024-12-31")).toEqual(ok);
    });
  });

  describe("datetime", () => {
    it("accepts an ISO-8601 date-time when it has Z or an offset", () => {
      for (const value of ["2024-05-01T12:00:00Z", "2024-05-01T12:00:00.5+02:00", "2024-05-01T12:00-05:30"]) {
        expect(check(def("datetime"), value)).toEqual(ok);
      }
    });

    it("refuses a date-time when it lacks a zone, is malformed or names no real time", () => {
      for (const value of ["2024-05-01T12:00:00", "2024-05-01", "2024-02-30T00:00:00Z", "2024-05-01T25:00:00Z", "yesterday"]) {
        expect(check(def("datetime"), value)).toEqual([["f", "invalid_date"]]);
      }
    });

    it("refuses a value when it is not a string", () => {
      expect(check(def("datetime"), Date.UTC(2024, 0, 1))).toEqual([["f", "wrong_type"]]);
    });

    it("compares instants, not text, when checking bounds", () => {
      const field = def("datetime", { validation: { min_date: "2024-01-01T00:00:00Z", max_date: "2024-01-31T23:59:59Z" } });
      // 01:00+02:00 on Jan 1 is 23:00Z on Dec 31: before the minimum although its text sorts after.
      expect(check(field, "2024-01-01T01:00:00+02:00")).toEqual([["f", "below_min"]]);
      expect(check(field, "2024-01-31T23:00:00-02:00")).toEqual([["f", "above_max"]]);
      expect(check(field, "2024-01-01T03:00:00+02:00")).toEqual(ok);
    });
  });

  describe("select", () => {
    it("accepts one option value when the field holds one", () => {
      expect(check(def("select"), "green")).toEqual(ok);
    });

    it("refuses a value when it is not an option", () => {
      expect(check(def("select"), "purple")).toEqual([["f", "not_an_option"]]);
      expect(check(def("select"), "Red")).toEqual([["f", "not_an_option"]]);
    });

    it("refuses a value when it is not a string or is a list for a single select", () => {
      expect(check(def("select"), 1)).toEqual([["f", "wrong_type"]]);
      expect(check(def("select"), ["red"])).toEqual([["f", "wrong_type"]]);
    });

    it("accepts a list of option values when the field is multiple", () => {
      expect(check(def("select", { multiple: true }), ["red", "blue"])).toEqual(ok);
    });

    it("refuses a lone value when the field is multiple", () => {
      expect(check(def("select", { multiple: true }), "red")).toEqual([["f", "wrong_type"]]);
    });

    it("reports each bad item at its index when a list has several", () => {
      const field = def("select", { multiple: true });
      expect(check(field, ["red", "purple", 3, "red"])).toEqual([
        ["f[1]", "not_an_option"],
        ["f[2]", "wrong_type"],
        ["f[3]", "duplicate_item"],
      ]);
    });

    it("refuses a list when it has too few or too many items", () => {
      const field = def("select", { multiple: true, validation: { min_items: 2, max_items: 2 } });
      expect(check(field, ["red"])).toEqual([["f", "too_few_items"]]);
      expect(check(field, ["red", "green", "blue"])).toEqual([["f", "too_many_items"]]);
      expect(check(field, ["red", "green"])).toEqual(ok);
    });

    it("uses the field key in paths when the key is longer", () => {
      const field = v.parse(FieldDefinition, {
        ...def("select", { multiple: true }),
        key: "categories",
      });
      const issues = validateFieldValues([field], { categories: ["red", "green", "pink"] }, "draft");
      expect(issues.map((i) => [i.path, i.code])).toEqual([["categories[2]", "not_an_option"]]);
    });
  });

  describe("media", () => {
    it("accepts a media id when the field holds one", () => {
      expect(check(def("media"), "med_abc")).toEqual(ok);
      expect(check(def("media"), "m".repeat(64))).toEqual(ok);
    });

    it("refuses a media id when it is too long or not a string", () => {
      expect(check(def("media"), "m".repeat(65))).toEqual([["f", "too_long"]]);
      expect(check(def("media"), 7)).toEqual([["f", "wrong_type"]]);
      expect(check(def("media"), { id: "med_a" })).toEqual([["f", "wrong_type"]]);
      expect(check(def("media"), ["med_a"])).toEqual([["f", "wrong_type"]]);
    });

    it("accepts a list of media ids when the field is multiple", () => {
      expect(check(def("media", { multiple: true }), ["med_a", "med_b"])).toEqual(ok);
    });

    it("refuses bad items at their index when the field is multiple", () => {
      expect(check(def("media", { multiple: true }), ["med_a", "", 4, "m".repeat(65)])).toEqual([
        ["f[1]", "too_short"],
        ["f[2]", "wrong_type"],
        ["f[3]", "too_long"],
      ]);
      expect(check(def("media", { multiple: true }), "med_a")).toEqual([["f", "wrong_type"]]);
    });

    it("refuses a gallery when it has too few or too many items", () => {
      const field = def("media", { multiple: true, validation: { min_items: 2, max_items: 3 } });
      expect(check(field, ["med_a"])).toEqual([["f", "too_few_items"]]);
      expect(check(field, ["med_a", "med_b", "med_c", "med_d"])).toEqual([["f", "too_many_items"]]);
    });
  });

  describe("relation", () => {
    it("accepts an entry id when the field holds one", () => {
      expect(check(def("relation"), "ent_abc")).toEqual(ok);
    });

    it("refuses an entry id when it is too long, not a string or a list for a single relation", () => {
      expect(check(def("relation"), "e".repeat(65))).toEqual([["f", "too_long"]]);
      expect(check(def("relation"), 1)).toEqual([["f", "wrong_type"]]);
      expect(check(def("relation"), ["ent_a"])).toEqual([["f", "wrong_type"]]);
    });

    it("refuses a repeated target when the field is multiple", () => {
      expect(check(def("relation", { multiple: true }), ["ent_a", "ent_b", "ent_a"])).toEqual([["f[2]", "duplicate_item"]]);
    });

    it("refuses bad items and counts when the field is multiple", () => {
      const field = def("relation", { multiple: true, validation: { max_items: 1 } });
      expect(check(field, ["ent_a", ""])).toEqual([
        ["f[1]", "too_short"],
        ["f", "too_many_items"],
      ]);
      expect(check(field, ["ent_a"])).toEqual(ok);
    });
  });

  describe("location", () => {
    it("accepts lat and lon when both are in range", () => {
      for (const value of [{ lat: 0, lon: 0 }, { lat: -90, lon: 180 }, { lat: 90, lon: -180 }, { lat: 51.5, lon: -0.12 }]) {
        expect(check(def("location"), value)).toEqual(ok);
      }
    });

    it("refuses a coordinate when it is out of range", () => {
      expect(check(def("location"), { lat: 90.1, lon: 0 })).toEqual([["f.lat", "out_of_range"]]);
      expect(check(def("location"), { lat: 0, lon: -180.5 })).toEqual([["f.lon", "out_of_range"]]);
    });

    it("refuses a coordinate when it is missing or not a number", () => {
      expect(check(def("location"), { lat: 1 })).toEqual([["f.lon", "wrong_type"]]);
      expect(check(def("location"), { lat: "1", lon: Number.NaN })).toEqual([
        ["f.lat", "wrong_type"],
        ["f.lon", "wrong_type"],
      ]);
    });

    it("refuses other keys when the location holds them", () => {
      expect(check(def("location"), { lat: 1, lon: 2, alt: 3 })).toEqual([["f.alt", "unknown_field"]]);
    });

    it("refuses a value when it is not an object", () => {
      for (const value of ["1,2", [1, 2], 3, true]) expect(check(def("location"), value)).toEqual([["f", "wrong_type"]]);
    });
  });

  it("reports issues in field order, then unknown keys, when several fields fail", () => {
    const fields = [
      v.parse(FieldDefinition, { id: "fld_1", key: "title", label: "Title", type: "text", required: true }),
      v.parse(FieldDefinition, { id: "fld_2", key: "count", label: "Count", type: "integer" }),
      v.parse(FieldDefinition, { id: "fld_3", key: "ok", label: "OK", type: "boolean" }),
    ];
    const issues = validateFieldValues(fields, { extra: 1, count: 1.5, ok: true }, "publish");
    expect(issues.map((i) => [i.path, i.code])).toEqual([
      ["title", "required"],
      ["count", "wrong_type"],
      ["extra", "unknown_field"],
    ]);
    for (const issue of issues) expect(issue.message.length).toBeGreaterThan(0);
  });
});

describe("toStoredValues and toKeyedValues", () => {
  const fields = [
    v.parse(FieldDefinition, { id: "fld_1", key: "title", label: "Title", type: "text" }),
    v.parse(FieldDefinition, { id: "fld_2", key: "tags", label: "Tags", type: "media", multiple: true }),
    v.parse(FieldDefinition, { id: "fld_3", key: "where", label: "Where", type: "location" }),
  ];

  it("re-keys by id and drops unknown keys when storing", () => {
    expect(toStoredValues(fields, { title: "Hi", tags: ["med_a"], where: null, stray: 1 })).toEqual({
      fld_1: "Hi",
      fld_2: ["med_a"],
      fld_3: null,
    });
  });

  it("re-keys by key and drops ids of removed fields when reading", () => {
    expect(toKeyedValues(fields, { fld_1: "Hi", fld_3: { lat: 1, lon: 2 }, fld_gone: "old" })).toEqual({
      title: "Hi",
      where: { lat: 1, lon: 2 },
    });
  });

  it("round-trips values when converted both ways", () => {
    const values = { title: "Hi", tags: ["med_a", "med_b"], where: { lat: 1, lon: 2 } };
    expect(toKeyedValues(fields, toStoredValues(fields, values))).toEqual(values);
  });

  it("leaves missing values out when a field has none", () => {
    expect(toStoredValues(fields, { title: undefined })).toEqual({});
    expect(toKeyedValues(fields, {})).toEqual({});
  });

  it("keeps an id such as __proto__ as data when the definition uses it", () => {
    const odd = [v.parse(FieldDefinition, { id: "__proto__", key: "title", label: "Title", type: "text" })];
    const stored = toStoredValues(odd, { title: "Hi" });
    expect(Object.keys(stored)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    expect(toKeyedValues(odd, stored)).toEqual({ title: "Hi" });
  });

  it("ignores inherited properties when looking up values", () => {
    // Model applies refuse such keys (422 invalid_field_key); a definition stored before that rule still reads safely.
    const field: FieldDefinition[] = [{ id: "toString", key: "constructor", label: "C", type: "text" }];
    expect(toStoredValues(field, {})).toEqual({});
    expect(toKeyedValues(field, {})).toEqual({});
  });
});

describe("relationTargets and mediaIds", () => {
  const one = v.parse(FieldDefinition, { id: "fld_r", key: "author", label: "Author", type: "relation", targets: ["mdl_a"] });
  const many = v.parse(FieldDefinition, { id: "fld_m", key: "gallery", label: "Gallery", type: "media", multiple: true });

  it("wraps a single id when the value is one", () => {
    expect(relationTargets(one, "ent_a")).toEqual(["ent_a"]);
    expect(mediaIds(many, "med_a")).toEqual(["med_a"]);
  });

  it("keeps the order when the value is a list", () => {
    expect(relationTargets(one, ["ent_b", "ent_a"])).toEqual(["ent_b", "ent_a"]);
    expect(mediaIds(many, ["med_b", "med_a"])).toEqual(["med_b", "med_a"]);
  });

  it("gives an empty list when the value is empty", () => {
    for (const value of [null, undefined, "", []]) {
      expect(relationTargets(one, value)).toEqual([]);
      expect(mediaIds(many, value)).toEqual([]);
    }
  });

  it("gives an empty list when the field is of another type", () => {
    expect(relationTargets(many, "med_a")).toEqual([]);
    expect(mediaIds(one, "ent_a")).toEqual([]);
  });
});

describe("titleField", () => {
  const text = (id: string, key: string, extra: Record<string, unknown> = {}) =>
    v.parse(FieldDefinition, { id, key, label: key, type: "text", ...extra });
  const number = v.parse(FieldDefinition, { id: "fld_n", key: "title", label: "N", type: "integer" });

  it("picks the field marked title when there is one", () => {
    const marked = text("fld_3", "headline", { title: true });
    expect(titleField([text("fld_1", "title"), marked])).toBe(marked);
  });

  it("picks a text field keyed title or name when none is marked", () => {
    const name = text("fld_2", "name");
    expect(titleField([text("fld_1", "intro"), name, text("fld_3", "title")])).toBe(name);
  });

  it("ignores a non-text field keyed title when looking for a fallback", () => {
    const intro = text("fld_1", "intro");
    expect(titleField([number, intro])).toBe(intro);
  });

  it("picks the first text field when no key matches", () => {
    const first = text("fld_1", "intro");
    expect(titleField([number, first, text("fld_2", "outro")])).toBe(first);
  });

  it("gives undefined when there is no text field", () => {
    expect(titleField([number])).toBeUndefined();
    expect(titleField([])).toBeUndefined();
  });
});
