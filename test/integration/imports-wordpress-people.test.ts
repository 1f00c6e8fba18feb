import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { commit } from "../../shared/db/batch";
import { createDb } from "../../shared/db/client";
import type { Model } from "../../shared/repositories/model-repository";
import { createManagementCredential } from "../../shared/services/credentials/management-credentials";
import { grantMembership, provisionPerson } from "../../shared/services/sites/provision";
import { addModel, fixturePasswordHash, seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { customRole } from "../helpers/people-api";
import { publicGet } from "../helpers/public-api";
import { advanceWhile, allFindings, getJob, newImport, sha256, step, uploadFile, type JobAnswer } from "../helpers/imports-api";
import { workerFetch } from "../helpers/worker";
import { keepItems, withPolylang } from "../helpers/wxr-derive";
import smallExport from "../fixtures/wordpress/small-export.xml?raw";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
type ErrorBody = { error?: { code: string; problems?: { login: string; problem: string }[] } };

async function models(s: SeededSite): Promise<{ category: Model; post: Model }> {
  const category = await addModel(s.ctx(), { slug: "category", name: "Category", fields: [{ key: "title", label: "Title", type: "text", required: true, title: true }] });
  const post = await addModel(s.ctx(), {
    slug: "post",
    name: "Post",
    i18n: true,
    fields: [
      { key: "title", label: "Title", type: "text", required: true, title: true },
      { key: "body", label: "Body", type: "rich_text" },
      { key: "categories", label: "Categories", type: "relation", multiple: true, targets: [category.id] },
    ],
  });
  return { category, post };
}

/**
 * A management credential of a new member holding a custom role with `permissions` (plus
 * site:settings, which making a credential needs; it grants nothing on content or imports).
 */
async function limitedCredential(s: SeededSite, permissions: { models: Record<string, string[]>; system: string[] }): Promise<{ token: string; roleId: string }> {
  permissions = { ...permissions, system: [...permissions.system, "site:settings"] };
  const roleId = await customRole(s, `importer-${Date.now().toString(36)}`, permissions);
  const at = new Date().toISOString();
  const person = await provisionPerson(createDb(env.DB), { email: `importer-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}@example.test`, name: "Importer", password: "pw" }, at, fixturePasswordHash("pw"));
  await commit(env.DB, [...person.statements, grantMembership(createDb(env.DB), s.site.id, person.personId, roleId, at)]);
  const created = await createManagementCredential(s.ctx({ kind: "person", id: person.personId, permissions: permissions as never }), { name: "importer", scopes: ["data:import", "content:read"] });
  return { token: created.token, roleId };
}

/** A GET of the management API with extra headers, answered raw (the artifact's byte ranges). */
const rawGet = (token: string, path: string, headers: Record<string, string> = {}) => workerFetch(`http://api.example.test/api/manage/v1${path}`, { headers: { authorization: `Bearer ${token}`, ...headers } });

describe("WordPress import: principals, history assignments, mapping, Polylang languages, receipt and problem file (small-export.xml)", () => {
  let s: SeededSite;
  let post: Model;
  let category: Model;
  let token: string;
  let id: string;
  let authorPerson: string;

  it("lists the file's authors as principals, proposes a member by e-mail, and records history assignments (refusing unknown authors and non-members)", async () => {
    s = await seedSite({ languages: ["en", "fr"] });
    ({ post, category } = await models(s));
    token = await credential(s);
    authorPerson = (await s.person("author")).id;
    const email = (await env.DB.prepare("SELECT email FROM persons WHERE id = ?").bind(authorPerson).first<{ email: string }>())?.email ?? "";
    // The file's author "author" has the member's address (derived: only the address differs);
    // Polylang's markers: hello-world (en) and foo-child (its French translation); top-level-foo in German, a language the site lacks.
    const file = withPolylang(smallExport.replace("author@example.org", email), {
      "1": { lang: "en", group: "pll_5f1a" },
      "15": { lang: "fr", group: "pll_5f1a" },
      "17": { lang: "de", group: "pll_77b2" },
    });
    const job = await newImport(token);
    id = job.id;
    expect((await uploadFile(token, id, encoder.encode(file))).status).toBe(200);
    expect((await advanceWhile(token, id, ["uploaded", "parsing"])).state).toBe("review");

    type Principals = { principals: { login: string; display_name: string; items: number; person_id: string | null; proposed_person_id: string | null }[]; next_cursor: string | null };
    const principals = await manage<Principals>(token, "GET", `/imports/${id}/principals`);
    expect(principals.status).toBe(200);
    expect(principals.body.next_cursor).toBeNull();
    const byLogin = Object.fromEntries(principals.body.principals.map((p) => [p.login, p]));
    expect(Object.keys(byLogin).sort()).toEqual(["admin", "author", "editor"]);
    expect(byLogin.author).toMatchObject({ items: 1, person_id: null, proposed_person_id: authorPerson });
    expect(byLogin.editor).toMatchObject({ items: 1, proposed_person_id: null });
    expect(byLogin.admin?.items).toBe(9);

    const unknown = await manage<ErrorBody>(token, "PUT", `/imports/${id}/history-assignments`, { body: { assignments: { nobody: authorPerson, editor: "prs_not_a_member" } } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error?.code).toBe("import_mapping_invalid");
    expect(unknown.body.error?.problems?.map((p) => p.login).sort()).toEqual(["editor", "nobody"]);

    const put = await manage<{ assignments: Record<string, string | null> }>(token, "PUT", `/imports/${id}/history-assignments`, { body: { assignments: { author: authorPerson, editor: null } } });
    expect(put.status).toBe(200);
    expect(put.body.assignments).toEqual({ author: authorPerson, editor: null });
    const history = await manage<{ assignments: { login: string; person_id: string | null; kept_as: string }[] }>(token, "GET", `/imports/${id}/history-assignments`);
    expect(history.body.assignments.find((a) => a.login === "author")).toMatchObject({ person_id: authorPerson, kept_as: "person" });
    expect(history.body.assignments.find((a) => a.login === "editor")).toMatchObject({ person_id: null, kept_as: "name" });

    // The mapping as proposed, then chosen (pages and tags left out); the review's approval keeps the assignments.
    type Mapping = { mapping: { proposed: Record<string, string | null>; chosen: Record<string, string | null> | null; fields: Record<string, { categories: string | null }> } };
    const mapping = await manage<Mapping>(token, "GET", `/imports/${id}/mapping`);
    expect(mapping.body.mapping.proposed).toMatchObject({ post: post.id, category: category.id, page: null, tag: null });
    expect(mapping.body.mapping.fields.post?.categories).toBe("categories");
    const bad = await manage<ErrorBody>(token, "PUT", `/imports/${id}/mapping`, { body: { mapping: { post: "mdl_nope", page: null, category: null, tag: null } } });
    expect([bad.status, bad.body.error?.code]).toEqual([422, "import_mapping_invalid"]);
    expect((await manage(token, "PUT", `/imports/${id}/mapping`, { body: { mapping: { post: post.id, page: null, category: category.id, tag: null } } })).status).toBe(200);
    expect((await step(token, id, "wordpress/review", { approve: true })).status).toBe(200);
    expect((await manage<Mapping>(token, "GET", `/imports/${id}/mapping`)).body.mapping.chosen).toMatchObject({ post: post.id, page: null });

    // No receipt while the job can still move.
    const early = await manage<ErrorBody>(token, "GET", `/imports/${id}/artifacts/receipt`);
    expect([early.status, early.body.error?.code]).toEqual([409, "import_state_conflict"]);
  });

  it("writes Polylang translations as languages of one entry, attributes history as assigned, and refuses a language the site lacks", async () => {
    expect((await advanceWhile(token, id, ["review", "writing"], 10)).state).toBe("done");
    const en = await publicGet<{ data: { id: string; locale: string } }>(s.host, "/v1/post/hello-world");
    expect(en.status).toBe(200);
    const fr = await publicGet<{ data: { id: string; locale: string; fields: { title: string } } }>(s.host, "/v1/post/foo-child?locale=fr");
    expect(fr.status).toBe(200);
    expect(fr.body.data.locale).toBe("fr");
    expect(fr.body.data.fields.title).toBe("Foo-child");
    const groups = await env.DB.prepare("SELECT instance_id, lang, translation_group_id FROM entries WHERE site_id = ? AND instance_id IN (?, ?)").bind(s.site.id, en.body.data.id, fr.body.data.id).all<{ lang: string; translation_group_id: string }>();
    expect(groups.results.map((g) => g.lang).sort()).toEqual(["en", "fr"]);
    expect(new Set(groups.results.map((g) => g.translation_group_id)).size).toBe(1);
    // The German post is not written: a finding says why.
    expect((await publicGet(s.host, "/v1/post/top-level-foo")).status).toBe(404);
    const refused = (await allFindings(token, id)).filter((f) => f.code === "item_refused");
    expect(refused.map((f) => f.details.reason)).toEqual(["locale_not_on_site"]);

    // History: "author"'s post names the assigned member; the others name whoever advanced the job (the admin's credential).
    const versionAuthor = async (instanceId: string) => (await env.DB.prepare("SELECT v.created_by FROM entries e JOIN versions v ON v.id = e.current_version_id WHERE e.instance_id = ?").bind(instanceId).first<{ created_by: string }>())?.created_by;
    expect(await versionAuthor(en.body.data.id)).toBe(authorPerson);
    expect(await versionAuthor(fr.body.data.id)).toBe(s.adminId);
  });

  it("reads the receipt and the problem file in byte ranges, each with the whole file's SHA-256", async () => {
    const first = await rawGet(token, `/imports/${id}/artifacts/receipt`, { range: "bytes=0-99" });
    expect(first.status).toBe(206);
    const range = /^bytes 0-99\/(\d+)$/.exec(first.headers.get("content-range") ?? "");
    expect(range).not.toBeNull();
    const total = Number(range?.[1]);
    const digest = first.headers.get("x-content-sha256");
    expect((await first.arrayBuffer()).byteLength).toBe(100);
    // A suffix range reads the last bytes; a range past the end is 416 with the length (RFC 9110).
    const last = await rawGet(token, `/imports/${id}/artifacts/receipt`, { range: "bytes=-5" });
    expect([last.status, last.headers.get("content-range"), (await last.arrayBuffer()).byteLength]).toEqual([206, `bytes ${total - 5}-${total - 1}/${total}`, 5]);
    const past = await rawGet(token, `/imports/${id}/artifacts/receipt`, { range: `bytes=${total}-` });
    expect([past.status, past.headers.get("content-range"), ((await past.json()) as { error: { code: string } }).error.code]).toEqual([416, `bytes */${total}`, "range_not_satisfiable"]);
    // Probe findings: HEAD answers like GET without a body; the strong ETag is the SHA-256; If-Range
    // with it keeps the range, with another tag the whole file is 200; If-None-Match with it is 304.
    const etag = `"${digest ?? ""}"`;
    const head = await workerFetch(`http://api.example.test/api/manage/v1/imports/${id}/artifacts/receipt`, { method: "HEAD", headers: { authorization: `Bearer ${token}`, range: "bytes=0-99" } });
    expect([head.status, head.headers.get("content-length"), head.headers.get("content-range"), head.headers.get("etag"), head.headers.get("accept-ranges"), (await head.arrayBuffer()).byteLength]).toEqual([206, "100", `bytes 0-99/${total}`, etag, "bytes", 0]);
    const kept = await rawGet(token, `/imports/${id}/artifacts/receipt`, { range: "bytes=0-99", "if-range": etag });
    expect([kept.status, (await kept.arrayBuffer()).byteLength]).toEqual([206, 100]);
    const changed = await rawGet(token, `/imports/${id}/artifacts/receipt`, { range: "bytes=0-99", "if-range": '"0000"' });
    const changedBytes = new Uint8Array(await changed.arrayBuffer());
    expect([changed.status, changed.headers.get("content-length"), changedBytes.length, await sha256(changedBytes)]).toEqual([200, String(total), total, digest]);
    const notModified = await rawGet(token, `/imports/${id}/artifacts/receipt`, { range: "bytes=0-99", "if-none-match": etag });
    expect([notModified.status, (await notModified.arrayBuffer()).byteLength]).toEqual([304, 0]);

    // The JSON form (MCP) in two reads; the whole checks against the digest.
    type Chunk = { content_base64: string; offset: number; length: number; total: number; next_offset: number | null; sha256: string; position: number };
    const parts: Uint8Array[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const chunk: { status: number; body: Chunk } = await manage<Chunk>(token, "GET", `/imports/${id}/artifacts/receipt?offset=${offset}&length=${Math.ceil(total / 2)}`);
      expect(chunk.status).toBe(200);
      expect(chunk.body.sha256).toBe(digest);
      // spec 2: both reads answer page and next_page, null outside an export page.
      expect([(chunk.body as Chunk & { page?: null }).page, (chunk.body as Chunk & { next_page?: null }).next_page]).toEqual([null, null]);
      parts.push(Uint8Array.from(atob(chunk.body.content_base64), (c) => c.charCodeAt(0)));
      offset = chunk.body.next_offset;
    }
    const whole = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    parts.reduce((at, p) => (whole.set(p, at), at + p.length), 0);
    expect(whole.length).toBe(total);
    expect(await sha256(whole)).toBe(digest);
    const lines = decoder.decode(whole).trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ type: "receipt", import_id: id, state: "done" });
    const items = lines.slice(1);
    expect(items.find((l) => l.source_key === "15")).toMatchObject({ kind: "post", state: "published", lang: "fr", author: "editor" });
    expect(items.find((l) => l.source_key === "17")).toMatchObject({ kind: "post", state: "skipped" });
    expect(items.filter((l) => l.kind === "author").map((l) => l.state)).toEqual(["principal", "principal", "principal"]);

    const problems = await manage<Chunk>(token, "GET", `/imports/${id}/artifacts/problems`);
    const findings = decoder
      .decode(Uint8Array.from(atob(problems.body.content_base64), (c) => c.charCodeAt(0)))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { code: string; source_key: string | null });
    expect(findings.length).toBe((await getJob(token, id)).progress.findings);
    expect(findings.find((f) => f.code === "item_refused")?.source_key).toBe("17");
    expect(findings.some((f) => f.code === "status_kept_as_draft")).toBe(true);

    expect((await manage<ErrorBody>(token, "GET", `/imports/${id}/artifacts/other`)).status).toBe(400);
    expect((await manage<ErrorBody>(token, "GET", `/imports/${id}/artifacts/receipt?offset=${total}`)).body.error?.code).toBe("range_not_satisfiable");
  });
});

describe("WordPress import: a write step asks the permissions of whoever advances the job", () => {
  it("a member allowed to import but not to create posts advances the admin's approved job: the post is a permission_denied finding, nothing written", async () => {
    const s = await seedSite();
    const { post } = await models(s);
    const admin = await credential(s);
    const job = await newImport(admin);
    expect((await uploadFile(admin, job.id, encoder.encode(keepItems(smallExport, ["1"])))).status).toBe(200);
    await advanceWhile(admin, job.id, ["uploaded", "parsing"]);
    expect((await step(admin, job.id, "wordpress/review", { mapping: { post: post.id, page: null, category: null, tag: null }, approve: true })).status).toBe(200);

    const { token: limited, roleId } = await limitedCredential(s, { models: { "*": ["read"] }, system: ["data:import"] });
    const advanced = await step(limited, job.id, "advance");
    expect(advanced.status).toBe(200);
    expect(advanced.body.import.state).toBe("done");
    const findings = await allFindings(admin, job.id);
    expect(findings.filter((f) => f.code === "permission_denied").map((f) => f.item_seq)).toHaveLength(1);
    expect((await env.DB.prepare("SELECT count(*) AS n FROM entries WHERE site_id = ?").bind(s.site.id).first<{ n: number }>())?.n).toBe(0);
    // Its role loses data:import: the same credential is refused at once (permissions are read now, not at creation).
    await env.DB.prepare("UPDATE roles SET permissions = ?, revision = revision + 1 WHERE id = ?").bind(JSON.stringify({ models: { "*": ["read"] }, system: ["site:settings"] }), roleId).run();
    const refused = await step(limited, job.id, "undo");
    expect([refused.status, (refused.body as JobAnswer).error?.code]).toEqual([403, "missing_permission"]);
  });
});

describe("WordPress import: author logins JavaScript objects already use", () => {
  it("lists, assigns and attributes authors named constructor and toString like any other login", async () => {
    // Probe finding: a login `toString` read the prototype's function as its assigned person (a principal
    // without person_id; a write step binding a function), and `{"constructor": person}` was dropped.
    const s = await seedSite();
    const { post, category } = await models(s);
    const token = await credential(s);
    const person = (await s.person("author")).id;
    const file = smallExport
      .replaceAll("<wp:author_login>editor</wp:author_login>", "<wp:author_login>constructor</wp:author_login>")
      .replaceAll("<dc:creator>editor</dc:creator>", "<dc:creator>constructor</dc:creator>")
      .replaceAll("<wp:author_login>admin</wp:author_login>", "<wp:author_login>toString</wp:author_login>")
      .replaceAll("<dc:creator>admin</dc:creator>", "<dc:creator>toString</dc:creator>");
    const job = await newImport(token);
    expect((await uploadFile(token, job.id, encoder.encode(file))).status).toBe(200);
    expect((await advanceWhile(token, job.id, ["uploaded", "parsing"])).state).toBe("review");
    type Principals = { principals: { login: string; person_id: string | null; items: number }[] };
    const before = await manage<Principals>(token, "GET", `/imports/${job.id}/principals`);
    expect(before.body.principals.find((p) => p.login === "toString")).toMatchObject({ person_id: null, items: 9 });
    expect(before.body.principals.find((p) => p.login === "constructor")).toMatchObject({ person_id: null, items: 1 });
    const put = await manage<{ assignments: Record<string, string | null> }>(token, "PUT", `/imports/${job.id}/history-assignments`, { rawBody: JSON.stringify({ assignments: { constructor: person } }) });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.assignments).toEqual({ constructor: person });
    const after = await manage<Principals>(token, "GET", `/imports/${job.id}/principals`);
    expect(after.body.principals.find((p) => p.login === "constructor")?.person_id).toBe(person);
    expect(after.body.principals.find((p) => p.login === "toString")?.person_id).toBeNull();
    expect((await manage(token, "PUT", `/imports/${job.id}/mapping`, { body: { mapping: { post: post.id, page: null, category: category.id, tag: null } } })).status).toBe(200);
    expect((await step(token, job.id, "wordpress/review", { approve: true })).status).toBe(200);
    expect((await advanceWhile(token, job.id, ["review", "writing"], 10)).state).toBe("done");
    const versionAuthor = async (slug: string) =>
      (await env.DB.prepare("SELECT v.created_by FROM entries e JOIN versions v ON v.id = e.current_version_id WHERE e.site_id = ? AND e.slug = ?").bind(s.site.id, slug).first<{ created_by: string }>())?.created_by;
    expect(await versionAuthor("foo-child")).toBe(person);
    expect(await versionAuthor("hello-world")).toBe(s.adminId);
  });
});
