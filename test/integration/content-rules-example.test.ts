import { describe, expect, it } from "vitest";
import { addModel, seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";

/*
 * docs/content-rules.md, "One model, every rule": the example model is accepted as written (its
 * target placeholders replaced), and an entry of it meets each rule.
 */
type Answer = { model_id?: string; instance_id?: string; current_version_id?: string; error?: { code: string; issues?: { path: string; code?: string }[] } };

function exampleDefinition(personModelId: string) {
  return {
    model: {
      name: "Event", slug: "event", kind: "collection", enableI18n: true,
      unique_combinations: [{ name: "venue_edition", fields: ["venue", "edition"], scope: "model" }],
    },
    fields: [
      { key: "title", label: "Title", type: "text", required: true, title: true, validation: { max_length: 120 } },
      { key: "venue", label: "Venue", type: "text", required: true },
      { key: "edition", label: "Edition", type: "integer", required: true },
      { key: "day", label: "Day", type: "date", required: true },
      { key: "format", label: "Format", type: "select", options: [{ value: "talk", label: "Talk" }, { value: "video", label: "Video" }] },
      { key: "video_url", label: "Video URL", type: "text", required: true, condition: { field: "format", op: "in", value: ["video"] } },
      { key: "series", label: "Series", type: "relation", relation: "many_to_one", targets: [personModelId] },
      { key: "parent", label: "Part of", type: "relation", relation: "many_to_one", hierarchy: true },
      { key: "speakers", label: "Speakers", type: "relation", relation: "many_to_many", targets: [personModelId], validation: { max_items: 6 } },
      { key: "agenda", label: "Agenda", type: "component", multiple: true, fields: [
        { key: "time", label: "Time", type: "text", validation: { pattern: "^[0-2][0-9]:[0-5][0-9]$" } },
        { key: "topic", label: "Topic", type: "text", required: true },
      ] },
      { key: "body", label: "Body", type: "rich_text" },
      { key: "budget_note", label: "Budget note", type: "long_text", private: true },
    ],
  };
}

describe("the content rules example model", () => {
  it("applies, and its entries meet every rule", async () => {
    const s = await seedSite();
    const person = await addModel(s.ctx(), { slug: "person", name: "Person", fields: [{ key: "name", label: "Name", type: "text", required: true, title: true }] });
    const token = await credential(s);
    const created = await manage<Answer>(token, "POST", "/models", { body: { definition: exampleDefinition(person.id) } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const modelId = created.body.model_id ?? "";

    const base = { title: "Harbour talk", venue: "Pier 4", edition: 1, day: "2026-12-01", format: "talk" };
    const first = await manage<Answer>(token, "POST", "/entries", { body: { model_id: modelId, slug: "harbour-talk", fields: { ...base, agenda: [{ time: "09:30", topic: "Tides" }] } } });
    expect(first.status, JSON.stringify(first.body)).toBe(201);

    // The unique combination (venue, edition) is taken; a bad agenda time names its full path.
    const clash = await manage<Answer>(token, "POST", "/entries", { body: { model_id: modelId, slug: "clash", fields: { ...base, title: "Other" } } });
    expect(clash.status).toBe(422);
    expect(clash.body.error?.issues?.some((i) => i.code === "unique_taken")).toBe(true);
    const badTime = await manage<Answer>(token, "POST", "/entries", { body: { model_id: modelId, slug: "bad-time", fields: { ...base, edition: 2, agenda: [{ time: "9h", topic: "x" }] } } });
    expect(badTime.status).toBe(422);
    expect(badTime.body.error?.issues?.map((i) => i.path)).toEqual(["agenda[0].time"]);

    // A hierarchy link to itself loops.
    const self = await manage<Answer>(token, "PUT", `/entries/${first.body.instance_id}`, { body: { expected_version_id: first.body.current_version_id, fields: { parent: first.body.instance_id } } });
    expect(self.status).toBe(422);
    expect(self.body.error?.code).toBe("relation_hierarchy_cycle");

    // video_url is required only while format is video (checked on publish in the default mode).
    const video = await manage<Answer>(token, "POST", "/entries", { body: { model_id: modelId, slug: "video", fields: { ...base, edition: 3, format: "video" } } });
    expect(video.status).toBe(201);
    const publishVideo = await manage<Answer>(token, "POST", `/entries/${video.body.instance_id}/publish`, { body: {} });
    expect(publishVideo.status).toBe(422);
    expect(publishVideo.body.error?.issues?.map((i) => i.path)).toEqual(["video_url"]);
    const publishTalk = await manage<Answer>(token, "POST", `/entries/${first.body.instance_id}/publish`, { body: {} });
    expect(publishTalk.status, JSON.stringify(publishTalk.body)).toBe(200);
  });
});
