import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { EntryView } from "../../shared/services/lifecycle";
import { relationDefinitionIssues } from "../../shared/content/relation-definitions";
import * as lifecycle from "../../shared/services/lifecycle";
import { failure, seedSite } from "../helpers/fixtures";
import { api, fieldOf, redefine, setField, tagged, type Err, type ModelRead, type ModelWrite } from "../helpers/relations-api";
import { changeAdminRole, credential, manage } from "../helpers/manage-api";
import { publicGet } from "../helpers/public-api";

describe("relations: kinds declared on the field", () => {
  it("reads old fields as many_to_one / many_to_many, fills multiple from the kind, refuses inconsistent kinds", async () => {
    const a = await api();
    const tag = await a.model("tag", [{ key: "name", label: "Name", type: "text", title: true }]);
    const id = await a.model("post", [
      { key: "one", label: "One", type: "relation", targets: [tag] },
      { key: "many", label: "Many", type: "relation", multiple: true, targets: [tag] },
      { key: "owned", label: "Owned", type: "relation", relation: "one_to_many", targets: [tag] },
    ]);
    const read = await a.call<ModelRead>("GET", `/models/${id}`);
    const owned = read.body.definition.fields.find((f) => f.key === "owned");
    expect(owned).toMatchObject({ relation: "one_to_many", multiple: true });
    const t = await a.create(tag, { name: "x" });
    const post = await a.create(id, { one: t.instance_id, many: [t.instance_id], owned: [t.instance_id] }, { slug: "p" });
    expect(post.fields).toMatchObject({ one: t.instance_id, many: [t.instance_id], owned: [t.instance_id] });

    const bad = [
      { key: "r", label: "R", type: "relation", relation: "one_to_many", multiple: false, targets: [tag] },
      { key: "r", label: "R", type: "relation", relation: "one_to_one", multiple: true, targets: [tag] },
      { key: "r", label: "R", type: "relation", relation: "sideways", targets: [tag] },
      { key: "r", label: "R", type: "text", relation: "one_to_one" },
      { key: "r", label: "R", type: "relation", hierarchy: true, relation: "many_to_many" },
      { key: "r", label: "R", type: "relation", hierarchy: true, targets: [tag] },
      { key: "r", label: "R", type: "relation", localized_membership: true, targets: [tag] },
    ];
    for (const [i, field] of bad.entries()) {
      const res = await a.call<Err>("POST", "/models", { body: { definition: { model: { name: `bad${i}`, slug: `bad${i}` }, fields: [field] } } });
      expect([400, 422], JSON.stringify(field)).toContain(res.status);
      expect(res.body.error.code, JSON.stringify(field)).toBe("invalid_request");
    }
    // localized_membership is refused at apply when the model stops being translated.
    const loc = await a.model("loc", [{ key: "r", label: "R", type: "relation", localized_membership: true, multiple: true, targets: [tag] }], { enableI18n: true });
    const locRead = await a.call<ModelRead>("GET", `/models/${loc}`);
    const off = await a.call<Err>("PUT", `/models/${loc}`, { body: { expected_revision: locRead.body.revision, model: { enableI18n: false } } });
    expect(off.status).toBe(400);
    expect(off.body.error.message).toContain("localized_membership");
  });

  it("component fields cannot author one_to_many, per-language lists or parent links (relationDefinitionIssues)", () => {
    const base = { id: "f1", key: "r", label: "R", type: "relation" as const, targets: ["mdl_x"] };
    expect(relationDefinitionIssues([{ ...base, relation: "one_to_many", multiple: true }], { inComponent: true })).toEqual([
      expect.objectContaining({ code: "relation_type_not_authorable", field: "r" }),
    ]);
    expect(relationDefinitionIssues([{ ...base, relation: "many_to_many", multiple: true, localized_membership: true }], { inComponent: true, i18n: true })[0]?.code).toBe("relation_type_not_authorable");
    expect(relationDefinitionIssues([{ ...base, hierarchy: true }], { inComponent: true })[0]?.code).toBe("relation_type_not_authorable");
    for (const kind of ["one_to_one", "many_to_one", "many_to_many"] as const) {
      expect(relationDefinitionIssues([{ ...base, relation: kind, multiple: kind === "many_to_many" }], { inComponent: true })).toEqual([]);
    }
    expect(relationDefinitionIssues([{ ...base, relation: "one_to_many", multiple: true }], { inComponent: false })).toEqual([]);
  });
});

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

describe("relations: one_to_one and one_to_many targets are held once", () => {
  async function owned() {
    const a = await api();
    const photo = await a.model("photo", [{ key: "name", label: "Name", type: "text", title: true }]);
    const album = await a.model("album", [
      { key: "title", label: "Title", type: "text", title: true },
      { key: "photos", label: "Photos", type: "relation", relation: "one_to_many", targets: [photo] },
      { key: "cover", label: "Cover", type: "relation", relation: "one_to_one", targets: [photo] },
    ]);
    const photos: string[] = [];
    for (const name of ["p0", "p1", "p2"]) photos.push((await a.create(photo, { name })).instance_id);
    return { a, photo, album, photos: photos as [string, string, string] };
  }

  it("refuses a target another item holds (draft or published, not trashed), and moves it only when confirmed", async () => {
    const { a, album, photos } = await owned();
    const [p0, p1, p2] = photos;
    const first = await a.create(album, { title: "First", photos: [p0, p1], cover: p0 });
    const second = await a.create(album, { title: "Second" });
    const taken = await a.save(second.instance_id, { photos: [p2, p1] });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: "relation_target_taken", field: "photos", targets: [p1], held_by: [first.instance_id] });
    const coverTaken = await a.save(second.instance_id, { cover: p0 });
    expect(coverTaken.body.error).toMatchObject({ code: "relation_target_taken", field: "cover", targets: [p0] });
    // The same item may keep its own targets; a new item may not take them either.
    expect((await a.save(first.instance_id, { photos: [p1, p0] })).status).toBe(200);
    const create = await a.call<Err>("POST", "/entries", { body: { model_id: album, fields: { title: "Third", photos: [p0] } } });
    expect(create.body.error.code).toBe("relation_target_taken");
    // The related-from editor asks before taking a target away.
    const unconfirmed = await a.save(second.instance_id, { photos: { connect: [p1], replace: false } });
    expect(unconfirmed.status).toBe(409);
    expect(unconfirmed.body.error).toMatchObject({ code: "related_from_replace_unconfirmed", field: "photos", targets: [p1], held_by: [first.instance_id] });
    const confirmed = await a.save(second.instance_id, { photos: { connect: [p1], replace: true } });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(fieldOf(confirmed.body, "photos")).toEqual([p1]);
    const firstNow = await a.get(first.instance_id);
    expect(fieldOf(firstNow, "photos")).toEqual([p0]);
    expect(firstNow.current_version_id).not.toBe(first.current_version_id);
    // A published holder keeps its link until it is published again: replace is refused.
    await a.publish(first.instance_id);
    const fromPublished = await a.save(second.instance_id, { photos: { connect: [p0], replace: true } });
    expect(fromPublished.status).toBe(409);
    expect(fromPublished.body.error.code).toBe("relation_target_taken");
    // A trashed holder holds nothing.
    const third = await a.create(album, { title: "Third", photos: [p2] });
    expect((await a.call("POST", `/entries/${third.instance_id}/trash`, { body: {} })).status).toBe(200);
    expect((await a.save(second.instance_id, { photos: { connect: [p2] } })).status).toBe(200);
    // …and cannot come back from Trash holding a target taken meanwhile.
    const back = await a.call<Err>("POST", `/entries/${third.instance_id}/restore`, { body: {} });
    expect(back.status).toBe(409);
    expect(back.body.error).toMatchObject({ code: "relation_target_taken", field: "photos", targets: [p2], held_by: [second.instance_id] });
    expect((await a.get(third.instance_id)).trashed_at).not.toBeNull();
  });

  it("two concurrent saves racing for one one_to_many target: one wins, the other 409", async () => {
    const { a, album, photos } = await owned();
    const x = await a.create(album, { title: "X" });
    const y = await a.create(album, { title: "Y" });
    const [rx, ry] = await Promise.all([
      a.call<Err>("PUT", `/entries/${x.instance_id}`, { body: { expected_version_id: x.current_version_id, fields: { photos: [photos[0]] } } }),
      a.call<Err>("PUT", `/entries/${y.instance_id}`, { body: { expected_version_id: y.current_version_id, fields: { photos: [photos[0]] } } }),
    ]);
    expect([rx.status, ry.status].sort()).toEqual([200, 409]);
    expect([rx, ry].find((r) => r.status === 409)?.body.error.code).toBe("relation_target_taken");
    const creates = await Promise.all([0, 1, 2].map((i) => a.call<Err>("POST", "/entries", { body: { model_id: album, fields: { title: `R${i}`, cover: photos[1] } } })));
    expect(creates.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const holders = await env.DB.prepare("SELECT count(DISTINCT source_instance_id) AS n FROM relation_links WHERE site_id = ? AND target_instance_id = ?").bind(a.s.site.id, photos[1]).first<{ n: number }>();
    expect(holders?.n).toBe(1);
  });

  it("the batch's guard refuses a plan whose target was taken after it was checked", async () => {
    const { a, album, photos } = await owned();
    const ctx = a.s.ctx();
    const x = await a.create(album, { title: "GX" });
    const y = await a.create(album, { title: "GY" });
    // Both plans pass their checks; the second commit meets the first's link in its guard.
    const planX = await lifecycle.saveDraft(ctx, { instance_id: x.instance_id, expected_version_id: x.current_version_id ?? "", fields: { photos: [photos[2]] } });
    const planY = await lifecycle.saveDraft(ctx, { instance_id: y.instance_id, expected_version_id: y.current_version_id ?? "", fields: { photos: [photos[2]] } });
    await lifecycle.commitPlan(ctx, planX);
    const refused = await failure(lifecycle.commitPlan(ctx, planY));
    expect(refused.code).toBe("relation_target_taken");
    expect(fieldOf(await a.get(y.instance_id), "photos") ?? []).toEqual([]);
  });
});

describe("relations: hierarchy (parent) links", () => {
  it("never loops: self-parent in one save, a descendant across two saves; roots, reparenting and clearing are ordinary", async () => {
    const a = await api();
    const category = await a.model("category", [
      { key: "title", label: "Title", type: "text", title: true },
      { key: "parent", label: "Parent", type: "relation", hierarchy: true },
    ]);
    const read = await a.call<ModelRead>("GET", `/models/${category}`);
    expect(read.body.definition.fields.find((f) => f.key === "parent")).toMatchObject({ hierarchy: true, targets: [category] });
    const root = await a.create(category, { title: "Root" });
    const child = await a.create(category, { title: "Child", parent: root.instance_id });
    const grand = await a.create(category, { title: "Grand", parent: child.instance_id });
    const self = await a.save(root.instance_id, { parent: root.instance_id });
    expect(self.status).toBe(422);
    expect(self.body.error).toMatchObject({ code: "relation_hierarchy_cycle", field: "parent", targets: [`category:${root.instance_id}`] });
    const under = await a.save(root.instance_id, { parent: grand.instance_id });
    expect(under.status).toBe(422);
    expect(under.body.error).toMatchObject({ code: "relation_hierarchy_cycle", field: "parent", targets: [`category:${grand.instance_id}`] });
    // Two saves: A under B, then B under A.
    const x = await a.create(category, { title: "X" });
    const y = await a.create(category, { title: "Y" });
    expect((await a.save(x.instance_id, { parent: y.instance_id })).status).toBe(200);
    expect((await a.save(y.instance_id, { parent: x.instance_id })).body.error.code).toBe("relation_hierarchy_cycle");
    // Reparent, clear, make a root.
    expect(fieldOf((await a.save(grand.instance_id, { parent: root.instance_id })).body, "parent")).toBe(root.instance_id);
    expect(fieldOf((await a.save(child.instance_id, { parent: null })).body, "parent")).toBeNull();
    expect((await a.save(root.instance_id, { parent: child.instance_id })).status).toBe(200);
    expect((await a.save(child.instance_id, { parent: grand.instance_id })).body.error.code).toBe("relation_hierarchy_cycle");
    // Restoring an old version that would loop is refused as well.
    const versions = await a.call<{ data: { id: string; number: number }[] }>("GET", `/entries/${child.instance_id}/versions`);
    const withRoot = versions.body.data.find((v) => v.number === 1);
    expect(withRoot).toBeDefined();
    const restore = await a.call<Err>("POST", `/entries/${child.instance_id}/versions/${withRoot?.id}/restore`, { body: {} });
    expect(restore.status).toBe(422);
    expect(restore.body.error.code).toBe("relation_hierarchy_cycle");
  });
});

describe("relations: hierarchy guard", () => {
  it("two plans each valid alone, making a loop together: the second commit is refused by its guard", async () => {
    const a = await api();
    const category = await a.model("category", [
      { key: "title", label: "Title", type: "text", title: true },
      { key: "parent", label: "Parent", type: "relation", hierarchy: true },
    ]);
    const x = await a.create(category, { title: "X" });
    const y = await a.create(category, { title: "Y" });
    const ctx = a.s.ctx();
    const planX = await lifecycle.saveDraft(ctx, { instance_id: x.instance_id, expected_version_id: x.current_version_id ?? "", fields: { parent: y.instance_id } });
    const planY = await lifecycle.saveDraft(ctx, { instance_id: y.instance_id, expected_version_id: y.current_version_id ?? "", fields: { parent: x.instance_id } });
    await lifecycle.commitPlan(ctx, planX);
    expect((await failure(lifecycle.commitPlan(ctx, planY))).code).toBe("relation_hierarchy_cycle");
    expect(fieldOf(await a.get(y.instance_id), "parent") ?? null).toBeNull();
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

describe("relations: model apply checks existing content", () => {

  it("refuses a to-one kind while entries hold several targets, a one_ kind while a target is held twice, a hierarchy over loops", async () => {
    const a = await api();
    const tag = await a.model("tag", [{ key: "name", label: "Name", type: "text", title: true }]);
    const post = await a.model("post", [
      { key: "title", label: "Title", type: "text", title: true },
      { key: "tags", label: "Tags", type: "relation", relation: "many_to_many", targets: [tag] },
      { key: "main", label: "Main", type: "relation", relation: "many_to_one", targets: [tag] },
    ]);
    const [t0, t1] = [(await a.create(tag, { name: "a" })).instance_id, (await a.create(tag, { name: "b" })).instance_id];
    const p0 = await a.create(post, { title: "P0", tags: [t0, t1], main: t0 });
    await a.create(post, { title: "P1", tags: [t1], main: t0 });

    const toOne = await redefine(a, post, setField("tags", { relation: "many_to_one", multiple: false }));
    expect(toOne.status).toBe(409);
    expect(toOne.body.error.code).toBe("model_change_blocked");
    expect(toOne.body.error.changes).toEqual([expect.objectContaining({ kind: "relation_kind_changed", field: "tags", affected_count: 1 })]);
    const owned = await redefine(a, post, setField("tags", { relation: "one_to_many" }));
    expect(owned.body.error.changes).toEqual([expect.objectContaining({ kind: "relation_target_shared", field: "tags", affected_count: 1 })]);
    const oneToOne = await redefine(a, post, setField("main", { relation: "one_to_one" }));
    expect(oneToOne.body.error.changes).toEqual([expect.objectContaining({ kind: "relation_target_shared", field: "main", affected_count: 1 })]);
    // Once the content fits, the same change applies, and the new kind is enforced.
    expect((await a.save(p0.instance_id, { tags: [t0] })).status).toBe(200);
    const applied = await redefine(a, post, setField("tags", { relation: "one_to_many" }));
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    const p2 = await a.create(post, { title: "P2" });
    expect((await a.save(p2.instance_id, { tags: [t1] })).body.error.code).toBe("relation_target_taken");

    // A self relation whose links loop cannot become a hierarchy.
    const withParent = await redefine(a, post, (fields) => [...fields, { key: "parent", label: "Parent", type: "relation", targets: [post] }]);
    expect(withParent.status, JSON.stringify(withParent.body)).toBe(200);
    const x = await a.create(post, { title: "X" });
    const y = await a.create(post, { title: "Y", parent: x.instance_id });
    expect((await a.save(x.instance_id, { parent: y.instance_id })).status).toBe(200);
    const hierarchy = await redefine(a, post, setField("parent", { hierarchy: true }));
    expect(hierarchy.status).toBe(409);
    expect(hierarchy.body.error.changes).toEqual([expect.objectContaining({ kind: "relation_hierarchy_cycle", field: "parent", affected_count: 2 })]);
    expect((await a.save(x.instance_id, { parent: null })).status).toBe(200);
    expect((await redefine(a, post, setField("parent", { hierarchy: true }))).status).toBe(200);
    expect((await a.save(x.instance_id, { parent: y.instance_id })).body.error.code).toBe("relation_hierarchy_cycle");
  });
});
