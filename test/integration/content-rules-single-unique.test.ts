import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";

type Err = { error: { code: string; message: string; [k: string]: unknown } };
interface EntryBody {
  instance_id: string;
  translation_group_id: string;
  current_version_id: string;
}
interface ModelRead {
  id: string;
  kind: string;
  revision: number;
  definition: { model: Record<string, unknown> & { unique_combinations: { name: string; fields: string[]; scope: string }[] }; fields: { id: string; key: string; [k: string]: unknown }[] };
}
interface Issue {
  path: string;
  code: string;
  combination?: string;
  fields?: string[];
  instance_id?: string;
  lang?: string;
}

async function newModel(token: string, model: Record<string, unknown>, fields: Record<string, unknown>[]): Promise<{ status: number; id: string; body: unknown }> {
  const res = await manage<{ model_id: string } & Err>(token, "POST", "/models", { body: { definition: { model, fields } } });
  return { status: res.status, id: res.body.model_id, body: res.body };
}

async function readModel(token: string, id: string): Promise<ModelRead> {
  return (await manage<ModelRead>(token, "GET", `/models/${id}`)).body;
}

async function replace(token: string, id: string, change: (m: ModelRead) => { model?: Record<string, unknown>; fields?: unknown[] }) {
  const read = await readModel(token, id);
  const changed = change(read);
  return manage<Err & { revision: number }>(token, "PUT", `/models/${id}/definition`, {
    body: { expected_revision: read.revision, definition: { model: changed.model ?? read.definition.model, fields: changed.fields ?? read.definition.fields } },
  });
}

function create(token: string, modelId: string, fields: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return manage<EntryBody & Err>(token, "POST", "/entries", { body: { model_id: modelId, fields, ...extra } });
}

async function claimRows(s: SeededSite, modelId: string, fieldId: string): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM unique_values WHERE site_id = ? AND model_id = ? AND field_id = ?").bind(s.site.id, modelId, fieldId).first<{ n: number }>())?.n ?? -1;
}

const issuesOf = (body: unknown) => ((body as Err).error.issues ?? []) as Issue[];

describe("single-entry models", () => {
  it("refuses a second item, Trash counted, naming the one that exists; languages of the one item are allowed", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const home = await newModel(token, { name: "Home page", slug: "home", kind: "single", enableI18n: true }, [{ key: "headline", label: "Headline", type: "text", title: true }]);
    expect(home.status).toBe(201);
    const first = await create(token, home.id, { headline: "Welcome" });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const second = await create(token, home.id, { headline: "Another" });
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({ code: "single_entry_exists", instance_id: first.body.instance_id });
    // A second language is the same item.
    const fr = await manage<EntryBody>(token, "POST", `/entries/${first.body.instance_id}/languages`, { body: { lang: "fr", fields: { headline: "Bienvenue" } } });
    expect(fr.status, JSON.stringify(fr.body)).toBe(201);
    // In another language, the model is still taken.
    expect((await create(token, home.id, { headline: "Autre" }, { lang: "fr" })).body.error.code).toBe("single_entry_exists");
    // Trash counts.
    expect((await manage(token, "POST", `/entries/${first.body.instance_id}/trash`, { body: {} })).status).toBe(200);
    const inTrash = await create(token, home.id, { headline: "Again" });
    expect(inTrash.status).toBe(409);
    expect(inTrash.body.error.code).toBe("single_entry_exists");
    // Deleted for good: the model is free again.
    expect((await manage(token, "POST", `/entries/${first.body.instance_id}/purge`, { body: {} })).status).toBe(200);
    expect((await create(token, home.id, { headline: "Fresh" })).status).toBe(201);
    const rows = await env.DB.prepare("SELECT count(DISTINCT translation_group_id) AS n FROM entries WHERE site_id = ? AND model_id = ?").bind(s.site.id, home.id).first<{ n: number }>();
    expect(rows?.n).toBe(1);
  });

  it("makes a collection single only with at most one item, Trash counted (409 single_entry_conflict, nothing written)", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const settings = await newModel(token, { name: "Settings", slug: "settings" }, [{ key: "title", label: "Title", type: "text", title: true }]);
    const a = await create(token, settings.id, { title: "A" });
    const b = await create(token, settings.id, { title: "B" });
    expect(b.status).toBe(201);
    const toSingle = (m: ModelRead) => ({ model: { ...m.definition.model, kind: "single" } });
    const refused = await replace(token, settings.id, toSingle);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: "single_entry_conflict", items: 2 });
    expect((await readModel(token, settings.id)).kind).toBe("collection");
    expect((await manage(token, "POST", `/entries/${b.body.instance_id}/trash`, { body: {} })).status).toBe(200);
    expect((await replace(token, settings.id, toSingle)).body.error.code).toBe("single_entry_conflict");
    expect((await manage(token, "POST", `/entries/${b.body.instance_id}/purge`, { body: {} })).status).toBe(200);
    const done = await replace(token, settings.id, toSingle);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect((await readModel(token, settings.id)).kind).toBe("single");
    const third = await create(token, settings.id, { title: "C" });
    expect(third.body.error).toMatchObject({ code: "single_entry_exists", instance_id: a.body.instance_id });
    // And back to a collection: always allowed.
    expect((await replace(token, settings.id, (m) => ({ model: { ...m.definition.model, kind: "collection" } }))).status).toBe(200);
    expect((await create(token, settings.id, { title: "C" })).status).toBe(201);
  });
});

const eventFields = [
  { key: "title", label: "Title", type: "text", title: true },
  { key: "venue", label: "Venue", type: "text" },
  { key: "day", label: "Day", type: "slug" },
  { key: "seats", label: "Seats", type: "integer" },
  { key: "open", label: "Open", type: "boolean" },
  { key: "notes", label: "Notes", type: "long_text" },
];

describe("unique combinations", () => {
  it("refuses invalid combinations at model apply with one problem per fault, writing nothing", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const combos = [
      { name: "one", fields: ["seats"], scope: "model" },
      { name: "five", fields: ["title", "venue", "day", "seats", "notes"], scope: "model" },
      { name: "ghost", fields: ["venue", "nope"], scope: "model" },
      { name: "flag", fields: ["venue", "open"], scope: "language" },
      { name: "twice", fields: ["venue", "venue"], scope: "model" },
      { name: "ok", fields: ["venue", "day"], scope: "model" },
      { name: "ok", fields: ["venue", "seats"], scope: "model" },
      { name: "again", fields: ["day", "venue"], scope: "model" },
    ];
    const refused = await newModel(token, { name: "Event", slug: "event", unique_combinations: combos }, eventFields);
    expect(refused.status).toBe(422);
    const problems = (refused.body as Err).error.problems as { path: string; reason: string; name?: string }[];
    expect(problems.map((p) => [p.path, p.reason])).toEqual([
      ["unique_combinations[0].fields", "field_count"],
      ["unique_combinations[1].fields", "field_count"],
      ["unique_combinations[1].fields[4]", "unsupported_type"],
      ["unique_combinations[2].fields[1]", "unknown_field"],
      ["unique_combinations[3].fields[1]", "unsupported_type"],
      ["unique_combinations[4].fields[1]", "duplicate_field"],
      ["unique_combinations[6].name", "duplicate_name"],
      ["unique_combinations[7]", "duplicate_combination"],
    ]);
    expect((refused.body as Err).error.code).toBe("invalid_unique_combination");
    expect(await env.DB.prepare("SELECT count(*) AS n FROM models WHERE site_id = ? AND slug = 'event'").bind(s.site.id).first<{ n: number }>()).toEqual({ n: 0 });

    const nine = Array.from({ length: 9 }, (_, i) => ({ name: `c${i}`, fields: ["venue", i % 2 ? "day" : "seats"], scope: i < 4 ? "model" : "language" }));
    const tooMany = await newModel(token, { name: "Event", slug: "event", unique_combinations: nine }, eventFields);
    expect(tooMany.status).toBe(422);
    expect(((tooMany.body as Err).error.problems as { reason: string }[]).map((p) => p.reason)).toContain("too_many");
    // Malformed shapes never reach the service: 400.
    const shape = await newModel(token, { name: "Event", slug: "event", unique_combinations: [{ name: "Bad Name", fields: ["venue", "day"], scope: "model" }] }, eventFields);
    expect(shape.status).toBe(400);
    const scope = await newModel(token, { name: "Event", slug: "event", unique_combinations: [{ name: "x", fields: ["venue", "day"], scope: "site" }] }, eventFields);
    expect(scope.status).toBe(400);

    // Eight is the limit; a field removed or renamed while a combination names it is refused.
    const eight = Array.from({ length: 8 }, (_, i) => ({ name: `c${i}`, fields: [["venue", "day"], ["venue", "seats"], ["day", "seats"], ["venue", "day", "seats"]][i % 4], scope: i < 4 ? "model" : "language" }));
    const created = await newModel(token, { name: "Event", slug: "event", unique_combinations: eight }, eventFields);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const read = await readModel(token, created.id);
    expect(read.definition.model.unique_combinations).toEqual(eight);
    const renamed = await replace(token, created.id, (m) => ({ fields: m.definition.fields.map((f) => (f.key === "venue" ? { ...f, key: "place" } : f)) }));
    expect(renamed.status).toBe(422);
    expect(renamed.body.error.code).toBe("invalid_unique_combination");
    // What a read answers can be written back unchanged.
    expect((await replace(token, created.id, () => ({}))).status).toBe(200);
  });

  it("claims per combination on create, save, add language and restore; empty members claim nothing; the refusal names the combination", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const event = await newModel(token, { name: "Event", slug: "event", enableI18n: true, unique_combinations: [{ name: "venue_day", fields: ["venue", "day"], scope: "model" }] }, eventFields);
    expect(event.status, JSON.stringify(event.body)).toBe(201);
    const a = await create(token, event.id, { title: "A", venue: "Hall", day: "2026-01-01" });
    expect(a.status).toBe(201);
    // Same combination, written differently (case, spaces): refused, naming the combination and the holder.
    const dup = await create(token, event.id, { title: "B", venue: " HALL ", day: "2026-01-01" });
    expect(dup.status).toBe(422);
    expect(dup.body.error.code).toBe("field_validation_failed");
    expect(issuesOf(dup.body)).toEqual([
      expect.objectContaining({ path: "venue", code: "unique_taken", combination: "venue_day", fields: ["venue", "day"], instance_id: a.body.instance_id }),
    ]);
    // Either member different: free. Empty members claim nothing.
    const b = await create(token, event.id, { title: "B", venue: "Hall", day: "2026-01-02" });
    expect(b.status).toBe(201);
    expect((await create(token, event.id, { title: "C", venue: "Yard", day: "2026-01-01" })).status).toBe(201);
    for (const title of ["D", "E"]) expect((await create(token, event.id, { title, venue: "Hall" })).status).toBe(201);
    expect((await create(token, event.id, { title: "F", venue: "", day: "2026-01-01" })).status).toBe(201);
    // The members' own values stay free: the combination is the unit.
    // A save into a taken combination is refused; the draft stays.
    const save = await manage<Err>(token, "PUT", `/entries/${b.body.instance_id}`, { body: { expected_version_id: b.body.current_version_id, fields: { title: "B", venue: "hall", day: "2026-01-01" } } });
    expect(save.status).toBe(422);
    expect(issuesOf(save.body)[0]).toMatchObject({ combination: "venue_day" });
    // Another language of the same item may share the combination (scope model, like unique fields).
    const fr = await manage<EntryBody>(token, "POST", `/entries/${a.body.instance_id}/languages`, { body: { lang: "fr", fields: { title: "A fr", venue: "Hall", day: "2026-01-01" } } });
    expect(fr.status, JSON.stringify(fr.body)).toBe(201);
    // A language added to another item is checked like a create.
    const bFr = await manage<Err>(token, "POST", `/entries/${b.body.instance_id}/languages`, { body: { lang: "fr", fields: { title: "B fr", venue: "Hall", day: "2026-01-01" } } });
    expect(bFr.status).toBe(422);
    expect(issuesOf(bFr.body)[0]).toMatchObject({ combination: "venue_day" });
    expect([a.body.instance_id, fr.body.instance_id]).toContain(issuesOf(bFr.body)[0]?.instance_id);
    // Restore of an old version into a taken combination is refused.
    const moved = await manage<EntryBody>(token, "PUT", `/entries/${b.body.instance_id}`, { body: { expected_version_id: b.body.current_version_id, fields: { title: "B", venue: "Hall", day: "2026-01-03" } } });
    expect(moved.status).toBe(200);
    const takes = await create(token, event.id, { title: "G", venue: "Hall", day: "2026-01-02" });
    expect(takes.status).toBe(201);
    const restore = await manage<Err>(token, "POST", `/entries/${b.body.instance_id}/versions/${b.body.current_version_id}/restore`, { body: {} });
    expect(restore.status).toBe(422);
    expect(issuesOf(restore.body)[0]).toMatchObject({ combination: "venue_day", instance_id: takes.body.instance_id });
    // Trash releases; a restore from Trash into a combination taken meanwhile is refused.
    expect((await manage(token, "POST", `/entries/${takes.body.instance_id}/trash`, { body: {} })).status).toBe(200);
    const again = await create(token, event.id, { title: "H", venue: "Hall", day: "2026-01-02" });
    expect(again.status).toBe(201);
    const back = await manage<Err>(token, "POST", `/entries/${takes.body.instance_id}/restore`, { body: {} });
    expect(back.status).toBe(422);
    expect(issuesOf(back.body)[0]).toMatchObject({ combination: "venue_day", lang: "en" });
    // Publication re-checks the claims of the draft it publishes (and guards them in the batch).
    expect((await manage(token, "POST", `/entries/${a.body.instance_id}/publish`, { body: {} })).status).toBe(200);
  });

  it("scope language: the same combination may exist once per language", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const product = await newModel(
      token,
      { name: "Product", slug: "product", enableI18n: true, unique_combinations: [{ name: "brand_sku", fields: ["venue", "seats"], scope: "language" }] },
      eventFields,
    );
    expect((await create(token, product.id, { title: "P1", venue: "Acme", seats: 7 })).status).toBe(201);
    expect((await create(token, product.id, { title: "P2", venue: "Acme", seats: 7 }, { lang: "fr" })).status).toBe(201);
    const dup = await create(token, product.id, { title: "P3", venue: "acme", seats: 7.0 }, { lang: "fr" });
    expect(dup.status).toBe(422);
    expect(issuesOf(dup.body)[0]).toMatchObject({ path: "venue", combination: "brand_sku" });
    expect((await create(token, product.id, { title: "P4", venue: "Acme", seats: 8 }, { lang: "fr" })).status).toBe(201);
  });

  it("adding a combination existing drafts violate is model_change_blocked; once fixed the claims are backfilled; removing it frees them", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const event = await newModel(token, { name: "Event", slug: "event" }, eventFields);
    const a = await create(token, event.id, { title: "A", venue: "Hall", day: "d1" });
    const b = await create(token, event.id, { title: "B", venue: " hall ", day: "d1" });
    expect(b.status, JSON.stringify(b.body)).toBe(201);
    await create(token, event.id, { title: "C", venue: "Hall" });
    const add = (m: ModelRead) => ({ model: { ...m.definition.model, unique_combinations: [{ name: "venue_day", fields: ["venue", "day"], scope: "model" }] } });
    const blocked = await replace(token, event.id, add);
    expect(blocked.status).toBe(409);
    expect(blocked.body.error.code).toBe("model_change_blocked");
    expect(blocked.body.error.changes).toEqual([
      { kind: "unique_combination_conflict", field: "venue_day", affected_count: 2, message: expect.stringContaining("venue_day"), suggestion: expect.any(String) },
    ]);
    expect((await readModel(token, event.id)).definition.model.unique_combinations).toEqual([]);
    expect(await claimRows(s, event.id, "cmb:venue_day")).toBe(0);
    // Trash counts as gone for the check (a later restore is refused if taken).
    expect((await manage(token, "POST", `/entries/${b.body.instance_id}/trash`, { body: {} })).status).toBe(200);
    const applied = await replace(token, event.id, add);
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(await claimRows(s, event.id, "cmb:venue_day")).toBe(1);
    const dup = await create(token, event.id, { title: "D", venue: "HALL", day: "d1" });
    expect(issuesOf(dup.body)[0]).toMatchObject({ combination: "venue_day", instance_id: a.body.instance_id });
    expect((await manage<Err>(token, "POST", `/entries/${b.body.instance_id}/restore`, { body: {} })).status).toBe(422);
    // Removing the combination drops its claims.
    const removed = await replace(token, event.id, (m) => ({ model: { ...m.definition.model, unique_combinations: [] } }));
    expect(removed.status).toBe(200);
    expect(await claimRows(s, event.id, "cmb:venue_day")).toBe(0);
    expect((await create(token, event.id, { title: "D", venue: "HALL", day: "d1" })).status).toBe(201);
  });

  it("a combination claimed between the pre-check and the commit aborts the whole batch: 409 write_conflict on publish and save", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const event = await newModel(token, { name: "Event", slug: "event", unique_combinations: [{ name: "venue_day", fields: ["venue", "day"], scope: "model" }] }, eventFields);
    const a = await create(token, event.id, { title: "A", venue: "Hall", day: "d1" });
    // A claim of another item that the pre-check cannot see (its holder row is gone): only the batch's guard and trigger meet it.
    await env.DB.prepare("INSERT INTO unique_values (site_id, model_id, field_id, scope, value, translation_group_id, instance_id) VALUES (?, ?, 'cmb:venue_day', '', ?, 'grp_ghost', 'ent_ghost')")
      .bind(s.site.id, event.id, JSON.stringify(["hall", "d2"]))
      .run();
    await env.DB.prepare("UPDATE unique_values SET translation_group_id = 'grp_ghost2', instance_id = 'ent_ghost2' WHERE site_id = ? AND instance_id = ?").bind(s.site.id, a.body.instance_id).run();
    const published = await manage<Err>(token, "POST", `/entries/${a.body.instance_id}/publish`, { body: {} });
    expect(published.status).toBe(409);
    expect(published.body.error.code).toBe("write_conflict");
    const saved = await manage<Err>(token, "PUT", `/entries/${a.body.instance_id}`, { body: { expected_version_id: a.body.current_version_id, fields: { title: "A", venue: "HALL", day: "d2" } } });
    expect(saved.status).toBe(409);
    expect(saved.body.error.code).toBe("write_conflict");
    const versions = await env.DB.prepare("SELECT count(*) AS n FROM versions WHERE instance_id = ?").bind(a.body.instance_id).first<{ n: number }>();
    expect(versions?.n).toBe(1);
  });

  it("model proposals list a combination existing drafts violate, and refuse an invalid one", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const event = await newModel(token, { name: "Event", slug: "event" }, eventFields);
    await create(token, event.id, { title: "A", venue: "Hall", day: "d1" });
    await create(token, event.id, { title: "B", venue: "hall", day: "d1" });
    const read = await readModel(token, event.id);
    const propose = (combos: unknown[]) =>
      manage<Err & { changes: { kind: string; field: string | null; affected_count: number }[] }>(token, "POST", "/models/proposals", {
        body: { mode: "update", model_id: event.id, base_updated_at: (read as unknown as { updated_at: string }).updated_at, definition: { model: { name: "Event", slug: "event", unique_combinations: combos }, fields: read.definition.fields } },
      });
    const listed = await propose([{ name: "venue_day", fields: ["venue", "day"], scope: "model" }]);
    expect(listed.status, JSON.stringify(listed.body)).toBe(201);
    expect(listed.body.changes).toEqual([expect.objectContaining({ kind: "unique_combination_conflict", field: "venue_day", affected_count: 2 })]);
    const invalid = await propose([{ name: "venue_open", fields: ["venue", "open"], scope: "model" }]);
    expect(invalid.status).toBe(422);
    expect(invalid.body.error.code).toBe("invalid_unique_combination");
  });
});
