/** Relation values: write forms and ordered lists, fields allowing several models, and lists per language. */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { EntryView } from "../../shared/services/lifecycle";
import { seedSite } from "../helpers/fixtures";
import { api, fieldOf, tagged, type Err, type ModelWrite } from "../helpers/relations-api";
import { changeAdminRole, credential, manage } from "../helpers/manage-api";
import { publicGet } from "../helpers/public-api";

describe("relations: write forms and ordered lists", () => {
  it("replaces with a plain list or set, edits with connect/disconnect/move and positions, in order through versions, restore and publication", async () => {
    const { a, article, tags } = await tagged();
    const [t0, t1, t2, t3, t4] = tags as [string, string, string, string, string];
    const e = await a.create(article, { title: "Hello", tags: [t2, t0, t1] }, { slug: "hello" });
    expect(fieldOf(e, "tags")).toEqual([t2, t0, t1]);
    let res = await a.save(e.instance_id, { tags: { set: [t1, t2] } });
    expect(fieldOf(res.body, "tags")).toEqual([t1, t2]);
    res = await a.save(e.instance_id, { tags: { connect: [t0, { id: t3, position: { start: true } }], disconnect: [t4] } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(fieldOf(res.body, "tags")).toEqual([t3, t1, t2, t0]);
    const v1 = res.body.current_version_id;
    res = await a.save(e.instance_id, { tags: { move: [{ id: t0, position: { before: t1 } }, { id: t3, position: { end: true } }] } });
    expect(fieldOf(res.body, "tags")).toEqual([t0, t1, t2, t3]);
    res = await a.save(e.instance_id, { tags: { disconnect: [t1], connect: [{ id: t4, position: { after: t0 } }] } });
    expect(fieldOf(res.body, "tags")).toEqual([t0, t4, t2, t3]);
    // connect of an id already linked (without position) and disconnect of an unlinked one: done, nothing moves.
    res = await a.save(e.instance_id, { tags: { connect: [t2], disconnect: [t1] } });
    expect(fieldOf(res.body, "tags")).toEqual([t0, t4, t2, t3]);

    // Publication and the public item keep the order.
    await a.publish(e.instance_id);
    const item = await publicGet<{ data: { relations: Record<string, { instance_id: string }[]> } }>(a.s.host, "/v1/article/hello");
    expect(item.status).toBe(200);
    expect(item.body.data.relations.tags?.map((r) => r.instance_id)).toEqual([t0, t4, t2, t3]);
    const links = await env.DB.prepare("SELECT target_instance_id FROM relation_links WHERE version_id = ? ORDER BY position").bind((await a.get(e.instance_id)).published_version_id).all<{ target_instance_id: string }>();
    expect(links.results.map((r) => r.target_instance_id)).toEqual([t0, t4, t2, t3]);

    // Restoring an old version brings its order back.
    const restored = await a.call<EntryView>("POST", `/entries/${e.instance_id}/versions/${v1}/restore`, { body: {} });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(fieldOf(restored.body, "tags")).toEqual([t3, t1, t2, t0]);
  });

  it("refuses malformed writes, duplicates, counts and positions on to-one fields", async () => {
    const { a, article, tags } = await tagged();
    const [t0, t1, t2, t3, t4] = tags as [string, string, string, string, string];
    const e = await a.create(article, { title: "Counts", tags: [t0, t1] });
    const cases: [unknown, number, string][] = [
      [{ tags: { set: [t0, t1], connect: [t2] } }, 400, "invalid_request"],
      [{ tags: { set: [t0], disconnect: [t1] } }, 400, "invalid_request"],
      [{ tags: { connect: [t2], replace: "yes" } }, 400, "invalid_request"],
      [{ tags: { replace: true } }, 400, "invalid_request"],
      [{ tags: { connect: [{ id: t2, position: { before: t4 } }] } }, 400, "invalid_request"],
      [{ tags: { connect: [{ id: t2, position: { middle: true } }] } }, 400, "invalid_request"],
      [{ tags: { move: [{ id: t4, position: { start: true } }] } }, 400, "invalid_request"],
      [{ tags: { move: [t0] } }, 400, "invalid_request"],
      [{ tags: [t0, t1, t0] }, 422, "relation_duplicate_target"],
      [{ tags: { set: [t2, t2] } }, 422, "relation_duplicate_target"],
      [{ tags: { connect: [t2, t2] } }, 422, "relation_duplicate_target"],
      [{ tags: [t0] }, 422, "relation_too_few"],
      [{ tags: { disconnect: [t0] } }, 422, "relation_too_few"],
      [{ tags: [t0, t1, t2, t3, t4] }, 422, "relation_too_many"],
      [{ tags: { connect: [t2, t3, t4] } }, 422, "relation_too_many"],
      [{ lead: { connect: [{ id: t0, position: { start: true } }] } }, 422, "relation_position_not_ordered"],
      [{ lead: { move: [{ id: t0, position: { start: true } }] } }, 422, "relation_position_not_ordered"],
      [{ lead: [t0, t1] }, 422, "relation_too_many"],
      [{ tags: [t0, "ent_missing"] }, 422, "relation_target_not_found"],
      [{ tags: [t0, 5] }, 422, "field_validation_failed"],
    ];
    for (const [fields, status, code] of cases) {
      const res = await a.save(e.instance_id, fields as Record<string, unknown>);
      expect(res.status, JSON.stringify(fields)).toBe(status);
      expect(res.body.error.code, JSON.stringify(fields)).toBe(code);
    }
    const dup = await a.save(e.instance_id, { tags: [t0, t1, t0] });
    expect(dup.body.error).toMatchObject({ field: "tags", targets: [t0] });
    const few = await a.save(e.instance_id, { tags: [t0] });
    expect(few.body.error).toMatchObject({ field: "tags", count: 1, min_items: 2 });
    // Nothing was written by any refusal.
    expect(fieldOf(await a.get(e.instance_id), "tags")).toEqual([t0, t1]);
    // An empty list is an incomplete draft; to-one fields take connect and disconnect.
    expect((await a.save(e.instance_id, { tags: [] })).status).toBe(200);
    expect(fieldOf((await a.save(e.instance_id, { lead: { connect: [t3] } })).body, "lead")).toBe(t3);
    expect(fieldOf((await a.save(e.instance_id, { lead: { connect: [t4] } })).body, "lead")).toBe(t4);
    expect(fieldOf((await a.save(e.instance_id, { lead: { disconnect: [t3] } })).body, "lead")).toBe(t4);
    expect(fieldOf((await a.save(e.instance_id, { lead: { disconnect: [t4] } })).body, "lead")).toBeNull();
    expect(fieldOf((await a.save(e.instance_id, { lead: { set: t2 } })).body, "lead")).toBe(t2);
  });

  it("a strict site counts an empty list as too few", async () => {
    const s = await seedSite({ settings: { validation_mode: "strict" } });
    const token = await credential(s);
    const tag = (await manage<ModelWrite>(token, "POST", "/models", { body: { definition: { model: { name: "tag", slug: "tag" }, fields: [{ key: "name", label: "Name", type: "text" }] } } })).body.model_id;
    const art = (await manage<ModelWrite>(token, "POST", "/models", { body: { definition: { model: { name: "art", slug: "art" }, fields: [{ key: "tags", label: "Tags", type: "relation", relation: "many_to_many", targets: [tag], validation: { min_items: 1 } }] } } })).body.model_id;
    const res = await manage<Err>(token, "POST", "/entries", { body: { model_id: art, slug: "a", fields: { tags: [] } } });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: "relation_too_few", field: "tags", count: 0, min_items: 1 });
    // Leaving the list out counts as empty too (spec 3), the same answer (probe finding).
    const omitted = await manage<Err>(token, "POST", "/entries", { body: { model_id: art, slug: "b", fields: {} } });
    expect(omitted.status).toBe(422);
    expect(omitted.body.error).toMatchObject({ code: "relation_too_few", field: "tags", count: 0, min_items: 1 });
  });
});

describe("relations: fields allowing several models", () => {
  it("takes { model, id } references, refuses bare ids, other models and ids of another model", async () => {
    const a = await api();
    const person = await a.model("person", [{ key: "name", label: "Name", type: "text", title: true }]);
    const org = await a.model("org", [{ key: "name", label: "Name", type: "text", title: true }]);
    const other = await a.model("other", [{ key: "name", label: "Name", type: "text", title: true }]);
    const doc = await a.model("doc", [
      { key: "title", label: "Title", type: "text", title: true },
      { key: "credits", label: "Credits", type: "relation", relation: "many_to_many", targets: [person, org] },
      { key: "owner", label: "Owner", type: "relation", relation: "many_to_one", targets: [person] },
    ]);
    const p = (await a.create(person, { name: "Ada" })).instance_id;
    const o = (await a.create(org, { name: "ACME" })).instance_id;
    await a.publish(p);
    await a.publish(o);
    const x = (await a.create(other, { name: "X" })).instance_id;
    const e = await a.create(doc, { title: "D", credits: [{ model: "org", id: o }, { model: "person", id: p }], owner: { model: "person", id: p } }, { slug: "d" });
    expect(fieldOf(e, "credits")).toEqual([o, p]);
    expect(fieldOf(e, "owner")).toBe(p);
    const cases: [Record<string, unknown>, string][] = [
      [{ credits: [p] }, "relation_target_model_required"],
      [{ credits: { connect: [o] } }, "relation_target_model_required"],
      [{ credits: [{ id: p }] }, "relation_target_model_required"],
      [{ credits: [{ model: "other", id: x }] }, "relation_target_model_not_allowed"],
      [{ credits: [{ model: "nope", id: x }] }, "relation_target_model_not_allowed"],
      [{ owner: { model: "org", id: o } }, "relation_target_model_not_allowed"],
      [{ credits: [{ model: "person", id: o }] }, "relation_target_not_found"],
      [{ owner: x }, "relation_target_not_found"],
    ];
    for (const [fields, code] of cases) {
      const res = await a.save(e.instance_id, fields);
      expect(res.status, JSON.stringify(fields)).toBe(422);
      expect(res.body.error.code, JSON.stringify(fields)).toBe(code);
    }
    const wrongModel = await a.save(e.instance_id, { credits: [{ model: "person", id: o }] });
    expect(wrongModel.body.error.ids).toEqual([o]);
    const moved = await a.save(e.instance_id, { credits: { move: [{ model: "person", id: p, position: { start: true } }] } });
    expect(fieldOf(moved.body, "credits")).toEqual([p, o]);
    await a.publish(e.instance_id);
    const item = await publicGet<{ data: { relations: Record<string, { instance_id: string; model: string }[]> } }>(a.s.host, "/v1/doc/d");
    expect(item.body.data.relations.credits?.map((r) => [r.model, r.instance_id])).toEqual([["person", p], ["org", o]]);
  });
});


describe("relations: languages", () => {
  it("localized_membership keeps a list per language, checked per language; a shared list is copied to every language", async () => {
    const a = await api(["en", "fr"]);
    const tag = await a.model("tag", [{ key: "name", label: "Name", type: "text", title: true }]);
    const page = await a.model("page", [
      { key: "title", label: "Title", type: "text", title: true },
      { key: "local", label: "Local", type: "relation", relation: "one_to_many", localized_membership: true, targets: [tag] },
      { key: "shared", label: "Shared", type: "relation", relation: "many_to_many", targets: [tag] },
    ], { enableI18n: true });
    const [t0, t1, t2] = [(await a.create(tag, { name: "a" })).instance_id, (await a.create(tag, { name: "b" })).instance_id, (await a.create(tag, { name: "c" })).instance_id];
    const en = await a.create(page, { title: "EN", local: [t0], shared: [t1, t0] });
    const frRes = await a.call<EntryView & Err>("POST", `/entries/${en.instance_id}/languages`, { body: { lang: "fr", fields: { local: [t1] } } });
    expect(frRes.status, JSON.stringify(frRes.body)).toBe(201);
    const fr = frRes.body;
    expect(fieldOf(fr, "local")).toEqual([t1]);
    expect(fieldOf(fr, "shared")).toEqual([t1, t0]);
    expect(fieldOf(await a.get(en.instance_id), "local")).toEqual([t0]);
    // Saving the shared list in French writes it to the English draft too.
    expect(fieldOf((await a.save(fr.instance_id, { shared: { connect: [{ id: t2, position: { start: true } }] } })).body, "shared")).toEqual([t2, t1, t0]);
    expect(fieldOf(await a.get(en.instance_id), "shared")).toEqual([t2, t1, t0]);
    // Taken is per language: another page's French list may hold t0 (held only in English), not t1.
    const other = await a.create(page, { title: "Other EN" });
    const otherFr = await a.call<EntryView & Err>("POST", `/entries/${other.instance_id}/languages`, { body: { lang: "fr", fields: { local: [t0] } } });
    expect(otherFr.status, JSON.stringify(otherFr.body)).toBe(201);
    const clash = await a.save(otherFr.body.instance_id, { local: [t0, t1] });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toMatchObject({ code: "relation_target_taken", targets: [t1], held_by: [fr.instance_id] });
    expect((await a.save(other.instance_id, { local: [t0] })).status).toBe(409);
    expect((await a.save(other.instance_id, { local: [t1, t2] })).status).toBe(200);

    // A writer who may update French only cannot change the shared list (it is the English draft's
    // too); the French list of its own is theirs to change.
    await changeAdminRole(a.s, (p) => ({ ...p, limits: { languages: { update: ["fr"] } } }));
    const enBefore = await a.get(en.instance_id);
    // Resending the list unchanged is fine.
    expect((await a.save(fr.instance_id, { shared: [t2, t1, t0], title: "FR" })).status).toBe(200);
    const denied = await a.save(fr.instance_id, { shared: [t0] });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe("locale_denied");
    expect((await a.get(en.instance_id)).current_version_id).toBe(enBefore.current_version_id);
    expect(fieldOf((await a.save(fr.instance_id, { local: [t1, t2] })).body, "local")).toEqual([t1, t2]);
    expect((await a.get(en.instance_id)).current_version_id).toBe(enBefore.current_version_id);
  });
});

