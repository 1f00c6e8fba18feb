import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { adminCall, signIn } from "../helpers/admin-api";
import { blogModels, seedSite } from "../helpers/fixtures";
import { credential, manage, newKey } from "../helpers/manage-api";
import { mcpFetch } from "../helpers/mcp";
import { concat, png, text } from "../helpers/media-samples";
import { newAddress } from "../helpers/oauth";
import { installTestPlugin } from "../helpers/plugins";
import { workerFetch } from "../helpers/worker";

/**
 * Every body is decoded fatally as UTF-8 (issue 22 item 6): bytes that are not UTF-8 are refused
 * with 400 invalid_request and nothing is stored — never replaced with U+FFFD (a folder named
 * "����" was created before). JSON bodies of every surface, and the text fields of a multipart
 * upload, whose runtime parser would otherwise replace them silently.
 */

type Err = { error: { code: string; field?: string } };

/** `{"name":"<bytes>"}` with raw bytes spliced into the string. */
const jsonWith = (key: string, bytes: number[], rest = "") => concat(text(`{"${key}":"ok`), bytes, text(`"${rest}}`));

/** Byte sequences that are not UTF-8: a lone continuation byte, 0xFF, an overlong "/", an encoded surrogate, a cut sequence. */
const NOT_UTF8: number[][] = [[0x80], [0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82]];

async function folderNames(siteId: string): Promise<string[]> {
  const rows = await env.DB.prepare("SELECT name FROM media_folders WHERE site_id = ?").bind(siteId).all<{ name: string }>();
  return rows.results.map((r) => r.name);
}

describe("JSON bodies that are not UTF-8", () => {
  it("management API: 400 invalid_request for each bad sequence, and no folder is created", async () => {
    const s = await seedSite();
    const token = await credential(s);
    for (const bytes of NOT_UTF8) {
      const res = await manage<Err>(token, "POST", "/media/folders", { rawBody: jsonWith("name", bytes) });
      expect(res.status, JSON.stringify({ bytes, body: res.body })).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
    expect(await folderNames(s.site.id)).toEqual([]);
    // The same body in UTF-8, with a real U+FFFD sent as its three bytes, is a folder.
    const fine = await manage(token, "POST", "/media/folders", { rawBody: jsonWith("name", [0xef, 0xbf, 0xbd]) });
    expect(fine.status, JSON.stringify(fine.body)).toBe(201);
    expect(await folderNames(s.site.id)).toEqual(["ok\ufffd"]);
  });

  it("admin: 400 invalid_request", async () => {
    const s = await seedSite();
    const session = await signIn(`${s.site.slug}@example.test`);
    const res = await adminCall<Err>(session, "POST", "/api/management-credentials", { siteId: s.site.id, rawBody: jsonWith("name", [0xff], ',"scopes":[]') });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    // Through the session's management API too (the admin UI's folders).
    const bridged = await adminCall<Err>(session, "POST", "/api/v1/media/folders", { siteId: s.site.id, rawBody: jsonWith("name", [0xff]), headers: { "idempotency-key": newKey() } });
    expect(bridged.status).toBe(400);
    expect(bridged.body.error.code).toBe("invalid_request");
    expect(await folderNames(s.site.id)).toEqual([]);
  });

  it("plugin protocol: 400 invalid_request in the outcome envelope", async () => {
    const s = await seedSite();
    const models = await blogModels(s.ctx());
    const plugin = await installTestPlugin(s, { modelIds: [models.article.id] });
    const response = await workerFetch("http://plugins.example.test/api/plugin/v1/launch/exchange", {
      method: "POST",
      headers: { authorization: `Bearer ${plugin.token}`, "content-type": "application/json" },
      body: jsonWith("code", [0xc0, 0xaf]),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { outcome: { code: string; message: string; retry: boolean } };
    expect(body.outcome).toMatchObject({ code: "invalid_request", retry: false });
    // Refused for its bytes, before the code's own shape is looked at.
    expect(body.outcome.message).toContain("UTF-8");
    // A query value too (probe finding: `model_id=%FF` was read as U+FFFD and answered capability_refused).
    const listed = await workerFetch(`http://plugins.example.test/api/plugin/v1/content?model_id=${models.article.id}%FF`, { headers: { authorization: `Bearer ${plugin.token}` } });
    expect(listed.status).toBe(400);
    expect(((await listed.json()) as { outcome: { code: string } }).outcome.code).toBe("invalid_request");
  });

  it("MCP: 400 with the JSON-RPC parse error", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const res = await mcpFetch<{ error: { code: number } }>(s.host, token, {
      rawBody: concat(text('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_media_folder","arguments":{"name":"'), [0xff], text('"}}}')),
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(-32700);
    expect(await folderNames(s.site.id)).toEqual([]);
  });

  it("OAuth registration: 400 invalid_request, no client registered", async () => {
    const before = await env.DB.prepare("SELECT count(*) AS n FROM oauth_clients").first<{ n: number }>();
    const response = await workerFetch("http://admin.localhost/api/oauth/register", {
      method: "POST",
      headers: { "content-type": "application/json", "cf-connecting-ip": newAddress() },
      body: jsonWith("client_name", [0xed, 0xa0, 0x80], ',"redirect_uris":["http://127.0.0.1:5000/cb"]'),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe("invalid_request");
    const after = await env.DB.prepare("SELECT count(*) AS n FROM oauth_clients").first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
  });
});

describe("multipart text fields that are not UTF-8", () => {
  /** A multipart upload of a PNG with one text field `name` holding raw bytes. */
  function upload(token: string, nameBytes: Uint8Array): Promise<Response> {
    const boundary = "----driftwood-utf8-test";
    const body = concat(
      text(`--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n`),
      nameBytes,
      text(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`),
      // File bytes are never decoded: 0xFF inside the file part is fine.
      concat(png(2, 2), [0xff, 0xfe, 0x80]),
      text(`\r\n--${boundary}--\r\n`),
    );
    return workerFetch("http://api.example.test/api/manage/v1/media", {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "idempotency-key": newKey(), "content-type": `multipart/form-data; boundary=${boundary}` },
      body,
    });
  }

  it("refuses a name field that is not UTF-8 with 400 invalid_request naming the field; stores nothing", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const refused = await upload(token, concat(text("photo"), [0xff], text(".png")));
    const body = (await refused.json()) as Err;
    expect(refused.status, JSON.stringify(body)).toBe(400);
    expect(body.error).toMatchObject({ code: "invalid_request", field: "name" });
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM media WHERE site_id = ?").bind(s.site.id).first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });

  it("refuses a file part whose filename (the name stored without a name field) is not UTF-8; stores nothing", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const boundary = "----driftwood-utf8-filename";
    for (const [i, bytes] of NOT_UTF8.entries()) {
      const body = concat(
        text(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo`),
        bytes,
        text(`.png"\r\nContent-Type: image/png\r\n\r\n`),
        concat(png(3 + i, 2), [0xff]),
        text(`\r\n--${boundary}--\r\n`),
      );
      const refused = await workerFetch("http://api.example.test/api/manage/v1/media", {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "idempotency-key": newKey(), "content-type": `multipart/form-data; boundary=${boundary}` },
        body,
      });
      const answer = (await refused.json()) as Err;
      expect(refused.status, `${JSON.stringify(bytes)} ${JSON.stringify(answer)}`).toBe(400);
      expect(answer.error).toMatchObject({ code: "invalid_request", field: "file" });
    }
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM media WHERE site_id = ?").bind(s.site.id).first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });

  it("accepts the same upload in UTF-8 (a U+FFFD sent as its bytes, and a non-ASCII name)", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const accepted = await upload(token, concat(text("caf\u00e9 \ufffd"), text(".png")));
    const body = (await accepted.json()) as { media: { file_name: string } };
    expect(accepted.status, JSON.stringify(body)).toBe(201);
    expect(body.media.file_name).toBe("caf\u00e9 \ufffd.png");
  });
});

describe("query fields that are not UTF-8 once percent-decoded", () => {
  it("admin streamed upload: a name given as %FF is 400 invalid_request, not stored as U+FFFD; a percent-encoded UTF-8 name is kept", async () => {
    const s = await seedSite();
    const session = await signIn(`${s.site.slug}@example.test`);
    const headers = { cookie: session.cookie, "x-csrf-token": session.csrf, "x-site-id": s.site.id, "content-type": "image/png" };
    for (const [i, name] of ["q%FF.png", "q%C0%AF.png", "q%ED%A0%80.png", "q%E2%82.png"].entries()) {
      const refused = await workerFetch(`http://admin.localhost/api/media/uploads?name=${name}`, { method: "POST", headers: { ...headers, "idempotency-key": newKey() }, body: png(5 + i, 3) });
      const answer = (await refused.json()) as Err;
      expect(refused.status, `${name} ${JSON.stringify(answer)}`).toBe(400);
      expect(answer.error.code).toBe("invalid_request");
    }
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM media WHERE site_id = ?").bind(s.site.id).first<{ n: number }>();
    expect(rows?.n).toBe(0);
    const accepted = await workerFetch(`http://admin.localhost/api/media/uploads?name=caf%C3%A9+%EF%BF%BD.png`, { method: "POST", headers: { ...headers, "idempotency-key": newKey() }, body: png(9, 3) });
    const body = (await accepted.json()) as { media: { file_name: string } };
    expect(accepted.status, JSON.stringify(body)).toBe(201);
    expect(body.media.file_name).toBe("caf\u00e9 \ufffd.png");
  });

  it("management API: a query value that is not UTF-8 is 400 invalid_request", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const refused = await manage<Err>(token, "GET", "/entries?lang=%FF");
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body.error.code).toBe("invalid_request");
  });

  it("public API: a query value that is not UTF-8 is 400 invalid_request, never read as U+FFFD", async () => {
    // Probe finding: `/v1/_redirects/resolve?path=/%ff` answered 200 for the path "/\ufffd".
    const s = await seedSite();
    await blogModels(s.ctx());
    for (const query of ["/v1/_redirects/resolve?path=/%FF", "/v1/_redirects/resolve?path=/caf%C3", "/v1/article?locale=%ED%A0%80", "/v1/article?tag=topic:%80", "/v1/_search?q=%C0%AF"]) {
      const refused = await workerFetch(`http://${s.host}${query}`);
      const body = (await refused.json()) as Err;
      expect(refused.status, `${query} ${JSON.stringify(body)}`).toBe(400);
      expect(body.error.code, query).toBe("invalid_request");
    }
    // UTF-8 escapes stay what they were.
    const resolved = await workerFetch(`http://${s.host}/v1/_redirects/resolve?path=/caf%C3%A9`);
    expect(resolved.status).toBe(200);
    expect(((await resolved.json()) as { data: { path: string } }).data.path).toBe("/caf\u00e9");
  });
});
