import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { AppError } from "../../shared/errors";
import { commit, guard } from "../../shared/db/batch";
import { createDb } from "../../shared/db/client";
import { scopedOver } from "../../shared/db/site-databases";
import { CrossDatabaseStatement, statementSide, tablesOf } from "../../shared/db/tables";
import { seedSite } from "../helpers/fixtures";

/**
 * The handle of a site on a second database (shared/db/routed-d1.ts), on the real DB and DB_2
 * bindings: where each statement runs, and how a batch is split so a refusal writes nothing.
 */

describe("statementSide", () => {
  it("names the database from the tables after FROM, JOIN, INTO and UPDATE, quoted or not", () => {
    expect(statementSide('select "id" from "roles" where "site_id" = ?')).toBe("control");
    expect(statementSide("SELECT * FROM entries e JOIN models m ON m.id = e.model_id")).toBe("site");
    expect(statementSide('insert into "audit_log" ("id") values (?)')).toBe("record");
    expect(statementSide("UPDATE outbox_events SET enqueued_at = ?")).toBe("record");
    expect(statementSide("INSERT INTO batch_guards (reason) SELECT ? WHERE NOT (1)")).toBe("neutral");
    expect(statementSide("INSERT INTO batch_guards (reason) SELECT ? WHERE NOT (EXISTS (SELECT 1 FROM plugin_installations WHERE id = ?))")).toBe("control");
    // A column, alias or CTE called like a table is not a table reference.
    expect(tablesOf("WITH roles AS (SELECT 1) SELECT persons, sites AS x FROM entries")).toEqual(["entries"]);
    expect(statementSide("SELECT 1")).toBe("neutral");
  });

  it("refuses one statement over a directory table and a content or record table", () => {
    expect(() => statementSide("SELECT * FROM webhooks w LEFT JOIN plugin_installations p ON p.id = w.id")).toThrow(CrossDatabaseStatement);
    expect(() => statementSide("SELECT * FROM event_deliveries d LEFT JOIN plugin_installations p ON p.id = d.webhook_id")).toThrow(CrossDatabaseStatement);
    expect(() => statementSide('select * from "entries" where "owner_id" in (select "id" from "persons")')).toThrow(CrossDatabaseStatement);
  });
});

describe("RoutedD1", () => {
  const handle = () => scopedOver(env.DB, env.DB_2);

  it("is the control database itself for a site that lives there", () => {
    expect(scopedOver(env.DB, env.DB)).toBe(env.DB);
    expect(handle()).toBe(handle());
  });

  it("reads each table where it lives", async () => {
    const s = await seedSite({ database: "DB_2" });
    const d1 = handle();
    const db = createDb(d1);
    // The directory row is read from DB, not the anchor in DB_2.
    expect((await db.selectFrom("sites").select("name").where("id", "=", s.site.id).executeTakeFirst())?.name).toBe(s.site.slug);
    await d1.prepare("INSERT INTO media_folders (id, site_id, parent_id, name, name_key, revision, created_at, updated_at) VALUES ('fld_r1', ?, NULL, 'A', 'a', 1, 'x', 'x')").bind(s.site.id).run();
    expect(await env.DB_2.prepare("SELECT id FROM media_folders WHERE id = 'fld_r1'").first("id")).toBe("fld_r1");
    expect(await env.DB.prepare("SELECT id FROM media_folders WHERE id = 'fld_r1'").first()).toBeNull();
  });

  it("runs a false directory guard before the content batch: nothing is written anywhere", async () => {
    const s = await seedSite({ database: "DB_2" });
    const d1 = handle();
    const db = createDb(d1);
    const refused = guard(db, "installation_not_active", "EXISTS (SELECT 1 FROM plugin_installations WHERE id = ?)", ["pin_none"]);
    const folder = db.insertInto("media_folders").values({ id: "fld_r2", site_id: s.site.id, parent_id: null, name: "B", name_key: "b", revision: 1, created_at: "x", updated_at: "x" }).compile();
    await expect(commit(d1, [folder, refused])).rejects.toMatchObject({ code: "installation_not_active" });
    expect(await env.DB_2.prepare("SELECT id FROM media_folders WHERE id = 'fld_r2'").first()).toBeNull();
  });

  it("commits a directory change's record with it in the control database, and a content write's in the site's", async () => {
    const s = await seedSite({ database: "DB_2" });
    const db = createDb(handle());
    const audit = (id: string) => db.insertInto("audit_log").values({ id, site_id: s.site.id, at: "x", actor_kind: "system", actor_id: "t", credential_id: null, action: "t", target_kind: "t", target_id: "t", details: "{}" }).compile();
    await commit(handle(), [db.updateTable("roles").set({ description: "changed" }).where("site_id", "=", s.site.id).where("slug", "=", "viewer").compile(), audit("aud_dir")]);
    expect(await env.DB.prepare("SELECT id FROM audit_log WHERE id = 'aud_dir'").first("id")).toBe("aud_dir");
    expect(await env.DB_2.prepare("SELECT id FROM audit_log WHERE id = 'aud_dir'").first()).toBeNull();
    await commit(handle(), [db.insertInto("media_folders").values({ id: "fld_r3", site_id: s.site.id, parent_id: null, name: "C", name_key: "c", revision: 1, created_at: "x", updated_at: "x" }).compile(), audit("aud_site")]);
    expect(await env.DB_2.prepare("SELECT id FROM audit_log WHERE id = 'aud_site'").first("id")).toBe("aud_site");
    expect(await env.DB.prepare("SELECT id FROM audit_log WHERE id = 'aud_site'").first()).toBeNull();
  });

  it("commits writes on both sides site part first: a content guard that fails leaves the directory untouched", async () => {
    const s = await seedSite({ database: "DB_2" });
    const db = createDb(handle());
    const roleChange = db.updateTable("roles").set({ description: "both" }).where("site_id", "=", s.site.id).where("slug", "=", "viewer").compile();
    const folder = db.insertInto("media_folders").values({ id: "fld_r4", site_id: s.site.id, parent_id: null, name: "D", name_key: "d", revision: 1, created_at: "x", updated_at: "x" }).compile();
    const stale = guard(db, "version_conflict", "EXISTS (SELECT 1 FROM models WHERE id = ?)", ["mdl_none"]);
    const error = await commit(handle(), [roleChange, folder, stale]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    const viewer = () => env.DB.prepare("SELECT description FROM roles WHERE site_id = ? AND slug = 'viewer'").bind(s.site.id).first("description");
    expect(await viewer()).not.toBe("both");
    await commit(handle(), [roleChange, folder]);
    expect(await viewer()).toBe("both");
    expect(await env.DB_2.prepare("SELECT id FROM media_folders WHERE id = 'fld_r4'").first("id")).toBe("fld_r4");
  });
});
