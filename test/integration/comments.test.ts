import { describe, expect, it } from "vitest";
import * as lifecycle from "../../shared/services/lifecycle";
import { leadingZeroBits, solveChallenge } from "../../shared/services/comments/proof-of-work";
import { apply, blogModels, seedSite } from "../helpers/fixtures";
import { credential, manage, newKey } from "../helpers/manage-api";
import { publicGet } from "../helpers/public-api";
import { workerFetch } from "../helpers/worker";

/** Comments (issue #29 item 5; docs/comments.md): the public post, moderation, deletes and settings. */

type Err = { error: { code: string; comment?: { status: string } } };
interface Challenge {
  data: { challenge: string; difficulty: number; expires_at: string };
}
interface Comment {
  id: string;
  status: string;
  author_name: string;
  body: string;
  translation_group_id: string;
}
interface PublicList {
  data: { id: string; author_name: string; body: string; locale: string }[];
  page: { has_more: boolean; next_cursor: string | null };
}

async function challenge(host: string): Promise<{ challenge: string; nonce: string }> {
  const got = await publicGet<Challenge>(host, "/v1/_comments/challenge");
  expect(got.status, JSON.stringify(got.body)).toBe(200);
  return { challenge: got.body.data.challenge, nonce: await solveChallenge(got.body.data.challenge, got.body.data.difficulty) };
}

async function post(host: string, path: string, body: unknown, address = "203.0.113.7") {
  const response = await workerFetch(`http://${host}${path}`, { method: "POST", headers: { "content-type": "application/json", "cf-connecting-ip": address }, body: JSON.stringify(body) });
  return { status: response.status, headers: response.headers, body: (await response.json()) as { data: { id: string; status: string } } & Err };
}

async function commentsSite(settings: Record<string, unknown> = {}) {
  const s = await seedSite();
  const { article, note } = await blogModels(s.ctx());
  const token = await credential(s);
  const put = await manage<{ comments: { enabled: boolean }; revision: number }>(token, "PUT", "/settings/comments", {
    body: { enabled: true, model_ids: [article.id], moderation: "pending", difficulty: 8, max_length: 500, per_hour: 3, ...settings },
  });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  const created = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: article.id, fields: { title: "Tides" } }));
  const item = await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: created.instance_id }));
  return { s, article, note, token, item };
}

const moderate = (token: string, id: string, status: string, key = newKey()) => manage<Comment & Err>(token, "POST", `/comments/${id}/moderate`, { key, body: { status } });

describe("comments", () => {
  it("are posted with a solved challenge as pending, approved by a moderator, then served; a repeated moderation is a conflict", async () => {
    const { s, token, item } = await commentsSite();
    const path = `/v1/article/${item.slug}/comments`;

    const posted = await post(s.host, path, { author_name: "Ada", body: "Lovely tides.\nThanks!", ...(await challenge(s.host)) });
    expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    expect(posted.body.data.status).toBe("pending");
    // Pending: not served.
    expect((await publicGet<PublicList>(s.host, path)).body.data).toEqual([]);
    const pending = await manage<{ data: Comment[] }>(token, "GET", "/comments?status=pending");
    expect(pending.body.data.map((c) => [c.id, c.author_name, c.body])).toEqual([[posted.body.data.id, "Ada", "Lovely tides.\nThanks!"]]);
    expect((await manage<{ data: Comment[] }>(token, "GET", `/comments?entry_id=${item.instance_id}`)).body.data).toHaveLength(1);

    const key = newKey();
    const approved = await moderate(token, posted.body.data.id, "approved", key);
    expect([approved.status, approved.body.status]).toEqual([200, "approved"]);
    const served = await publicGet<PublicList>(s.host, path);
    expect(served.body.data).toEqual([expect.objectContaining({ id: posted.body.data.id, author_name: "Ada", body: "Lovely tides.\nThanks!", locale: "en" })]);
    // Spec 2 rule 4: repeated after commit (same key), the moderation runs again and answers conflict with the state.
    const again = await moderate(token, posted.body.data.id, "approved", key);
    expect([again.status, again.body.error.code, again.body.error.comment?.status]).toEqual([409, "conflict", "approved"]);

    // Marked as spam: no longer served.
    expect((await moderate(token, posted.body.data.id, "spam")).body.status).toBe("spam");
    expect((await publicGet<PublicList>(s.host, path)).body.data).toEqual([]);

    // Deleted; a repeat (same key) is not_found.
    const delKey = newKey();
    const deleted = await manage<{ deleted: boolean }>(token, "DELETE", `/comments/${posted.body.data.id}`, { key: delKey });
    expect([deleted.status, deleted.body.deleted]).toEqual([200, true]);
    expect((await manage<Err>(token, "DELETE", `/comments/${posted.body.data.id}`, { key: delKey })).body.error.code).toBe("not_found");
    expect((await moderate(token, posted.body.data.id, "approved")).status).toBe(404);
  });

  it("moderation and deletes run again under their key, but refuse the key reused for another request (spec 2 rule 2)", async () => {
    const { s, token, item } = await commentsSite();
    const path = `/v1/article/${item.slug}/comments`;
    const first = await post(s.host, path, { author_name: "Ada", body: "one", ...(await challenge(s.host)) });
    const second = await post(s.host, path, { author_name: "Bo", body: "two", ...(await challenge(s.host)) });
    const key = newKey();
    expect((await moderate(token, first.body.data.id, "approved", key)).body.status).toBe("approved");
    // Another status, or another comment, under the same key: a reuse, nothing written.
    const otherStatus = await moderate(token, first.body.data.id, "spam", key);
    expect([otherStatus.status, otherStatus.body.error.code]).toEqual([409, "idempotency_key_reused"]);
    const otherComment = await moderate(token, second.body.data.id, "approved", key);
    expect([otherComment.status, otherComment.body.error.code]).toEqual([409, "idempotency_key_reused"]);
    const deleteUnderIt = await manage<Err>(token, "DELETE", `/comments/${first.body.data.id}`, { key });
    expect([deleteUnderIt.status, deleteUnderIt.body.error.code]).toEqual([409, "idempotency_key_reused"]);
    const pending = await manage<{ data: Comment[] }>(token, "GET", "/comments?status=pending");
    expect(pending.body.data.map((c) => c.id)).toEqual([second.body.data.id]);
    // The same request again still runs again (rule 4): conflict with the comment's state.
    expect((await moderate(token, first.body.data.id, "approved", key)).body.error.code).toBe("conflict");

    // A refused run frees its key: the corrected request may use it.
    const freed = newKey();
    expect((await moderate(token, first.body.data.id, "approved", freed)).body.error.code).toBe("conflict");
    expect((await moderate(token, first.body.data.id, "rejected", freed)).body.status).toBe("rejected");
    const delKey = newKey();
    expect((await manage<{ deleted: boolean }>(token, "DELETE", `/comments/${second.body.data.id}`, { key: delKey })).body.deleted).toBe(true);
    const reusedDelete = await manage<Err>(token, "DELETE", `/comments/${first.body.data.id}`, { key: delKey });
    expect([reusedDelete.status, reusedDelete.body.error.code]).toEqual([409, "idempotency_key_reused"]);
  });

  it("refuse a used, forged, foreign or unsolved challenge, bad bodies, models without comments and unpublished items", async () => {
    const { s, note, item } = await commentsSite();
    const other = await commentsSite();
    const path = `/v1/article/${item.slug}/comments`;
    const solved = await challenge(s.host);
    expect((await post(s.host, path, { author_name: "A", body: "one", ...solved })).status).toBe(201);
    const reused = await post(s.host, path, { author_name: "A", body: "two", ...solved });
    expect([reused.status, reused.body.error.code]).toEqual([400, "comment_challenge_invalid"]);
    const foreign = await challenge(other.s.host);
    expect((await post(s.host, path, { author_name: "A", body: "three", ...foreign })).body.error.code).toBe("comment_challenge_invalid");
    const fresh = await challenge(s.host);
    // A nonce that does not solve this challenge (a fixed one would, by chance, once in 256 runs).
    let wrong = "zz";
    while ((await leadingZeroBits(`${fresh.challenge}:${wrong}`)) >= 8) wrong += "z";
    expect((await post(s.host, path, { author_name: "A", body: "four", challenge: fresh.challenge, nonce: wrong })).body.error.code).toBe("comment_challenge_invalid");
    expect((await post(s.host, path, { author_name: "A", body: "five", challenge: `${fresh.challenge}x`, nonce: fresh.nonce })).body.error.code).toBe("comment_challenge_invalid");

    for (const bad of [{ author_name: "A", body: "", ...fresh }, { author_name: "A\u0007", body: "x", ...fresh }, { author_name: "A", body: "x".repeat(501), ...fresh }, { author_name: "\u{1f30a}".repeat(81), body: "x", ...fresh }, { author_name: "Admin\u202egnp.exe", body: "x", ...fresh }, { author_name: "A\u200b", body: "x", ...fresh }, { author_name: "A", body: "x", website: "https://spam.example", ...fresh }]) {
      const refused = await post(s.host, path, bad);
      expect([refused.status, refused.body.error.code]).toEqual([400, "invalid_request"]);
    }
    // Nothing of the refused posts was stored: the fresh challenge still serves one comment. Lengths
    // are characters as people count them: 80 emoji are a name, 500 a body (twice as many UTF-16 units).
    expect((await post(s.host, path, { author_name: "\u{1f30a}".repeat(80), body: "\u{1f30a}".repeat(500), ...fresh })).status).toBe(201);

    const secret = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: note.id, fields: { title: "n" } }));
    await apply(s.ctx(), lifecycle.publishEntry(s.ctx(), { instance_id: secret.instance_id }));
    expect((await post(s.host, `/v1/note/${secret.slug}/comments`, { author_name: "A", body: "x", ...(await challenge(s.host)) })).status).toBe(404);
    expect((await post(s.host, "/v1/article/no-such-item/comments", { author_name: "A", body: "x", ...(await challenge(s.host)) })).status).toBe(404);
  });

  it("are limited per client address and hour, and off until enabled", async () => {
    const { s, item } = await commentsSite({ per_hour: 2, moderation: "approved" });
    const path = `/v1/article/${item.slug}/comments`;
    for (const body of ["a", "b"]) expect((await post(s.host, path, { author_name: "A", body, ...(await challenge(s.host)) }, "198.51.100.1")).status).toBe(201);
    const limited = await post(s.host, path, { author_name: "A", body: "c", ...(await challenge(s.host)) }, "198.51.100.1");
    expect([limited.status, limited.body.error.code]).toEqual([429, "rate_limited"]);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another address still posts; the site publishes at once here.
    const elsewhere = await post(s.host, path, { author_name: "B", body: "d", ...(await challenge(s.host)) }, "198.51.100.2");
    expect([elsewhere.status, elsewhere.body.data.status]).toEqual([201, "approved"]);
    const page = await publicGet<PublicList>(s.host, `${path}?limit=2`);
    expect(page.body.data.map((c) => c.body)).toEqual(["a", "b"]);
    const rest = await publicGet<PublicList>(s.host, `${path}?limit=2&cursor=${encodeURIComponent(page.body.page.next_cursor ?? "")}`);
    expect(rest.body.data.map((c) => c.body)).toEqual(["d"]);

    const off = await seedSite();
    expect((await publicGet(off.host, "/v1/_comments/challenge")).status).toBe(404);
  });

  it("settings are checked, shared with the settings revision; moderation needs its scope", async () => {
    const { s, token, item } = await commentsSite();
    const bad = await manage<Err>(token, "PUT", "/settings/comments", { body: { enabled: true, model_ids: ["mdl_nope"], moderation: "pending", difficulty: 8, max_length: 500, per_hour: 3 } });
    expect([bad.status, bad.body.error.code]).toEqual([400, "invalid_request"]);
    const tooEasy = await manage<Err>(token, "PUT", "/settings/comments", { body: { enabled: true, model_ids: [], moderation: "pending", difficulty: 2, max_length: 500, per_hour: 3 } });
    expect(tooEasy.status).toBe(400);
    const read = await manage<{ comments: { enabled: boolean; difficulty: number }; revision: number }>(token, "GET", "/settings/comments");
    expect(read.body.comments).toMatchObject({ enabled: true, difficulty: 8 });
    const stale = await manage<Err>(token, "PUT", "/settings/comments", { body: { enabled: false, model_ids: [], moderation: "pending", difficulty: 8, max_length: 500, per_hour: 3, expected_revision: read.body.revision - 1 } });
    expect(stale.body.error.code).toBe("settings_changed");

    const posted = await post(s.host, `/v1/article/${item.slug}/comments`, { author_name: "A", body: "hi", ...(await challenge(s.host)) });
    const reader = await credential(s, ["content:read"]);
    expect((await moderate(reader, posted.body.data.id, "approved")).body.error.code).toBe("insufficient_scope");
    expect((await manage<Err>(reader, "DELETE", `/comments/${posted.body.data.id}`)).body.error.code).toBe("insufficient_scope");
  });

  it("a browser page of an allowed origin may post (preflight allows POST with content-type)", async () => {
    const { s, token } = await commentsSite();
    await manage(token, "PUT", "/settings/cors", { body: { origins: [{ origin: "https://www.example.com" }] } });
    const preflight = await workerFetch(`http://${s.host}/v1/article/x/comments`, { method: "OPTIONS", headers: { origin: "https://www.example.com", "access-control-request-method": "POST", "access-control-request-headers": "content-type" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toBe("GET, HEAD, POST");
    // Only where readers post: other routes stay read-only.
    const elsewhere = await workerFetch(`http://${s.host}/v1/article`, { method: "OPTIONS", headers: { origin: "https://www.example.com", "access-control-request-method": "POST", "access-control-request-headers": "content-type" } });
    expect(elsewhere.status).toBe(403);
  });
});

