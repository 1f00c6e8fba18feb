import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "../../shared/db/client";
import { siteScope, type SiteScope } from "../../shared/db/site-scope";
import { entryRepository } from "../../shared/repositories/entry-repository";
import { modelRepository } from "../../shared/repositories/model-repository";
import * as lifecycle from "../../shared/services/lifecycle";
import { AppError } from "../../shared/errors";
import { apply, blogModels, seedSite } from "../helpers/fixtures";

describe("site scope", () => {
  it("refuses to build a repository without a real site scope", () => {
    const db = createDb(env.DB);
    expect(() => siteScope("")).toThrow(TypeError);
    expect(() => siteScope("' OR 1=1 --")).toThrow(TypeError);
    expect(() => entryRepository(db, undefined as unknown as SiteScope)).toThrow(TypeError);
    expect(() => modelRepository(db, { siteId: "", kind: "site-scope" })).toThrow(TypeError);
  });

  it("never finds another site's rows, even by exact id", async () => {
    const a = await seedSite();
    const b = await seedSite();
    const models = await blogModels(a.ctx());
    const entry = await apply(a.ctx(), lifecycle.createEntry(a.ctx(), { model_id: models.author.id, fields: { name: "A" } }));
    const db = createDb(env.DB);
    expect(await entryRepository(db, siteScope(b.site.id)).find(entry.instance_id)).toBeUndefined();
    expect(await modelRepository(db, siteScope(b.site.id)).findById(models.author.id)).toBeUndefined();
    expect(await entryRepository(db, siteScope(a.site.id)).find(entry.instance_id)).toBeDefined();
  });

  it("answers not_found when one site's actor names another site's entry", async () => {
    const a = await seedSite();
    const b = await seedSite();
    const models = await blogModels(a.ctx());
    const entry = await apply(a.ctx(), lifecycle.createEntry(a.ctx(), { model_id: models.author.id, fields: { name: "A" } }));
    for (const attempt of [
      () => lifecycle.publishEntry(b.ctx(), { instance_id: entry.instance_id }),
      () => lifecycle.saveDraft(b.ctx(), { instance_id: entry.instance_id, expected_version_id: entry.current_version_id ?? "", fields: {} }),
      () => lifecycle.createEntry(b.ctx(), { model_id: models.author.id, fields: { name: "x" } }),
    ]) {
      await expect(attempt()).rejects.toSatisfy((e: unknown) => e instanceof AppError && e.code === "not_found");
    }
  });
});
