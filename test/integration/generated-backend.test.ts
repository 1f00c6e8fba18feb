/**
 * The generated backend from the CMS (issue #24, docs/generated-backend.md): the archive through the
 * management API (deterministic, application/gzip), 409 generation_refused with problems, the
 * readiness lists (management and admin host), and who may ask.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ALL_SCOPES } from "../../schema/scopes";
import { signIn, adminCall } from "../helpers/admin-api";
import { addModel, seedSite, type SeededSite } from "../helpers/fixtures";
import { changeAdminRole, credential, manage } from "../helpers/manage-api";
import { workerFetch } from "../helpers/worker";

type Problem = { code: string; model: string; field?: string; item?: string; query?: string; detail: string };
type Err = { error: { code: string; problems?: Problem[] } };

async function site(): Promise<{ s: SeededSite; token: string; authorId: string }> {
  const s = await seedSite({ languages: ["en", "fr"] });
  const author = await addModel(s.ctx(), { slug: "author", name: "Author", fields: [{ key: "name", label: "Name", type: "text", required: true, title: true }] });
  const token = await credential(s);
  for (const [slug, name] of [["ada", "Ada"], ["grace", "Grace"]] as const) {
    const created = await manage<{ instance_id: string }>(token, "POST", "/entries", { body: { model_id: author.id, slug, fields: { name } } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await manage(token, "POST", `/entries/${created.body.instance_id}/publish`, { body: {} })).status).toBe(200);
  }
  return { s, token, authorId: author.id };
}

async function archive(token: string): Promise<{ status: number; type: string | null; disposition: string | null; bytes: Uint8Array }> {
  const response = await workerFetch("http://api.example.test/api/manage/v1/generated-backend", { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, type: response.headers.get("content-type"), disposition: response.headers.get("content-disposition"), bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** The file names and texts of a .tar.gz (ustar, as the generator writes it). */
async function untar(bytes: Uint8Array): Promise<Map<string, string>> {
  const tar = new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
  const files = new Map<string, string>();
  const text = (from: number, to: number) => new TextDecoder().decode(tar.subarray(from, to)).replace(/\0.*$/s, "");
  for (let at = 0; at + 512 <= tar.length; ) {
    const name = text(at, at + 100);
    if (name === "") break;
    const prefix = text(at + 345, at + 500);
    const size = parseInt(text(at + 124, at + 136), 8);
    files.set(prefix ? `${prefix}/${name}` : name, new TextDecoder().decode(tar.subarray(at + 512, at + 512 + size)));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

describe("GET /generated-backend", () => {
  it("answers the site's backend as a deterministic .tar.gz with its published rows", async () => {
    const { s, token } = await site();
    const first = await archive(token);
    expect(first.status).toBe(200);
    expect(first.type).toBe("application/gzip");
    expect(first.disposition).toBe(`attachment; filename="${s.site.slug}-backend.tar.gz"`);
    const second = await archive(token);
    expect([...second.bytes]).toEqual([...first.bytes]);
    const files = await untar(first.bytes);
    const root = `${s.site.slug}-backend`;
    for (const path of ["package.json", "package-lock.json", "README.md", "tsconfig.json", "wrangler.jsonc", "openapi.json", "migrations/0001_schema.sql", "access/read-tokens.json", "access/operations.json", "src/access-config-rules.js", "src/media-original.ts", "src/schema.ts"]) {
      expect(files.has(`${root}/${path}`), path).toBe(true);
    }
    const rows = JSON.parse(files.get(`${root}/data/author.json`) ?? "[]") as { slug: string; name: string }[];
    expect(rows.map((r) => [r.slug, r.name]).sort()).toEqual([["ada", "Ada"], ["grace", "Grace"]]);
    expect(JSON.parse(files.get(`${root}/access/read-tokens.json`) ?? "{}")).toEqual({ version: 1, site: s.site.id, tokens: [] });
    const openapi = JSON.parse(files.get(`${root}/openapi.json`) ?? "{}") as { openapi: string; paths: Record<string, Record<string, { operationId: string }>> };
    expect(openapi.openapi).toBe("3.1.0");
    expect(openapi.paths["/api/author"]?.get?.operationId).toBe("Author.findMany");
  });

  it("refuses with 409 generation_refused listing the problems, which readiness lists too", async () => {
    const { s, token, authorId } = await site();
    expect((await manage<{ problems: Problem[] }>(token, "GET", "/generation-readiness")).body).toEqual({ problems: [] });
    // A definition from an older writer: a field type the generator does not know.
    await env.DB.prepare("UPDATE models SET definition = json_set(definition, '$.fields[#]', json(?)) WHERE id = ?")
      .bind(JSON.stringify({ id: "holo", key: "holo", label: "Holo", type: "hologram" }), authorId)
      .run();
    const readiness = await manage<{ problems: Problem[] }>(token, "GET", "/generation-readiness");
    expect(readiness.status).toBe(200);
    expect(readiness.body.problems).toEqual([expect.objectContaining({ code: "unsupported_field_type", model: "author", field: "holo" })]);
    const refused = await manage<Err>(token, "GET", "/generated-backend");
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("generation_refused");
    expect(refused.body.error.problems).toEqual(readiness.body.problems);
    // The admin host tells the same, for the site X-Site-Id names only.
    const session = await signIn((await env.DB.prepare("SELECT email FROM persons WHERE id = ?").bind(s.adminId).first<{ email: string }>())?.email ?? "");
    const admin = await adminCall<{ problems: Problem[] }>(session, "GET", `/api/sites/${s.site.id}/generation-readiness`, { siteId: s.site.id });
    expect(admin.status).toBe(200);
    expect(admin.body.problems).toEqual(readiness.body.problems);
    const other = await seedSite();
    const elsewhere = await adminCall<Err>(session, "GET", `/api/sites/${other.site.id}/generation-readiness`, { siteId: s.site.id });
    expect(elsewhere.status).toBe(404);
  });

  it("walks published content for content-level problems, on both hosts", async () => {
    const { s, token, authorId } = await site();
    const clean = await manage<{ problems: Problem[]; page: { items: number; next_cursor: string | null } }>(token, "GET", "/generation-readiness/content");
    expect(clean.body).toEqual({ problems: [], page: { items: 2, next_cursor: null } });
    // A published value that no longer fits its column (written by an older writer).
    const version = await env.DB.prepare("SELECT e.published_version_id AS id, e.translation_group_id AS g FROM entries e WHERE e.site_id = ? AND e.slug = 'ada'").bind(s.site.id).first<{ id: string; g: string }>();
    const field = await env.DB.prepare("SELECT json_extract(definition, '$.fields[0].id') AS id FROM models WHERE id = ?").bind(authorId).first<{ id: string }>();
    await env.DB.prepare("UPDATE versions SET fields = json_set(fields, '$.' || ?, 42) WHERE id = ?").bind(field?.id, version?.id).run();
    const content = await manage<{ problems: Problem[] }>(token, "GET", "/generation-readiness/content");
    expect(content.body.problems).toEqual([expect.objectContaining({ code: "unsupported_value_type", model: "author", field: "name", item: version?.g })]);
    const refused = await manage<Err>(token, "GET", "/generated-backend");
    expect(refused.status).toBe(409);
    expect(refused.body.error.problems?.map((p) => p.code)).toEqual(["unsupported_value_type"]);
    const session = await signIn((await env.DB.prepare("SELECT email FROM persons WHERE id = ?").bind(s.adminId).first<{ email: string }>())?.email ?? "");
    const admin = await adminCall<{ problems: Problem[] }>(session, "GET", `/api/sites/${s.site.id}/generation-readiness/content`, { siteId: s.site.id });
    expect(admin.body.problems).toEqual(content.body.problems);
    expect((await manage<Err>(token, "GET", "/generation-readiness/content?cursor=nonsense")).status).toBe(400);
  });

  it("tells whole-model problems from the identity index (model-unique values read out of the stored JSON)", async () => {
    const { s, token, authorId } = await site();
    // The author's name becomes unique within the model, and both published authors say "Ada".
    await env.DB.prepare("UPDATE models SET definition = json_set(definition, '$.fields[0].unique', 'model') WHERE id = ?").bind(authorId).run();
    const field = await env.DB.prepare("SELECT json_extract(definition, '$.fields[0].id') AS id FROM models WHERE id = ?").bind(authorId).first<{ id: string }>();
    const versions = await env.DB.prepare("SELECT e.published_version_id AS id, e.translation_group_id AS g FROM entries e WHERE e.site_id = ? AND e.model_id = ? ORDER BY e.translation_group_id").bind(s.site.id, authorId).all<{ id: string; g: string }>();
    for (const version of versions.results) await env.DB.prepare("UPDATE versions SET fields = json_set(fields, '$.' || ?, 'Ada') WHERE id = ?").bind(field?.id, version.id).run();
    const content = await manage<{ problems: Problem[] }>(token, "GET", "/generation-readiness/content");
    expect(content.status).toBe(200);
    expect(content.body.problems).toEqual([expect.objectContaining({ code: "duplicate_row_identity", model: "author", field: "name", item: versions.results[1]?.g })]);
    const refused = await manage<Err>(token, "GET", "/generated-backend");
    expect(refused.body.error.problems?.map((p) => p.code)).toEqual(["duplicate_row_identity"]);
  });

  it("refuses a saved query naming a private field (saved_query_private_field) until the query is removed or the field is public again", async () => {
    const { s, token, authorId } = await site();
    const book = await addModel(s.ctx(), {
      slug: "book",
      name: "Book",
      fields: [
        { key: "title", label: "Title", type: "text", required: true, title: true },
        { key: "note", label: "Note", type: "text" },
        { key: "author", label: "Author", type: "relation", targets: [authorId] },
      ],
    });
    const byAuthor = await manage<{ id: string }>(token, "POST", "/saved-queries", { body: { name: "by-author", model_id: book.id, filters: [{ kind: "relation", field: "author", value: "x" }], fields: ["title"] } });
    const withNote = await manage<{ id: string }>(token, "POST", "/saved-queries", { body: { name: "with-note", model_id: book.id, fields: ["title", "note"] } });
    expect([byAuthor.status, withNote.status]).toEqual([201, 201]);
    // The CMS refuses making them private while the queries name them (409 model_has_bound_queries,
    // test/integration/saved-queries.test.ts); a definition from an older writer or a hand-edited
    // database can still hold it, and generation reads definitions as stored.
    await env.DB.prepare("UPDATE models SET definition = json_set(definition, '$.fields[1].private', json('true'), '$.fields[2].private', json('true')) WHERE id = ?").bind(book.id).run();
    const readiness = await manage<{ problems: Problem[] }>(token, "GET", "/generation-readiness");
    expect(readiness.body.problems.map((p) => [p.code, p.model, p.field, p.query])).toEqual([
      ["saved_query_private_field", "book", "author", "by-author"],
      ["saved_query_private_field", "book", "note", "with-note"],
    ]);
    expect(readiness.body.problems[0]?.detail).toContain("filters on it");
    expect(readiness.body.problems[1]?.detail).toContain("selects it");
    const refused = await manage<Err>(token, "GET", "/generated-backend");
    expect([refused.status, refused.body.error.code]).toEqual([409, "generation_refused"]);
    expect(refused.body.error.problems).toEqual(readiness.body.problems);

    // The query removed: only the other one still refuses.
    expect((await manage(token, "DELETE", `/saved-queries/${withNote.body.id}`)).status).toBe(200);
    const still = await manage<Err>(token, "GET", "/generated-backend");
    expect(still.body.error.problems?.map((p) => [p.code, p.field, p.query])).toEqual([["saved_query_private_field", "author", "by-author"]]);

    // The field made public again through the model API (the private note no query names stays private).
    type Field = { key: string; private?: boolean };
    const read = await manage<{ revision: number; definition: { model: Record<string, unknown>; fields: Field[] } }>(token, "GET", `/models/${book.id}`);
    const fields = read.body.definition.fields.map((f) => (f.key === "author" ? { ...f, private: false } : f));
    expect(fields.find((f) => f.key === "note")?.private).toBe(true);
    const published = await manage(token, "PUT", `/models/${book.id}/definition`, { body: { expected_revision: read.body.revision, definition: { model: read.body.definition.model, fields } } });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect((await manage<{ problems: Problem[] }>(token, "GET", "/generation-readiness")).body).toEqual({ problems: [] });
    const built = await archive(token);
    expect([built.status, built.type]).toEqual([200, "application/gzip"]);
  });

  it("needs settings:write and the creator's site:infra", async () => {
    const { s } = await site();
    const narrow = await credential(s, ALL_SCOPES.filter((scope) => scope !== "settings:write"));
    expect((await manage<Err>(narrow, "GET", "/generated-backend")).body.error.code).toBe("insufficient_scope");
    expect((await manage<Err>(narrow, "GET", "/generation-readiness")).status).toBe(403);
    const token = await credential(s);
    await changeAdminRole(s, (permissions) => ({ ...permissions, system: ((permissions.system as string[] | undefined) ?? []).filter((p) => p !== "site:infra") }));
    const refused = await manage<Err>(token, "GET", "/generated-backend");
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("missing_permission");
    expect((await manage<Err>(token, "GET", "/generation-readiness/content")).body.error.code).toBe("missing_permission");
  });
});

describe("backend read tokens", () => {
  it("issues a token shown once (digest only stored), lists and revokes it, and generation writes the live ones", async () => {
    const { s, token, authorId } = await site();
    const key = `brt-${crypto.randomUUID()}`;
    const created = await manage<{ id: string; token: string | null; models: string[]; replayed?: boolean }>(token, "POST", "/backend-read-tokens", { body: { name: "Front end", models: [authorId] }, key });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.token).toMatch(/^dwb_[A-Za-z0-9_-]{43}$/);
    expect(created.body.models).toEqual([authorId]);
    const stored = await env.DB.prepare("SELECT * FROM backend_read_tokens WHERE id = ?").bind(created.body.id).first<Record<string, unknown>>();
    const digest = [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(created.body.token ?? "")))].map((b) => b.toString(16).padStart(2, "0")).join("");
    expect(stored?.digest).toBe(digest);
    expect(JSON.stringify(stored).includes(created.body.token ?? "")).toBe(false);
    const kept = await env.DB.prepare("SELECT count(*) AS n FROM idempotency_results WHERE body LIKE ?").bind(`%${created.body.token}%`).first<{ n: number }>();
    expect(kept?.n ?? 0).toBe(0);
    const replay = await manage<{ id: string; token: string | null; replayed?: boolean }>(token, "POST", "/backend-read-tokens", { body: { name: "Front end", models: [authorId] }, key });
    expect(replay.status).toBe(201);
    expect(replay.body).toMatchObject({ id: created.body.id, token: null, replayed: true });
    const everything = await manage<{ id: string }>(token, "POST", "/backend-read-tokens", { body: { name: "All", models: ["*"] } });
    expect(everything.status).toBe(201);
    const list = await manage<{ data: Record<string, unknown>[] }>(token, "GET", "/backend-read-tokens");
    expect(list.body.data.map((t) => t.id).sort()).toEqual([everything.body.id, created.body.id].sort());
    for (const t of list.body.data) expect(Object.keys(t).sort()).toEqual(["created_at", "created_by", "id", "models", "name", "revoked_at"]);
    const generated = await untar((await archive(token)).bytes);
    const tokens = JSON.parse(generated.get(`${s.site.slug}-backend/access/read-tokens.json`) ?? "{}") as { tokens: { id: string; digest: string; models: string[] }[] };
    expect(tokens.tokens).toEqual(expect.arrayContaining([{ id: created.body.id, digest, models: ["author"] }, expect.objectContaining({ id: everything.body.id, models: ["*"] })]));
    const revoked = await manage<{ revoked_at: string | null }>(token, "DELETE", `/backend-read-tokens/${created.body.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).not.toBeNull();
    const after = JSON.parse((await untar((await archive(token)).bytes)).get(`${s.site.slug}-backend/access/read-tokens.json`) ?? "{}") as { tokens: { id: string }[] };
    expect(after.tokens.map((t) => t.id)).toEqual([everything.body.id]);
    expect((await manage<Err>(token, "DELETE", "/backend-read-tokens/brt_none")).status).toBe(404);
  });

  it("refuses unknown models, a mixed star, and a creator without site:infra", async () => {
    const { s, token, authorId } = await site();
    const unknown = await manage<Err>(token, "POST", "/backend-read-tokens", { body: { name: "x", models: ["mdl_nope"] } });
    expect([unknown.status, unknown.body.error.code]).toEqual([422, "unknown_model"]);
    const mixed = await manage<Err>(token, "POST", "/backend-read-tokens", { body: { name: "x", models: ["*", authorId] } });
    expect([mixed.status, mixed.body.error.code]).toEqual([400, "invalid_request"]);
    const closed = await manage<Err>(token, "POST", "/backend-read-tokens", { body: { name: "x", models: ["*"], digest: "f".repeat(64) } });
    expect(closed.status).toBe(400);
    await changeAdminRole(s, (permissions) => ({ ...permissions, system: ((permissions.system as string[] | undefined) ?? []).filter((p) => p !== "site:infra") }));
    const denied = await manage<Err>(token, "POST", "/backend-read-tokens", { body: { name: "x", models: ["*"] } });
    expect([denied.status, denied.body.error.code]).toEqual([403, "missing_permission"]);
    expect((await manage<Err>(token, "GET", "/backend-read-tokens")).status).toBe(403);
  });
});
