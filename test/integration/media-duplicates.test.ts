import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { seedSite } from "../helpers/fixtures";
import { credential, newKey } from "../helpers/manage-api";
import { mediaRows, storedKeys, uploadMedia, type ErrBody, type MediaAnswer, type MediaItemBody } from "../helpers/media-api";
import { png } from "../helpers/media-samples";

type Duplicate = { error: { code: string; existing: MediaItemBody; copies: number } };

describe("media upload duplicates (spec 2 rule 3)", () => {
  it("ask (the default) answers 409 media_duplicate with the existing item and copies, storing nothing", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const bytes = png(2, 2, "dup");
    const first = (await uploadMedia(token, { bytes, name: "a.png" })).body.media;
    for (const fields of [{}, { on_duplicate: "ask" }] as Record<string, string>[]) {
      const again = await uploadMedia<Duplicate>(token, { bytes, name: "other-name.png" }, fields);
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe("media_duplicate");
      expect(again.body.error.existing).toEqual(first);
      expect(again.body.error.copies).toBe(1);
    }
    expect(await mediaRows(s.site.id)).toBe(1);
    expect(await storedKeys(s.site.id)).toHaveLength(1);
  });

  it("use_existing answers 200 with the existing item and reused: true, keeping its folder and storing nothing; a retry replays it", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const bytes = png(2, 2, "reuse");
    const first = (await uploadMedia(token, { bytes, name: "a.png" })).body.media;
    await env.DB.prepare("UPDATE media SET folder_id = 'fld_kept' WHERE id = ?").bind(first.id).run();
    const key = newKey();
    const reused = await uploadMedia(token, { bytes, name: "b.png" }, { on_duplicate: "use_existing", folder_id: "" }, { key });
    expect(reused.status).toBe(200);
    expect(reused.body).toEqual({ media: { ...first, folder_id: "fld_kept" }, reused: true });
    const replay = await uploadMedia(token, { bytes, name: "b.png" }, { on_duplicate: "use_existing", folder_id: "" }, { key });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ ...reused.body, replayed: true });
    expect(await mediaRows(s.site.id)).toBe(1);
    expect(await storedKeys(s.site.id)).toEqual([`${s.site.id}/${first.id}/${first.object_id}`]);
    const events = await env.DB.prepare("SELECT count(*) AS n FROM outbox_events WHERE site_id = ? AND name = 'media.uploaded'").bind(s.site.id).first<{ n: number }>();
    expect(events?.n).toBe(1);
    // Without a match, use_existing stores the file (201).
    const fresh = await uploadMedia<MediaAnswer>(token, { bytes: png(2, 2, "new"), name: "c.png" }, { on_duplicate: "use_existing" });
    expect(fresh.status).toBe(201);
    expect(fresh.body.reused).toBeUndefined();
  });

  it("copy stores a separate item and object; copies then counts both", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const bytes = png(2, 2, "copy");
    const first = (await uploadMedia(token, { bytes, name: "a.png" })).body.media;
    const copy = await uploadMedia(token, { bytes, name: "a-copy.png" }, { on_duplicate: "copy" });
    expect(copy.status).toBe(201);
    expect(copy.body.media.id).not.toBe(first.id);
    expect(copy.body.media.object_id).not.toBe(first.object_id);
    expect(copy.body.media.sha256).toBe(first.sha256);
    expect(await storedKeys(s.site.id)).toHaveLength(2);
    const ask = await uploadMedia<Duplicate>(token, { bytes, name: "a.png" });
    expect(ask.body.error).toMatchObject({ code: "media_duplicate", copies: 2, existing: { id: first.id } });
  });

  it("never matches another site's files", async () => {
    const a = await seedSite();
    const b = await seedSite();
    const bytes = png(3, 3, "shared");
    const inA = await uploadMedia(await credential(a), { bytes, name: "a.png" });
    const inB = await uploadMedia<MediaAnswer | ErrBody>(await credential(b), { bytes, name: "a.png" });
    expect(inA.status).toBe(201);
    expect(inB.status).toBe(201);
    expect(await storedKeys(b.site.id)).toHaveLength(1);
    expect(await storedKeys(a.site.id)).toHaveLength(1);
  });
});
