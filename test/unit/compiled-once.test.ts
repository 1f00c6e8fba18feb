import { sql } from "kysely";
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createDb } from "../../shared/db/client";
import { compiledOnce } from "../../shared/db/compiled-once";

/** What a fresh compile answers: the SQL and parameters a compiled-once query must equal. */
const shape = (q: { sql: string; parameters: readonly unknown[] }) => ({ sql: q.sql, parameters: [...q.parameters] });

describe("compiledOnce (docs/write-fairness.md, CPU per write)", () => {
  const db = createDb(env.DB);
  const fresh = (siteId: string, instanceId: string, at: number) => [
    db.selectFrom("entries").selectAll().where("site_id", "=", siteId).where("instance_id", "=", instanceId).where("workflow_state", "=", "draft").limit(1).compile(),
    db
      .selectFrom("versions")
      .select("id")
      .where("site_id", "=", siteId)
      .where("id", "=", sql<string>`(SELECT current_version_id FROM entries WHERE site_id = ${siteId} AND instance_id = ${instanceId} AND updated_at < ${at})`)
      .compile(),
  ];
  const once = compiledOnce(["siteId", "instanceId", "at"], (kdb, p) => [
    kdb.selectFrom("entries").selectAll().where("site_id", "=", p("siteId")).where("instance_id", "=", p("instanceId")).where("workflow_state", "=", "draft").limit(1).compile(),
    kdb
      .selectFrom("versions")
      .select("id")
      .where("site_id", "=", p("siteId"))
      .where("id", "=", sql<string>`(SELECT current_version_id FROM entries WHERE site_id = ${p("siteId")} AND instance_id = ${p("instanceId")} AND updated_at < ${p("at")})`)
      .compile(),
  ] as const);

  it("answers what a fresh compile answers, call after call: placeholders rebound, the shape's constants kept", () => {
    for (const [siteId, instanceId, at] of [["site_a", "ent_1", 5], ["site_b", "ent_2", 7], ["site_a", "ent_1", 5]] as const) {
      expect(once(db, { siteId, instanceId, at }).map(shape)).toEqual(fresh(siteId, instanceId, at).map(shape));
    }
    // The constants (the state, the limit) stayed as compiled, not taken for placeholders.
    expect(once(db, { siteId: "s", instanceId: "i", at: 1 })[0].parameters).toEqual(["s", "i", "draft", 1]);
  });

  it("runs on D1 with each call's own values", async () => {
    const read = compiledOnce(["a", "b"], (kdb, p) => [kdb.selectNoFrom(sql<string>`${p("a")} || ${p("b")}`.as("joined")).compile()] as const);
    const [first] = read(createDb(env.DB), { a: "x", b: "y" });
    const [second] = read(createDb(env.DB), { a: "p", b: "q" });
    const run = async (q: { sql: string; parameters: readonly unknown[] }) => (await env.DB.prepare(q.sql).bind(...q.parameters).first<{ joined: string }>())?.joined;
    expect([await run(first), await run(second)]).toEqual(["xy", "pq"]);
  });

  it("refuses, when first compiled, a declared parameter the queries do not carry", () => {
    const lost = compiledOnce(["siteId", "instanceId"], (kdb, p) => [kdb.selectFrom("entries").selectAll().where("site_id", "=", p("siteId")).compile()] as const);
    expect(() => lost(db, { siteId: "s", instanceId: "i" })).toThrow(/carry no instanceId/);
  });
});
