import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addModel, blogModels, seedSite } from "../helpers/fixtures";
import { ADMIN, signIn } from "../helpers/admin-api";

async function fetchClient(siteId: string, cookie: string): Promise<Response> {
  return SELF.fetch(`${ADMIN}/api/models/public-client.ts`, { headers: { cookie, "x-site-id": siteId } });
}

describe("GET {admin}/api/models/public-client.ts", () => {
  it("emits a client typed by the site's public models only, and changes when a model changes", async () => {
    const s = await seedSite();
    await blogModels(s.ctx());
    const session = await signIn(`${s.site.slug}@example.test`);
    const res = await fetchClient(s.site.id, session.cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const source = await res.text();
    expect(source).toContain("export interface ArticleFields");
    expect(source).toContain('"title": string | null;');
    expect(source).toContain('"author": RelationRef[];');
    expect(source).toContain('"cover": MediaRef[];');
    expect(source).toContain('export const LOCALES = ["en","fr"] as const;');
    expect(source).not.toContain("internal_note");
    expect(source).not.toContain("NoteFields");
    expect(source).toContain("export function createClient");

    await addModel(s.ctx(), { slug: "event", name: "Event", fields: [{ key: "starts", label: "Starts", type: "datetime" }, { key: "seats", label: "Seats", type: "integer" }] });
    const after = await (await fetchClient(s.site.id, session.cookie)).text();
    expect(after).toContain("export interface EventFields");
    expect(after).toContain('"seats": number | null;');
    expect(after).not.toBe(source);
  });

  it("needs a session and a site the person belongs to", async () => {
    const s = await seedSite();
    const other = await seedSite();
    expect((await fetchClient(s.site.id, "")).status).toBe(401);
    const session = await signIn(`${s.site.slug}@example.test`);
    expect((await fetchClient(other.site.id, session.cookie)).status).toBe(403);
  });
});
