import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { systemClock } from "../../shared/clock";
import { createDb } from "../../shared/db/client";
import { scopedOver, databaseByBinding } from "../../shared/db/site-databases";
import { siteScope } from "../../shared/db/site-scope";
import { findSiteById } from "../../shared/repositories/site-repository";
import { ADMIN, adminCall, type ErrorBody } from "../helpers/admin-api";
import { roleActor, seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { createEntry, mediaModel } from "../helpers/media-usage";
import { accept, sessionOf, tokenOf } from "../helpers/people-api";
import { publicGet } from "../helpers/public-api";
import { rpc } from "../helpers/mcp";
import { setup } from "../helpers/plugin-protocol";
import { pluginCall } from "../helpers/plugins";
import { workerFetch } from "../helpers/worker";
import { ops as opsCall, opsKey, uniqueSlug } from "../helpers/ops-api";

/** The operators' site routes (docs/operations-api.md) on the admin host, with the bearer OPS_TOKEN (vitest.config.ts). */
interface OpsSite {
  id: string;
  slug: string;
  name: string;
  hosts: string[];
  languages: string[];
  default_lang: string;
  database: string;
  suspended: boolean;
  suspended_at: string | null;
  created_at: string;
  figures: { entries: Record<string, number>; media: { files: number; bytes: number }; members: number; last_write_at: string | null };
  replayed?: true;
}

interface Invitation {
  id: string;
  email: string;
  role: { id: string; slug: string; name: string };
  invited_by: string;
  link: string;
}

async function slugOf(token: string, instanceId: string): Promise<string> {
  return (await manage<{ slug: string | null }>(token, "GET", `/entries/${instanceId}`)).body.slug ?? "";
}

/** The operators' API, answers typed as a site unless said otherwise. */
const ops = <T = OpsSite>(method: string, path: string, options: Parameters<typeof opsCall>[2] = {}) => opsCall<T>(method, path, options);
const newKey = opsKey;
const unique = uniqueSlug;

async function createSite(slug = unique("site"), extra: Record<string, unknown> = {}) {
  const res = await ops("POST", "/sites", { body: { slug, name: `Site ${slug}`, hosts: [`${slug}.test`], languages: ["en"], default_lang: "en", ...extra } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** Accepts an operator's invitation link as a new person; answers the person's id. */
async function acceptLink(link: string, email: string): Promise<string> {
  const res = await accept({ token: tokenOf(link), name: "Shop Admin", password: "a long enough password" });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const session = sessionOf(res);
  expect(session.body.person.email).toBe(email);
  return session.body.person.id;
}

/** A SeededSite-like handle for a site the ops API created, acting as `personId` (its administrator). */
async function handleOf(siteId: string, host: string, personId: string): Promise<SeededSite> {
  const site = await findSiteById(createDb(env.DB), siteId);
  if (!site) throw new Error("no site");
  const d1 = scopedOver(env.DB, databaseByBinding(env, "DB"));
  const admin = roleActor(personId, "admin");
  return {
    site,
    host,
    adminId: personId,
    admin,
    ctx: (actor = admin) => ({ db: createDb(d1), d1, scope: siteScope(site.id), site, actor, clock: systemClock }),
    person: () => Promise.reject(new Error("not used")),
  };
}

describe("operators' sites: create, invite, read in public", () => {
  it("creates shop on shop.test with en+de, seeds the four roles; its invited administrator writes; the public API serves it", async () => {
    const created = await ops("POST", "/sites", { body: { slug: "shop", name: "Shop", hosts: ["Shop.Test"], languages: ["en", "de"], default_lang: "en" } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ slug: "shop", name: "Shop", hosts: ["shop.test"], languages: ["en", "de"], default_lang: "en", database: "DB", suspended: false, suspended_at: null });
    expect(created.body.id).toMatch(/^site_/);
    const roles = await env.DB.prepare("SELECT slug FROM roles WHERE site_id = ? AND seeded = 1 ORDER BY slug").bind(created.body.id).all<{ slug: string }>();
    expect(roles.results.map((r) => r.slug)).toEqual(["admin", "author", "editor", "viewer"]);

    // No content yet: the site answers on its host.
    const health = await publicGet<{ ok: boolean; site: string }>("shop.test", "/health");
    expect(health.body).toEqual({ ok: true, site: "shop" });

    const email = "owner@shop.test";
    const invitedKey = newKey();
    const invited = await ops<Invitation>("POST", "/sites/shop/invitations", { body: { email }, key: invitedKey });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    expect(invited.body).toMatchObject({ email, role: { slug: "admin" }, invited_by: "operators" });
    expect(invited.body.link).toMatch(/^http:\/\/admin\.localhost\/invite#dwi_[A-Za-z0-9_-]{43}$/);
    // A replay never shows the link again: its token is stored only as a digest.
    const replay = await ops<Invitation & { replayed?: true }>("POST", "/sites/shop/invitations", { body: { email }, key: invitedKey });
    expect(replay.status).toBe(201);
    expect(replay.body).toMatchObject({ id: invited.body.id, replayed: true });
    expect(replay.body.link).toBeUndefined();
    const claims = await env.DB.prepare("SELECT body FROM ops_claims WHERE key = ?").bind(invitedKey).first<{ body: string }>();
    expect(claims?.body).not.toContain(tokenOf(invited.body.link));
    const personId = await acceptLink(invited.body.link, email);
    const membership = await env.DB.prepare("SELECT r.slug FROM memberships m JOIN roles r ON r.id = m.role_id WHERE m.site_id = ? AND m.person_id = ? AND m.active = 1")
      .bind(created.body.id, personId)
      .first<{ slug: string }>();
    expect(membership?.slug).toBe("admin");

    const s = await handleOf(created.body.id, "shop.test", personId);
    const post = await mediaModel(s, "post");
    const token = await credential(s);
    const entry = await createEntry(token, post, { title: "Opening day" });
    expect((await manage(token, "POST", `/entries/${entry.instance_id}/publish`, { body: {} })).status).toBe(200);
    const item = await publicGet<{ data: { fields: { title: string } } }>("shop.test", `/v1/post/${await slugOf(token, entry.instance_id)}`);
    expect(item.status).toBe(200);
    expect(item.body.data.fields.title).toBe("Opening day");

    const got = await ops("GET", "/sites/shop");
    expect(got.status).toBe(200);
    expect(got.body.figures.entries).toEqual({ published: 1 });
    expect(got.body.figures.members).toBe(1);
    expect(got.body.figures.media).toEqual({ files: 0, bytes: 0 });
    expect(got.body.figures.last_write_at).not.toBeNull();
    expect((await ops("GET", `/sites/${created.body.id}`)).body.slug).toBe("shop");
  });

  it("refuses a taken host (409 host_taken, also the admin host), an unknown database (422), a taken slug (409) and bad bodies (400)", async () => {
    const first = await createSite();
    const slug = unique("dup");
    const taken = await ops<ErrorBody>("POST", "/sites", { body: { slug, name: "x", hosts: [first.hosts[0]], languages: ["en"], default_lang: "en" } });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe("host_taken");
    const admin = await ops<ErrorBody>("POST", "/sites", { body: { slug, name: "x", hosts: ["admin.localhost"], languages: ["en"], default_lang: "en" } });
    expect(admin.body.error.code).toBe("host_taken");
    const database = await ops<ErrorBody>("POST", "/sites", { body: { slug, name: "x", hosts: [`${slug}.test`], languages: ["en"], default_lang: "en", database: "DB_9" } });
    expect(database.status).toBe(422);
    expect(database.body.error.code).toBe("unknown_database");
    const slugTaken = await ops<ErrorBody>("POST", "/sites", { body: { slug: first.slug, name: "x", hosts: [`${slug}.test`], languages: ["en"], default_lang: "en" } });
    expect(slugTaken.status).toBe(409);
    expect(slugTaken.body.error.code).toBe("slug_taken");
    for (const body of [
      { slug: "Bad Slug", name: "x", hosts: [`${slug}.test`], languages: ["en"], default_lang: "en" },
      { slug, name: "x", hosts: ["http://x.test/"], languages: ["en"], default_lang: "en" },
      { slug, name: "x", hosts: [], languages: ["en"], default_lang: "en" },
      { slug, name: "x", hosts: [`${slug}.test`], languages: ["EN!"], default_lang: "en" },
      { slug, name: "x", hosts: [`${slug}.test`], languages: ["en"], default_lang: "en", extra: 1 },
      // A site's name is a name people read (admin lists, Sites screens): readable, 200 characters.
      { slug, name: "Shop\u0000", hosts: [`${slug}.test`], languages: ["en"], default_lang: "en" },
      { slug, name: "Shop\u202e", hosts: [`${slug}.test`], languages: ["en"], default_lang: "en" },
      { slug, name: "\ud800", hosts: [`${slug}.test`], languages: ["en"], default_lang: "en" },
      { slug, name: "\u{1f30a}".repeat(201), hosts: [`${slug}.test`], languages: ["en"], default_lang: "en" },
    ]) {
      const res = await ops<ErrorBody>("POST", "/sites", { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
    // Nothing of the refused sites was written.
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM sites WHERE slug = ?").bind(slug).first<{ n: number }>()).toEqual({ n: 0 });
    // A site on the second database.
    const second = await createSite(unique("two"), { database: "DB_2" });
    expect(second.database).toBe("DB_2");
  });

  it("replays createSite for the same key, refuses the key with another body, and needs a key", async () => {
    const key = newKey();
    const slug = unique("replay");
    const body = { slug, name: "Replay", hosts: [`${slug}.test`], languages: ["en"], default_lang: "en" };
    const first = await ops("POST", "/sites", { body, key });
    expect(first.status).toBe(201);
    const again = await ops("POST", "/sites", { body, key });
    expect(again.status).toBe(201);
    expect(again.body).toEqual({ ...first.body, replayed: true });
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM sites WHERE slug = ?").bind(slug).first<{ n: number }>()).toEqual({ n: 1 });
    const reused = await ops<ErrorBody>("POST", "/sites", { body: { ...body, name: "Other" }, key });
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe("idempotency_key_reused");
    const keyless = await ops<ErrorBody>("POST", "/sites", { body: { ...body, slug: unique("nokey") }, key: null });
    expect(keyless.status).toBe(400);
    // A refusal frees its key: the corrected request runs with it.
    const refusedKey = newKey();
    expect((await ops<ErrorBody>("POST", "/sites", { body: { ...body, database: "DB_9" }, key: refusedKey })).status).toBe(422);
    const slug2 = unique("fixed");
    expect((await ops("POST", "/sites", { body: { ...body, slug: slug2, hosts: [`${slug2}.test`] }, key: refusedKey })).status).toBe(201);
  });

  it("a site named neither by an id nor by a slug is 400 saying how a site is named (probe finding: \"Invalid type: Expected string\")", async () => {
    for (const ref of ["DEMO", "a%20b", "-x"]) {
      const res = await ops<{ error: { code: string; issues: { path: string; message: string }[] } }>("GET", `/sites/${ref}`);
      expect([ref, res.status, res.body.error.code]).toEqual([ref, 400, "invalid_request"]);
      expect(res.body.error.issues).toEqual([{ path: "id", message: "A site is named by its id (site_…) or its slug (lower-case letters, digits and inner hyphens)." }]);
    }
  });

  it("answers 401 without the token or with a wrong one", async () => {
    for (const token of [null, "wrong-token"]) {
      const res = await ops<ErrorBody>("GET", "/sites", { token });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe("unauthorized");
      const write = await ops<ErrorBody>("POST", "/sites", { token, body: { slug: "nope" } });
      expect(write.status).toBe(401);
    }
  });
});

describe("operators' sites: list, hosts", () => {
  it("lists every site with its figures, seeded sites included", async () => {
    const s = await seedSite();
    const post = await mediaModel(s, "post");
    const token = await credential(s);
    const published = await createEntry(token, post, { title: "Out" });
    expect((await manage(token, "POST", `/entries/${published.instance_id}/publish`, { body: {} })).status).toBe(200);
    await createEntry(token, post, { title: "Draft one" });
    const trashed = await createEntry(token, post, { title: "Gone" });
    expect((await manage(token, "POST", `/entries/${trashed.instance_id}/trash`, { body: {} })).status).toBe(200);
    await env.DB.prepare(
      "INSERT INTO media (id, site_id, object_key, kind, file_name, mime_type, byte_length, sha256, created_at, updated_at) VALUES (?, ?, 'k', 'file', 'a.txt', 'text/plain', 1234, 'x', 'x', 'x')",
    )
      .bind(`med_${s.site.id}`, s.site.id)
      .run();
    const list = await ops<{ data: OpsSite[] }>("GET", "/sites");
    expect(list.status).toBe(200);
    const found = list.body.data.find((d) => d.id === s.site.id);
    expect(found).toMatchObject({ slug: s.site.slug, hosts: [s.host], languages: ["en", "fr"], database: "DB", suspended: false, figures: { entries: { published: 1, draft: 1, trashed: 1 }, media: { files: 1, bytes: 1234 }, members: 1 } });
    expect(found?.figures.last_write_at).not.toBeNull();
    expect((await ops<ErrorBody>("GET", "/sites/site_nope")).status).toBe(404);
  });

  it("lists a fleet of more sites than a D1 statement binds parameters (100)", async () => {
    const stamp = Date.now().toString(36);
    const now = new Date().toISOString();
    const ids = Array.from({ length: 120 }, (_, i) => `site_fleet_${stamp}_${i}`);
    await env.DB.batch(
      ids.flatMap((id, i) => [
        env.DB.prepare("INSERT INTO sites (id, slug, name, default_lang, languages, created_at, updated_at) VALUES (?, ?, ?, 'en', '[\"en\"]', ?, ?)").bind(id, `fleet-${stamp}-${i}`, `Fleet ${i}`, now, now),
        env.DB.prepare("INSERT INTO site_hosts (host, site_id) VALUES (?, ?)").bind(`fleet-${stamp}-${i}.test`, id),
      ]),
    );
    const list = await ops<{ data: OpsSite[] }>("GET", "/sites");
    expect(list.status).toBe(200);
    const fleet = list.body.data.filter((d) => ids.includes(d.id));
    expect(fleet).toHaveLength(120);
    expect(fleet.find((d) => d.id === ids[119])?.hosts).toEqual([`fleet-${stamp}-119.test`]);
  });

  it("adds and removes hosts: host_taken, the last host refused (409 last_host), an unserved host 404", async () => {
    const site = await createSite();
    const other = await createSite();
    const extraHost = `${unique("www")}.test`;
    const added = await ops("POST", `/sites/${site.id}/hosts`, { body: { host: extraHost } });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.hosts).toEqual([site.hosts[0], extraHost].sort());
    expect((await publicGet<{ site: string }>(extraHost, "/health")).body.site).toBe(site.slug);
    const taken = await ops<ErrorBody>("POST", `/sites/${site.id}/hosts`, { body: { host: other.hosts[0] } });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe("host_taken");

    const removed = await ops("DELETE", `/sites/${site.id}/hosts/${site.hosts[0]}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.hosts).toEqual([extraHost]);
    expect((await publicGet(site.hosts[0] ?? "", "/health")).status).toBe(404);
    const last = await ops<ErrorBody>("DELETE", `/sites/${site.id}/hosts/${extraHost}`);
    expect(last.status).toBe(409);
    expect(last.body.error.code).toBe("last_host");
    const unserved = await ops<ErrorBody>("DELETE", `/sites/${site.id}/hosts/${other.hosts[0]}`);
    expect(unserved.status).toBe(404);
  });
});

describe("operators' sites: suspend and resume", () => {
  it("suspended: public 404, management 403 site_suspended, admin read-only; resumed: all back, nothing deleted", async () => {
    const s = await seedSite();
    const post = await mediaModel(s, "post");
    const token = await credential(s);
    const entry = await createEntry(token, post, { title: "Still here" });
    expect((await manage(token, "POST", `/entries/${entry.instance_id}/publish`, { body: {} })).status).toBe(200);
    const path = `/v1/post/${await slugOf(token, entry.instance_id)}`;
    expect((await publicGet(s.host, path)).status).toBe(200);
    const signIn = await workerFetch(`${ADMIN}/api/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: `${s.site.slug}@example.test`, password: "correct horse" }) });
    const sessionBody = (await signIn.json()) as { csrf_token: string };
    const cookie = /dw_session=([^;]+)/.exec(signIn.headers.get("set-cookie") ?? "")?.[1] ?? "";
    const session = { cookie: `dw_session=${cookie}`, secret: cookie, csrf: sessionBody.csrf_token, body: sessionBody as never };

    const suspended = await ops("POST", `/sites/${s.site.id}/suspend`, { body: {} });
    expect(suspended.status, JSON.stringify(suspended.body)).toBe(200);
    expect(suspended.body.suspended).toBe(true);
    expect(suspended.body.suspended_at).not.toBeNull();

    expect((await publicGet(s.host, path)).status).toBe(404);
    expect((await publicGet(s.host, "/health")).status).toBe(404);
    const read = await manage<ErrorBody>(token, "GET", `/entries/${entry.instance_id}`);
    expect(read.status).toBe(403);
    expect(read.body.error.code).toBe("site_suspended");
    const write = await manage<ErrorBody>(token, "POST", "/entries", { body: { model_id: post.id, fields: { title: "No" } } });
    expect(write.status).toBe(403);
    expect(write.body.error.code).toBe("site_suspended");
    // The admin reads, and refuses writes.
    const adminRead = await adminCall(session, "GET", "/api/invitations", { siteId: s.site.id });
    expect(adminRead.status).toBe(200);
    const adminWrite = await adminCall<ErrorBody>(session, "POST", "/api/invitations", { siteId: s.site.id, body: { email: "x@example.test", role_id: "role_x" } });
    expect(adminWrite.status).toBe(403);
    expect(adminWrite.body.error.code).toBe("site_suspended");
    // The operators cannot invite into a suspended site either.
    const invite = await ops<ErrorBody>("POST", `/sites/${s.site.id}/invitations`, { body: { email: "late@example.test" } });
    expect(invite.body.error.code).toBe("site_suspended");
    // Suspending again answers the site as it is.
    expect((await ops("POST", `/sites/${s.site.id}/suspend`, { body: {} })).body.suspended_at).toBe(suspended.body.suspended_at);

    const resumed = await ops("POST", `/sites/${s.site.id}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ suspended: false, suspended_at: null });
    expect((await publicGet(s.host, path)).status).toBe(200);
    expect((await manage(token, "GET", `/entries/${entry.instance_id}`)).status).toBe(200);
  });

  it("suspended: the plugin protocol answers 403 capability_refused (an outcome code of spec 1), MCP 403 site_suspended; resumed they answer again", async () => {
    const { s, plugin } = await setup();
    const token = await credential(s);
    expect((await pluginCall(plugin.token, "GET", "/context")).status).toBe(200);
    expect((await rpc(s.host, token, "tools/list")).status).toBe(200);
    expect((await ops("POST", `/sites/${s.site.id}/suspend`, { body: {} })).status).toBe(200);
    const context = await pluginCall(plugin.token, "GET", "/context");
    expect(context.status).toBe(403);
    // Spec 1: `outcome` has no extra keys and its code is one of the listed outcome codes.
    expect((context.body as { outcome: unknown }).outcome).toEqual({ code: "capability_refused", message: expect.stringContaining("suspended"), retry: false });
    const tools = await rpc(s.host, token, "tools/list");
    expect(tools.status).toBe(403);
    expect(JSON.stringify(tools.body)).toContain("site_suspended");
    expect((await ops("POST", `/sites/${s.site.id}/resume`, { body: {} })).status).toBe(200);
    expect((await pluginCall(plugin.token, "GET", "/context")).status).toBe(200);
    expect((await rpc(s.host, token, "tools/list")).status).toBe(200);
  });
});
