/**
 * The dry run of a definition replace (POST /models/{id}/definition/plan, docs/admin-ui-models.md):
 * the model builder shows what an apply would meet before anything is written.
 */
import { describe, expect, it } from "vitest";
import type { EntryView } from "../../shared/services/lifecycle";
import { blogModels, seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { modelRow, type Err, type ModelBody } from "../helpers/model-answers";

interface Plan {
  model_id: string;
  revision: number;
  changes: { kind: string; field: string | null; affected_count: number; message: string; suggestion: string }[];
  fields: { added: string[]; removed: string[]; changed: string[]; renamed: { from: string; to: string }[] };
  can_apply: boolean;
}

describe("management API: planning a model change", () => {
  it("lists blocked changes with counts and suggestions, summarises field changes, and writes nothing", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const token = await credential(s);
    const created = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: article.id, fields: { title: "Planned", summary: "Has summary" } } });
    expect(created.status).toBe(201);
    const model = (await manage<ModelBody>(token, "GET", `/models/${article.id}`)).body;
    const row = await modelRow(s, article.id);
    const fields = [
      ...model.definition.fields.filter((f) => f.key !== "summary").map((f) => (f.key === "title" ? { ...f, key: "headline" } : f.key === "body" ? { ...f, help: "The story" } : f)),
      { key: "rating", label: "Rating", type: "integer" },
    ];
    const body = { expected_revision: model.revision, definition: { model: model.definition.model, fields } };
    const plan = await manage<Plan>(token, "POST", `/models/${article.id}/definition/plan`, { body });
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    expect(plan.body).toMatchObject({ model_id: article.id, revision: model.revision, can_apply: false });
    expect(plan.body.changes.map((c) => `${c.kind}:${c.field}:${c.affected_count}`)).toEqual(["field_removed_with_values:summary:1"]);
    expect(plan.body.changes[0]?.suggestion).toMatch(/first/);
    expect(plan.body.fields).toEqual({ added: ["rating"], removed: ["summary"], changed: ["body"], renamed: [{ from: "title", to: "headline" }] });
    expect(await modelRow(s, article.id)).toEqual(row);

    // Keeping the field: nothing blocks, and still nothing is written.
    // A client that leaves out `false` flags changes nothing either.
    const withoutFalse = (f: object) => Object.fromEntries(Object.entries(f).filter(([, v]) => v !== false));
    const keep = [...model.definition.fields.map(withoutFalse), { key: "rating", label: "Rating", type: "integer" }];
    const clear = await manage<Plan>(token, "POST", `/models/${article.id}/definition/plan`, { body: { ...body, definition: { ...body.definition, fields: keep } } });
    expect(clear.body).toMatchObject({ changes: [], can_apply: true, fields: { added: ["rating"], removed: [], changed: [], renamed: [] } });
    expect(await modelRow(s, article.id)).toEqual(row);
  });

  it("refuses as the apply would: stale revision, bad field rules, missing scope or permission", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const token = await credential(s);
    const model = (await manage<ModelBody>(token, "GET", `/models/${article.id}`)).body;
    const path = `/models/${article.id}/definition/plan`;
    const stale = await manage<Err>(token, "POST", path, { body: { expected_revision: model.revision + 5, definition: model.definition } });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: "model_changed", current_revision: model.revision });
    const badRule = await manage<Err>(token, "POST", path, {
      body: { expected_revision: model.revision, definition: { model: model.definition.model, fields: [...model.definition.fields, { key: "code", label: "Code", type: "text", validation: { min_length: 9, max_length: 2 } }] } },
    });
    expect(badRule.status).toBe(422);
    expect(badRule.body.error.code).toBe("invalid_field_validation");
    const readOnly = await credential(s, ["content:read"]);
    expect((await manage<Err>(readOnly, "POST", path, { body: { expected_revision: model.revision, definition: model.definition } })).body.error).toMatchObject({ code: "insufficient_scope", scope: "schema:write" });
    expect((await manage<Err>(token, "POST", "/models/mdl_nope/definition/plan", { body: { expected_revision: 0, definition: model.definition } })).status).toBe(404);
  });
});
