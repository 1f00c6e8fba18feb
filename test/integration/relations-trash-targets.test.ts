import { describe, expect, it } from "vitest";
import { api, fieldOf, redefine, setField, tagged, type Err } from "../helpers/relations-api";

/*
 * Relations and Trash, a target model taken out of a field, and `replace: true` against the
 * holder's own rules — findings of the black-box probe of issue #13, each kept by a test here.
 */

describe("relation links and Trash, and a target model taken out (black-box probe findings)", () => {
  it("keeps a link to a trashed target through unrelated saves and list edits, and it returns with the target", async () => {
    const { a, tag, article, tags } = await tagged();
    const [t0, t1, t2] = tags as [string, string, string];
    const draftTag = (await a.create(tag, { name: "draft" })).instance_id;
    const e = await a.create(article, { title: "A", tags: [draftTag, t0, t1] });
    expect((await a.call("POST", `/entries/${draftTag}/trash`, { body: {} })).status).toBe(200);

    const titleOnly = await a.save(e.instance_id, { title: "A2" });
    expect(titleOnly.status, JSON.stringify(titleOnly.body)).toBe(200);
    expect(fieldOf(titleOnly.body, "tags")).toEqual([draftTag, t0, t1]);
    // Editing the list keeps the held (trashed) link; linking a trashed item anew is refused.
    const connected = await a.save(e.instance_id, { tags: { connect: [t2] } });
    expect(connected.status, JSON.stringify(connected.body)).toBe(200);
    expect(fieldOf(connected.body, "tags")).toEqual([draftTag, t0, t1, t2]);
    const other = await a.create(article, { title: "B", tags: [t0, t1] });
    const refused = await a.save(other.instance_id, { tags: { connect: [draftTag] } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe("relation_target_not_found");

    expect((await a.call("POST", `/entries/${draftTag}/restore`, { body: {} })).status).toBe(200);
    expect(fieldOf(await a.get(e.instance_id), "tags")).toEqual([draftTag, t0, t1, t2]);
  });

  it("refuses taking a model out of a field's targets while entries link its items (409 model_change_blocked)", async () => {
    const a = await api();
    const org = await a.model("org", [{ key: "name", label: "Name", type: "text", title: true }]);
    const person = await a.model("person", [{ key: "name", label: "Name", type: "text", title: true }]);
    const post = await a.model("post", [
      { key: "title", label: "Title", type: "text", title: true },
      { key: "credits", label: "Credits", type: "relation", relation: "many_to_many", targets: [org, person] },
    ]);
    const o = (await a.create(org, { name: "Org" })).instance_id;
    const p = (await a.create(person, { name: "Pat" })).instance_id;
    const e = await a.create(post, { title: "P", credits: [{ model: "org", id: o }, { model: "person", id: p }] });
    const blocked = await redefine(a, post, setField("credits", { targets: [person] }));
    expect(blocked.status).toBe(409);
    expect(blocked.body.error.code).toBe("model_change_blocked");
    expect(blocked.body.error.changes).toEqual([expect.objectContaining({ kind: "relation_target_model_removed", field: "credits", affected_count: 1 })]);
    expect(fieldOf(await a.get(e.instance_id), "credits")).toEqual([o, p]);
    // Once no entry links an org, the model may go.
    expect((await a.save(e.instance_id, { credits: [{ model: "person", id: p }] })).status).toBe(200);
    const applied = await redefine(a, post, setField("credits", { targets: [person] }));
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
  });
});

describe("replace: true and the holder's own rules", () => {
  it("refuses naming the holder when taking a target would leave it below its minimum (409 relation_target_taken)", async () => {
    const a = await api();
    const tag = await a.model("tag", [{ key: "name", label: "Name", type: "text", title: true }]);
    const box = await a.model("box", [
      { key: "title", label: "Title", type: "text", title: true },
      { key: "kids", label: "Kids", type: "relation", relation: "one_to_many", targets: [tag], validation: { min_items: 2 } },
    ]);
    const [t0, t1, t2] = [(await a.create(tag, { name: "a" })).instance_id, (await a.create(tag, { name: "b" })).instance_id, (await a.create(tag, { name: "c" })).instance_id];
    const holder = await a.create(box, { title: "X", kids: [t0, t1] });
    const res = await a.call<Err>("POST", "/entries", { body: { model_id: box, fields: { title: "Y", kids: { connect: [t1, t2], replace: true } } } });
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.error.code).toBe("relation_target_taken");
    expect(res.body.error.held_by).toEqual([holder.instance_id]);
    expect(res.body.error.holder_issues).toEqual([expect.objectContaining({ path: "kids" })]);
    expect(fieldOf(await a.get(holder.instance_id), "kids")).toEqual([t0, t1]);
  });
});
