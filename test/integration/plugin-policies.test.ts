import { describe, expect, it } from "vitest";
import { adminCall, signIn } from "../helpers/admin-api";
import { answerWith, freshEndpoint, pluginCalls } from "../helpers/fake-plugin";
import { seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { articleCount, createArticle, setup, type Entry } from "../helpers/policy-plugin";
import { installTestPlugin, testManifest } from "../helpers/plugins";

describe("plugin content policies (spec 2 rule 14)", () => {
  it("asks before a create with the entry, language, fields and caller.via; a refusal writes nothing", async () => {
    const { s, models, plugin, path, token } = await setup([{ id: "forbid", mode: "validate" }]);
    const before = await articleCount(s.site.id);
    const refused = await createArticle(token, models.article.id, "A FORBIDDEN title");
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({
      code: "plugin_policy_refused",
      installation_id: plugin.id,
      plugin_name: "Guard",
      policy_id: "forbid",
      policy_label: "Policy forbid",
      locale: "en",
      message: "Remove the word FORBIDDEN.",
      refusal: { code: "forbidden_word", message: "Remove the word FORBIDDEN." },
      fields: ["title"],
    });
    expect(await articleCount(s.site.id)).toBe(before);
    const [call] = await pluginCalls(`${path}/policies/forbid`);
    const sent = JSON.parse(call?.body ?? "{}") as Record<string, unknown>;
    expect(sent).toMatchObject({
      kind: "policy",
      installation_id: plugin.id,
      policy: "forbid",
      mode: "validate",
      operation: "create",
      caller: { via: "management_credential", person_id: s.adminId },
      entry: { instance_id: null, model_id: models.article.id, model_slug: models.article.slug, lang: "en" },
      locale: "en",
      fields: { title: "A FORBIDDEN title" },
    });
    expect(call?.headers["x-driftwood-signature"]).toMatch(/^v1=[0-9a-f]{64}$/);

    const ok = await createArticle(token, models.article.id, "A fine title");
    expect(ok.status).toBe(201);
    expect(ok.body.policy_results).toBeUndefined();
    // A model not granted to the plugin asks nothing.
    const note = await manage<Entry>(token, "POST", "/entries", { body: { model_id: models.note.id, fields: { title: "FORBIDDEN but a note" } } });
    expect(note.status).toBe(201);
  });

  it("asks every policy-declaring installation of the site and only those, beside plugins that declare none", async () => {
    // The policy read fetches only installations whose manifest declares a content policy
    // (docs/write-fairness.md, "CPU per write"): the others must not hide or reorder those that do.
    const { s, models, plugin, token } = await setup([{ id: "down", mode: "validate", advisory: true }]);
    const quiet = freshEndpoint();
    await installTestPlugin(s, { manifest: testManifest({ id: "quiet", name: "Quiet", endpoint: quiet.endpoint }), modelIds: [models.article.id] });
    await installTestPlugin(s, { manifest: testManifest({ id: "empty", name: "Empty", endpoint: quiet.endpoint, content_policies: [] }), modelIds: [models.article.id] });
    const second = freshEndpoint();
    const other = await installTestPlugin(s, {
      manifest: testManifest({ id: "second", name: "Second", endpoint: second.endpoint, content_policies: [{ id: "forbid", label: "Second forbid", mode: "validate" }] }),
      modelIds: [models.article.id],
    });
    const written = await createArticle(token, models.article.id, "Hello");
    expect(written.status).toBe(201);
    expect(written.body.policy_results).toEqual([expect.objectContaining({ installation_id: plugin.id, policy_id: "down", outcome: "unavailable" })]);
    expect(await pluginCalls(`${second.path}/policies/forbid`)).toHaveLength(1);
    expect(await pluginCalls(quiet.path)).toHaveLength(0);
    const refused = await createArticle(token, models.article.id, "A FORBIDDEN title");
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: "plugin_policy_refused", installation_id: other.id, policy_id: "forbid" });
    expect(await pluginCalls(quiet.path)).toHaveLength(0);
  });

  it("asks before save, publish, unpublish, move, trash, restore and version restore, on every surface", async () => {
    const { s, models, path, token } = await setup([{ id: "audit", mode: "validate" }]);
    const created = await createArticle(token, models.article.id, "Tracked");
    const id = created.body.instance_id;
    const saved = await manage<Entry>(token, "PUT", `/entries/${id}`, { body: { expected_version_id: created.body.current_version_id, fields: { title: "Tracked 2" } } });
    expect(saved.status).toBe(200);
    const moved = await manage<{ workflow: { revision: number } }>(token, "POST", `/entries/${id}/move`, { body: { to: "in_review", expected_workflow_revision: 0 } });
    expect(moved.status).toBe(200);
    expect((await manage(token, "POST", `/entries/${id}/publish`, { body: {} })).status).toBe(200);
    expect((await manage(token, "POST", `/entries/${id}/unpublish`, { body: {} })).status).toBe(200);
    expect((await manage(token, "POST", `/entries/${id}/trash`, { body: {} })).status).toBe(200);
    expect((await manage(token, "POST", `/entries/${id}/restore`, { body: {} })).status).toBe(200);
    const restored = await manage(token, "POST", `/entries/${id}/versions/${created.body.current_version_id}/restore`, { body: {} });
    expect(restored.status).toBe(200);
    // The admin (a person's session) asks the same policies, with caller.via admin.
    const session = await signIn(`${s.site.slug}@example.test`);
    const current = await manage<Entry>(token, "GET", `/entries/${id}`);
    const adminSave = await adminCall(session, "PUT", `/api/v1/entries/${id}`, {
      siteId: s.site.id,
      body: { expected_version_id: current.body.current_version_id, fields: { title: "From the admin" } },
      headers: { "idempotency-key": `admin-save-${id}` },
    });
    expect(adminSave.status).toBe(200);
    const calls = (await pluginCalls(`${path}/policies/audit`)).map((c) => JSON.parse(c.body) as { operation: string; caller: { via: string }; fields: Record<string, unknown> });
    expect(calls.map((c) => c.operation)).toEqual(["create", "save", "move", "publish", "unpublish", "delete", "restore", "restore", "save"]);
    expect(calls.map((c) => c.caller.via)).toEqual([...Array(8).fill("management_credential"), "admin"]);
    // Writes other than a save send the entry's current values; a version restore the restored version's.
    expect(calls[3]?.fields).toMatchObject({ title: "Tracked 2" });
    expect(calls[7]?.fields).toMatchObject({ title: "Tracked" });
  });

  it("asks before a page editor's save (savePage) as before the entry routes: a create, then a save of the page", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const model = await manage<{ model_id: string }>(token, "POST", "/models", { body: { definition: { model: { name: "Page", slug: "page" }, fields: [{ key: "title", label: "Title", type: "text" }] } } });
    const { endpoint, path } = freshEndpoint();
    const policies = [{ id: "forbid", mode: "validate" as const, label: "Policy forbid" }, { id: "trim", mode: "transform" as const, label: "Policy trim" }];
    const plugin = await installTestPlugin(s, { manifest: testManifest({ id: "guard", name: "Guard", endpoint, content_policies: policies }), modelIds: [model.body.model_id] });
    const pages = async () => (await manage<{ data: unknown[] }>(token, "GET", "/pages")).body.data.length;

    const refused = await manage<Entry & { error: { code: string; policy_id?: string } }>(token, "POST", "/pages", { body: { slug: "bad", fields: { title: "A FORBIDDEN page" } } });
    expect([refused.status, refused.body.error.code, refused.body.error.policy_id]).toEqual([422, "plugin_policy_refused", "forbid"]);
    expect(await pages()).toBe(0);
    const [asked] = await pluginCalls(`${path}/policies/forbid`);
    expect(JSON.parse(asked?.body ?? "{}")).toMatchObject({ operation: "create", installation_id: plugin.id, entry: { instance_id: null, model_id: model.body.model_id, model_slug: "page" }, fields: { title: "A FORBIDDEN page" } });

    const created = await manage<Entry>(token, "POST", "/pages", { body: { slug: "about", fields: { title: "  About us " } } });
    expect([created.status, created.body.fields.title, created.body.policy_results?.[0]?.outcome]).toEqual([201, "About us", "transformed"]);
    const saved = await manage<Entry & { error: { code: string } }>(token, "POST", "/pages", { body: { id: created.body.instance_id, fields: { title: "FORBIDDEN now" } } });
    expect([saved.status, saved.body.error.code]).toEqual([422, "plugin_policy_refused"]);
    expect((await manage<Entry>(token, "GET", `/pages/${created.body.instance_id}`)).body.fields.title).toBe("About us");
  });

  it("asks before a page editor's save without fields (a new page by its slug, a page moved by its slug): no save goes unasked", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const model = await manage<{ model_id: string }>(token, "POST", "/models", { body: { definition: { model: { name: "Page", slug: "page" }, fields: [{ key: "title", label: "Title", type: "text" }] } } });
    const existing = await manage<Entry>(token, "POST", "/pages", { body: { slug: "about", fields: { title: "About" } } });
    expect(existing.status).toBe(201);
    const { endpoint, path } = freshEndpoint();
    await installTestPlugin(s, { manifest: testManifest({ id: "guard", name: "Guard", endpoint, content_policies: [{ id: "closed", mode: "validate", label: "Closed" }] }), modelIds: [model.body.model_id] });
    await answerWith(`${path}/policies/closed`, { status: 200, body: { outcome: "refused", code: "site_frozen", message: "The site is frozen." } });
    const pages = async () => (await manage<{ data: unknown[] }>(token, "GET", "/pages")).body.data.length;

    const created = await manage<{ error: { code: string; policy_id?: string } }>(token, "POST", "/pages", { body: { slug: "new-page" } });
    expect([created.status, created.body.error?.code, created.body.error?.policy_id]).toEqual([422, "plugin_policy_refused", "closed"]);
    expect(await pages()).toBe(1);
    const moved = await manage<{ error: { code: string } }>(token, "POST", "/pages", { body: { id: existing.body.instance_id, slug: "moved" } });
    expect([moved.status, moved.body.error?.code]).toEqual([422, "plugin_policy_refused"]);
    expect((await manage<Entry & { slug: string }>(token, "GET", `/pages/${existing.body.instance_id}`)).body.slug).toBe("about");
    const asked = (await pluginCalls(`${path}/policies/closed`)).map((call) => JSON.parse(call.body) as { operation: string; fields: unknown });
    expect(asked.map((a) => [a.operation, a.fields])).toEqual([["create", {}], ["save", {}]]);
  });

  it("a transform changes the fields written and the answer says so (policy_results)", async () => {
    const { models, plugin, token } = await setup([{ id: "trim", mode: "transform" }]);
    const created = await createArticle(token, models.article.id, "  Spaced out  ");
    expect(created.status).toBe(201);
    expect(created.body.fields.title).toBe("Spaced out");
    expect(created.body.policy_results).toEqual([
      { installation_id: plugin.id, plugin_name: "Guard", policy_id: "trim", policy_label: "Policy trim", locale: "en", message: "Trimmed spaces.", fields: ["title"], outcome: "transformed" },
    ]);
    const read = await manage<Entry>(token, "GET", `/entries/${created.body.instance_id}`);
    expect(read.body.fields.title).toBe("Spaced out");
  });

  it("refuses invalid transforms (422 plugin_policy_transform_invalid with cause) and conflicting ones, writing nothing", async () => {
    const bad = await setup([{ id: "bad", mode: "transform" }]);
    const before = await articleCount(bad.s.site.id);
    const invalid = await createArticle(bad.token, bad.models.article.id, "Hello");
    expect(invalid.status).toBe(422);
    expect(invalid.body.error).toMatchObject({ code: "plugin_policy_transform_invalid", policy_id: "bad", cause: { code: "field_validation_failed" } });
    expect(await articleCount(bad.s.site.id)).toBe(before);

    const validate = await setup([{ id: "trim", mode: "validate" }]);
    const notAllowed = await createArticle(validate.token, validate.models.article.id, " padded ");
    expect(notAllowed.body.error).toMatchObject({ code: "plugin_policy_transform_invalid", cause: { code: "transform_not_allowed" } });

    const stray = await setup([{ id: "stray", mode: "transform" }]);
    const strayed = await createArticle(stray.token, stray.models.article.id, "Hello");
    expect(strayed.body.error).toMatchObject({ code: "plugin_policy_transform_invalid", cause: { code: "field_not_written", detail: { fields: ["not_written"] } } });

    const both = await setup([
      { id: "trim", mode: "transform" },
      { id: "shout", mode: "transform" },
    ]);
    const count = await articleCount(both.s.site.id);
    const conflict = await createArticle(both.token, both.models.article.id, " shout ");
    expect(conflict.status).toBe(422);
    expect(conflict.body.error).toMatchObject({ code: "plugin_policy_transform_conflict", field: "title" });
    expect(await articleCount(both.s.site.id)).toBe(count);
  });

  it("an unreachable enforcing policy is 503 plugin_policy_unavailable; an advisory one lets the write proceed", async () => {
    const enforcing = await setup([{ id: "down", mode: "validate" }]);
    const before = await articleCount(enforcing.s.site.id);
    const refused = await createArticle(enforcing.token, enforcing.models.article.id, "Hello");
    expect(refused.status).toBe(503);
    expect(refused.body.error).toMatchObject({ code: "plugin_policy_unavailable", policy_id: "down", failure: "unreachable" });
    expect(await articleCount(enforcing.s.site.id)).toBe(before);

    const advisory = await setup([{ id: "down", mode: "validate", advisory: true }]);
    const written = await createArticle(advisory.token, advisory.models.article.id, "Hello");
    expect(written.status).toBe(201);
    expect(written.body.policy_results).toEqual([
      { installation_id: advisory.plugin.id, plugin_name: "Guard", policy_id: "down", policy_label: "Policy down", locale: "en", message: null, fields: [], outcome: "unavailable", failure: "unreachable" },
    ]);
    // A policy answering nonsense is unavailable too.
    await answerWith(`${enforcing.path}/policies/down`, { status: 200, body: { outcome: "maybe" } });
    const nonsense = await createArticle(enforcing.token, enforcing.models.article.id, "Hello");
    expect(nonsense.body.error).toMatchObject({ code: "plugin_policy_unavailable", failure: "invalid_answer" });
  });

  it("a slow policy does not hold another entry's save (asked outside the site's write queue)", async () => {
    const { models, token } = await setup([{ id: "audit", mode: "validate" }]);
    const done: string[] = [];
    const slow = createArticle(token, models.article.id, "SLOW one").then((r) => {
      done.push("slow");
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const fast = await createArticle(token, models.article.id, "Quick one");
    done.push("fast");
    expect(fast.status).toBe(201);
    expect((await slow).status).toBe(201);
    expect(done).toEqual(["fast", "slow"]);
  });

  it("too many policy calls for a site in a window give 429 plugin_policy_budget_exhausted, nothing written", async () => {
    const { s, models, token } = await setup([
      { id: "one", mode: "validate" },
      { id: "two", mode: "validate" },
      { id: "three", mode: "validate" },
    ]);
    // PLUGIN_POLICY_BUDGET is 30 in tests: ten creates ask three policies each.
    for (let i = 0; i < 10; i++) expect((await createArticle(token, models.article.id, `Entry ${i}`)).status).toBe(201);
    const before = await articleCount(s.site.id);
    const over = await createArticle(token, models.article.id, "One too many");
    expect(over.status).toBe(429);
    expect(over.body.error).toMatchObject({ code: "plugin_policy_budget_exhausted", budget: 30, window_ms: 60000 });
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await articleCount(s.site.id)).toBe(before);
    // Other sites keep their own budget.
    const other = await setup([{ id: "one", mode: "validate" }]);
    expect((await createArticle(other.token, other.models.article.id, "Fine")).status).toBe(201);
  });
});
