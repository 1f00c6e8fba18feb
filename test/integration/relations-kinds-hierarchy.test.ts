/** Relation kinds and hierarchies: kinds declared on a field, targets held once, parent links and their guard, and model applies over existing content. */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { relationDefinitionIssues } from "../../shared/content/relation-definitions";
import * as lifecycle from "../../shared/services/lifecycle";
import { failure } from "../helpers/fixtures";
import { api, fieldOf, redefine, setField, type Err, type ModelRead } from "../helpers/relations-api";

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
