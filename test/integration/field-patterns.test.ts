import { describe, expect, it } from "vitest";
import type { EntryView } from "../../shared/services/lifecycle";
import { seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";

type Err = { error: { code: string; issues?: { path: string; code?: string; message: string }[] } };
interface WriteBody { model_id: string; revision: number }

/** Creates a model through the management API with one text field `code` holding `validation`. */
async function codeModel(token: string, validation: Record<string, unknown>, slug = "code") {
  return manage<WriteBody & Err>(token, "POST", "/models", {
    body: { definition: { model: { name: slug, slug }, fields: [{ key: "code", label: "Code", type: "text", validation }] } },
  });
}

async function site(): Promise<{ s: SeededSite; token: string }> {
  const s = await seedSite();
  return { s, token: await credential(s) };
}

describe("field validation.pattern (spec 3: field value validation, invalid_field_validation)", () => {
  it("refuses at model create a pattern a linear-time engine cannot run, with 422 invalid_field_validation naming the setting", async () => {
    const { token } = await site();
    // Valid JavaScript but not RE2: lookbehind, lookahead, backreference; then plain syntax errors.
    for (const pattern of ["(?<=a)b", "a(?=b)", "(a)\\1", "(", "[z-a]", "a{2000}"]) {
      const refused = await codeModel(token, { pattern });
      expect(refused.status, pattern).toBe(422);
      expect(refused.body.error.code, pattern).toBe("invalid_field_validation");
      expect(refused.body.error.issues?.map((i) => i.path), pattern).toEqual(["fields[0].validation.pattern"]);
    }
    expect((await manage<{ data: unknown[] }>(token, "GET", "/models")).body.data).toEqual([]);
  });

  it("refuses at model create and definition replace a minimum above its maximum, with 422 invalid_field_validation", async () => {
    const { token } = await site();
    const refused = await codeModel(token, { min_length: 5, max_length: 4 });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe("invalid_field_validation");
    expect(refused.body.error.issues?.map((i) => i.path)).toEqual(["fields[0].validation.max_length"]);

    const created = await codeModel(token, { max_length: 10 });
    expect(created.status).toBe(201);
    const field = { key: "code", label: "Code", type: "text" };
    const replaced = await manage<Err>(token, "PUT", `/models/${created.body.model_id}/definition`, {
      body: { expected_revision: created.body.revision, definition: { model: { name: "code", slug: "code" }, fields: [{ ...field, validation: { pattern: "(?<!x)y" } }] } },
    });
    expect(replaced.status).toBe(422);
    expect(replaced.body.error.code).toBe("invalid_field_validation");
  });

  it("refuses a model proposal whose field validation cannot be used, with 422 invalid_field_validation", async () => {
    const { token } = await site();
    for (const validation of [{ pattern: "(a)\\1" }, { min: 3, max: 1 }]) {
      const title = { key: "code", label: "Code", type: validation.pattern ? "text" : "integer", validation: JSON.stringify(validation) };
      const refused = await manage<Err>(token, "POST", "/models/proposals", { body: { mode: "create", definition: { model: { name: "Memo", slug: "memo" }, fields: [title] } } });
      expect(refused.status, JSON.stringify(validation)).toBe(422);
      expect(refused.body.error.code).toBe("invalid_field_validation");
    }
  });

  it("answers a save against a catastrophic-backtracking pattern at once (linear-time matching)", async () => {
    const { token } = await site();
    const created = await codeModel(token, { pattern: "^(a+)+$" });
    expect(created.status).toBe(201);
    // 2^27 steps for a backtracking engine: seconds with the site's object stalled (2^32: over a minute).
    const started = Date.now();
    const refused = await manage<Err>(token, "POST", "/entries", { body: { model_id: created.body.model_id, fields: { code: `${"a".repeat(27)}!` } } });
    const elapsed = Date.now() - started;
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe("field_validation_failed");
    expect(refused.body.error.issues?.map((i) => [i.path, i.code])).toEqual([["code", "pattern_mismatch"]]);
    expect(elapsed).toBeLessThan(1_500);
    const accepted = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: created.body.model_id, fields: { code: "a".repeat(5000) } } });
    expect(accepted.status).toBe(201);
  });

  it("never tests the pattern on a value its length rule already refused", async () => {
    const { token } = await site();
    const created = await codeModel(token, { min_length: 3, max_length: 8, pattern: "^[a-z]+$" });
    expect(created.status).toBe(201);
    const model_id = created.body.model_id;
    const tooLong = await manage<Err>(token, "POST", "/entries", { body: { model_id, fields: { code: "AAAAAAAAAAAAAAAA!" } } });
    expect(tooLong.body.error.issues?.map((i) => [i.path, i.code])).toEqual([["code", "too_long"]]);
    const tooShort = await manage<Err>(token, "POST", "/entries", { body: { model_id, fields: { code: "A!" } } });
    expect(tooShort.body.error.issues?.map((i) => [i.path, i.code])).toEqual([["code", "too_short"]]);
    const mismatch = await manage<Err>(token, "POST", "/entries", { body: { model_id, fields: { code: "ABCD" } } });
    expect(mismatch.body.error.issues?.map((i) => [i.path, i.code])).toEqual([["code", "pattern_mismatch"]]);
    expect((await manage(token, "POST", "/entries", { body: { model_id, fields: { code: "abcd" } } })).status).toBe(201);
  });
});
