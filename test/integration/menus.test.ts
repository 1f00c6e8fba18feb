import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import * as lifecycle from "../../shared/services/lifecycle";
import { apply, blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage, newKey } from "../helpers/manage-api";
import { publicGet } from "../helpers/public-api";

/** Menus (issue #29 item 3; docs/menus.md), through the management and public APIs. */

type Err = { error: { code: string; issues?: { path: string }[] } };
interface PublicItem {
  label: string;
  url: string | null;
  target: { id: string; model: string; slug: string | null; locale: string } | null;
  children: PublicItem[];
}
interface PublicMenu {
  data: { name: string; locale: string; items: PublicItem[] };
}
interface Menu {
  id: string;
  name: string;
  revision: number;
  created?: boolean;
  replayed?: boolean;
}

async function publishNew(s: SeededSite, modelId: string, fields: Record<string, unknown>) {
  const created = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: modelId, fields }));
  return apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: created.instance_id }));
}

const labels = (items: PublicItem[]): unknown[] => items.map((i) => (i.children.length > 0 ? [i.label, labels(i.children)] : i.label));

describe("menus", () => {
  it("are put per language, replayed, served with published targets resolved, and leave out unpublished and trashed targets", async () => {
    const s = await seedSite();
    const { article, note } = await blogModels(s.ctx());
    const token = await credential(s);
    const about = await publishNew(s, article.id, { title: "About us" });
    const aboutFr = await apply(s.ctx(), lifecycle.addLanguage(s.ctx(), { instance_id: about.instance_id, lang: "fr", fields: { title: "À propos" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: aboutFr.instance_id }));
    const news = await publishNew(s, article.id, { title: "News" });
    const draft = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: article.id, fields: { title: "Draft" } }));
    const secret = await publishNew(s, note.id, { title: "Secret" });

    const key = newKey();
    const body = {
      items: {
        en: [
          { label: "About", target: { kind: "entry", entry_id: about.instance_id }, children: [{ label: "News", target: { kind: "entry", entry_id: news.translation_group_id } }, { label: "Soon", target: { kind: "entry", entry_id: draft.instance_id } }] },
          { label: "Docs", target: { kind: "url", url: "https://docs.example.com/start" } },
          { label: "Contact", target: { kind: "url", url: "/contact" } },
          { label: "Private", target: { kind: "entry", entry_id: secret.instance_id } },
        ],
        fr: [{ label: "À propos", target: { kind: "entry", entry_id: about.instance_id } }],
      },
    };
    const created = await manage<Menu>(token, "PUT", "/menus/main", { key, body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ name: "main", revision: 1, created: true });
    const replay = await manage<Menu>(token, "PUT", "/menus/main", { key, body });
    expect([replay.status, replay.body.replayed]).toEqual([201, true]);

    const en = await publicGet<PublicMenu>(s.host, "/v1/_menus/main");
    expect(en.status).toBe(200);
    expect(labels(en.body.data.items)).toEqual([["About", ["News"]], "Docs", "Contact"]);
    expect(en.body.data.items[0]?.target).toEqual({ id: about.instance_id, model: "article", slug: about.slug, locale: "en" });
    expect(en.body.data.items[1]).toMatchObject({ url: "https://docs.example.com/start", target: null });
    const fr = await publicGet<PublicMenu>(s.host, "/v1/_menus/main?locale=fr");
    expect(fr.body.data).toMatchObject({ locale: "fr", items: [{ label: "À propos", target: { id: aboutFr.instance_id, locale: "fr" } }] });

    // Published later: it appears; unpublished and moved to Trash: it goes.
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: draft.instance_id }));
    expect(labels((await publicGet<PublicMenu>(s.host, "/v1/_menus/main")).body.data.items)).toEqual([["About", ["News", "Soon"]], "Docs", "Contact"]);
    await apply(s.ctx(), lifecycle.unpublishEntry(s.ctx(), { instance_id: news.instance_id }));
    await apply(s.ctx(), lifecycle.trashEntry(s.ctx(), { instance_id: news.instance_id }));
    expect(labels((await publicGet<PublicMenu>(s.host, "/v1/_menus/main")).body.data.items)).toEqual([["About", ["Soon"]], "Docs", "Contact"]);

    const listed = await manage<{ data: Menu[] }>(token, "GET", "/menus");
    expect(listed.body.data.map((m) => m.name)).toEqual(["main"]);
    expect((await manage<Menu>(token, "GET", "/menus/main")).body.revision).toBe(1);
  });

  it("refuses bad languages, URLs, depth, unknown entries, stale revisions and a missing scope, writing nothing; deletes", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const token = await credential(s);
    const leaf = (label: string) => ({ label, target: { kind: "url", url: "/x" } });
    const bad = await manage<Err>(token, "PUT", "/menus/footer", {
      body: {
        items: {
          de: [leaf("Hallo")],
          en: [
            { label: "Bad", target: { kind: "url", url: "javascript:alert(1)" } },
            { label: "Plain", target: { kind: "url", url: "http://example.com" } },
            { label: "Proto", target: { kind: "url", url: "//evil.example" } },
            { label: "Ghost", target: { kind: "entry", entry_id: "ent_nope" } },
          ],
        },
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues?.map((i) => i.path)).toEqual(["items.de", "items.en[0].target.url", "items.en[1].target.url", "items.en[2].target.url", "items"]);
    // Deeper than three levels: refused by the body's shape.
    const deep = await manage<Err>(token, "PUT", "/menus/footer", { body: { items: { en: [{ ...leaf("1"), children: [{ ...leaf("2"), children: [{ ...leaf("3"), children: [leaf("4")] }] }] }] } } });
    expect([deep.status, deep.body.error.code]).toEqual([400, "invalid_request"]);
    expect((await manage<Err>(token, "PUT", "/menus/Bad%20Name", { body: { items: {} } })).status).toBe(400);
    expect((await manage<Err>(token, "PUT", "/menus/footer", { body: { items: { en: [{ label: "", target: { kind: "url", url: "/x" } }] } } })).status).toBe(400);
    // Labels a website shows: 120 characters counted as people count them (an emoji is one), and
    // readable — no control, bidirectional control or lone surrogate reaches a public menu.
    for (const label of ["\u{1f30a}".repeat(121), "a\u0000b", "Home\u202e", "\ud800"]) {
      const refused = await manage<Err>(token, "PUT", "/menus/footer", { body: { items: { en: [leaf(label)] } } });
      expect([refused.status, refused.body.error.code, refused.body.error.issues?.[0]?.path], JSON.stringify(label)).toEqual([400, "invalid_request", "items.en[0].label"]);
    }
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM menus WHERE site_id = ?").bind(s.site.id).first<{ n: number }>();
    expect(rows?.n).toBe(0);

    const reader = await credential(s, ["content:read"]);
    expect((await manage<Err>(reader, "PUT", "/menus/footer", { body: { items: {} } })).body.error.code).toBe("insufficient_scope");
    const e = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: article.id, fields: { title: "T" } }));
    expect((await manage(token, "PUT", "/menus/footer", { body: { items: { en: [{ label: "T", target: { kind: "entry", entry_id: e.instance_id } }] } } })).status).toBe(201);
    const stale = await manage<Err>(token, "PUT", "/menus/footer", { body: { items: {}, expected_revision: 0 } });
    expect([stale.status, stale.body.error.code]).toEqual([409, "menu_changed"]);
    const replaced = await manage<Menu>(token, "PUT", "/menus/footer", { body: { items: { en: [leaf("\u{1f30a}".repeat(120))] }, expected_revision: 1 } });
    expect([replaced.status, replaced.body.revision, replaced.body.created]).toEqual([200, 2, false]);
    expect((await manage(token, "DELETE", "/menus/footer")).status).toBe(200);
    expect((await publicGet(s.host, "/v1/_menus/footer")).status).toBe(404);
    const again = await manage<Err>(token, "DELETE", "/menus/footer");
    expect([again.status, again.body.error.code]).toEqual([404, "menu_not_found"]);
  });
});
