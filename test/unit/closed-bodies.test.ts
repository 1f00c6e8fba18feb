import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { AppError } from "../../shared/errors";
import { parse } from "../../shared/services/validation/parse";

function refusedAt(schema: v.GenericSchema, input: unknown): string | undefined {
  try {
    parse(schema, input);
    return undefined;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return (error.details?.issues as { path: string }[] | undefined)?.[0]?.path;
  }
}

describe("parse refuses an array where the schema wants an object (valibot's object schemas accept arrays)", () => {
  const closed = v.strictObject({ expected_revision: v.optional(v.number()) });
  const settings = v.strictObject({ media: v.optional(v.strictObject({ public_library: v.optional(v.boolean()) })), tags: v.optional(v.array(v.strictObject({ a: v.optional(v.string()) }))) });

  it("at the top, nested, inside arrays, records, optional and nullable wrappers", () => {
    expect(v.safeParse(closed, []).success).toBe(true); // the behaviour parse guards against
    expect(refusedAt(closed, [])).toBe("(body)");
    expect(refusedAt(settings, { media: [] })).toBe("media");
    expect(refusedAt(settings, { tags: [{}, []] })).toBe("tags[1]");
    expect(refusedAt(v.record(v.string(), v.nullable(v.looseObject({}))), { x: null, y: [] })).toBe("y");
    expect(refusedAt(v.record(v.string(), v.string()), [])).toBe("(body)");
  });

  it("refuses the keys valibot would drop silently (__proto__, constructor, prototype) in objects and records", () => {
    const fields = v.strictObject({ fields: v.record(v.string(), v.unknown()) });
    expect(refusedAt(fields, JSON.parse('{"fields":{"title":"x","__proto__":{"a":1}}}'))).toBe("fields.__proto__");
    expect(refusedAt(fields, { fields: { constructor: 1 } })).toBe("fields.constructor");
    expect(refusedAt(v.object({ a: v.optional(v.string()) }), { prototype: 1 })).toBe("prototype");
  });

  it("accepts objects, arrays where arrays are wanted, unknown values and unions that allow arrays", () => {
    expect(refusedAt(closed, {})).toBeUndefined();
    expect(refusedAt(closed, { expected_revision: 2 })).toBeUndefined();
    expect(refusedAt(settings, { media: { public_library: true }, tags: [{ a: "x" }] })).toBeUndefined();
    expect(refusedAt(v.strictObject({ fields: v.record(v.string(), v.unknown()) }), { fields: { list: [1, 2], obj: [] } })).toBeUndefined();
    expect(refusedAt(v.union([v.array(v.string()), v.strictObject({ set: v.array(v.string()) })]), ["a"])).toBeUndefined();
    expect(refusedAt(v.union([v.array(v.string()), v.strictObject({ set: v.optional(v.array(v.string())) })]), [])).toBeUndefined();
  });
});
