import { describe, expect, it } from "vitest";
import { blogModels, seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";

type Entry = { instance_id: string; model_id: string; current_version_id: string | null; workflow: { state: string } };
type Versions = { data: { id: string; number: number }[] };
type Err = { error: { code: string } };

/**
 * The write path reads less before it commits (issue #14, docs/benchmarks.md "Write path"): the
 * version number is counted inside the batch, the site and the named entry (with its model and
 * current version) or model are read together, and a credential is checked in one batch. These
 * pin what those reads decide, through the management API.
 */
describe("write path: what the folded reads still decide", () => {
  it("numbers each entry's versions 1, 2, 3… inside the batch, a restore included, each entry on its own", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const token = await credential(s);
    const created = await manage<Entry>(token, "POST", "/entries", { body: { model_id: article.id, fields: { title: "One" } } });
    expect(created.status).toBe(201);
    let version = created.body.current_version_id ?? "";
    for (const title of ["Two", "Three"]) {
      const saved = await manage<Entry>(token, "PUT", `/entries/${created.body.instance_id}`, { body: { expected_version_id: version, fields: { title } } });
      expect(saved.status).toBe(200);
      version = saved.body.current_version_id ?? "";
    }
    const before = await manage<Versions>(token, "GET", `/entries/${created.body.instance_id}/versions`);
    expect(before.body.data.map((v) => v.number)).toEqual([3, 2, 1]);
    const first = before.body.data.find((v) => v.number === 1)?.id ?? "";
    const restored = await manage<Entry>(token, "POST", `/entries/${created.body.instance_id}/versions/${first}/restore`, { body: { expected_version_id: version } });
    expect(restored.status).toBe(200);
    const after = await manage<Versions>(token, "GET", `/entries/${created.body.instance_id}/versions`);
    expect(after.body.data.map((v) => v.number)).toEqual([4, 3, 2, 1]);
    expect(after.body.data[0]?.id).toBe(restored.body.current_version_id);

    const other = await manage<Entry>(token, "POST", "/entries", { body: { model_id: article.id, fields: { title: "Other" } } });
    const otherVersions = await manage<Versions>(token, "GET", `/entries/${other.body.instance_id}/versions`);
    expect(otherVersions.body.data.map((v) => v.number)).toEqual([1]);
  });

  it("does not take another site's entry or model for this site's: 404 not_found, nothing written", async () => {
    const a = await seedSite();
    const b = await seedSite();
    const modelsA = await blogModels(a.ctx());
    const modelsB = await blogModels(b.ctx());
    const tokenA = await credential(a);
    const tokenB = await credential(b);
    const theirs = await manage<Entry>(tokenB, "POST", "/entries", { body: { model_id: modelsB.article.id, fields: { title: "Site B" } } });
    expect(theirs.status).toBe(201);
    const id = theirs.body.instance_id;
    const version = theirs.body.current_version_id ?? "";

    const save = await manage<Err>(tokenA, "PUT", `/entries/${id}`, { body: { expected_version_id: version, fields: { title: "Taken over" } } });
    expect(save.status).toBe(404);
    expect(save.body.error.code).toBe("not_found");
    const publish = await manage<Err>(tokenA, "POST", `/entries/${id}/publish`, { body: { expected_version_id: version } });
    expect(publish.status).toBe(404);
    expect(publish.body.error.code).toBe("not_found");
    const create = await manage<Err>(tokenA, "POST", "/entries", { body: { model_id: modelsB.article.id, fields: { title: "Into B's model" } } });
    expect(create.status).toBe(404);
    expect(create.body.error.code).toBe("not_found");

    // Site B's entry is as it was; site A's own model still takes entries.
    const still = await manage<Versions>(tokenB, "GET", `/entries/${id}/versions`);
    expect(still.body.data.map((v) => v.number)).toEqual([1]);
    const read = await manage<Entry>(tokenB, "GET", `/entries/${id}`);
    expect(read.body.workflow.state).toBe("draft");
    expect((await manage(tokenA, "POST", "/entries", { body: { model_id: modelsA.article.id, fields: { title: "Mine" } } })).status).toBe(201);
  });

  it("keeps an entry of a model outside the credential's models not found to every write", async () => {
    const s = await seedSite();
    const { article, author } = await blogModels(s.ctx());
    const full = await credential(s);
    const authorsOnly = await credential(s, undefined, [author.id]);
    const entry = await manage<Entry>(full, "POST", "/entries", { body: { model_id: article.id, fields: { title: "Article" } } });
    const version = entry.body.current_version_id ?? "";
    const save = await manage<Err>(authorsOnly, "PUT", `/entries/${entry.body.instance_id}`, { body: { expected_version_id: version, fields: { title: "No" } } });
    expect([save.status, save.body.error.code]).toEqual([404, "not_found"]);
    const publish = await manage<Err>(authorsOnly, "POST", `/entries/${entry.body.instance_id}/publish`, { body: {} });
    expect([publish.status, publish.body.error.code]).toEqual([404, "not_found"]);
    const create = await manage<Err>(authorsOnly, "POST", "/entries", { body: { model_id: article.id, fields: { title: "No" } } });
    expect([create.status, create.body.error.code]).toEqual([404, "not_found"]);
  });
});
