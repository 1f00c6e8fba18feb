import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ALL_SCOPES } from "../../schema/scopes";
import * as lifecycle from "../../shared/services/lifecycle";
import { createManagementCredential } from "../../shared/services/credentials/management-credentials";
import { adminCall, type AdminSession } from "../helpers/admin-api";
import { apply, blogModels, roleActor, seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage, newKey, type ManageResult } from "../helpers/manage-api";
import { toolResult } from "../helpers/mcp";
import { adminSession, customRole, member } from "../helpers/people-api";
import { delegationFor, expectEnvelope } from "../helpers/plugin-protocol";
import { installTestPlugin, pluginCall } from "../helpers/plugins";

/**
 * Spec 3, "Editing locks" (docs/content-rules.md): every write of an entry language — save, add
 * language, workflow move, assignment, version restore, restore from Trash, (forced) publish and
 * unpublish, Trash, purge, an applied proposal, a plugin transition — meets one guard in the site's
 * object, whatever the surface and the caller: another person's live lease → 423 `locked` and
 * nothing written; the holder's own write with its token passes; a writer whose lease was taken
 * over → 423 `lock_lost`; no live lease → the write passes.
 */

type Err = { error: { code: string } };
type Lease = { lease: { instance_id: string; token: string; holder: string } };

interface People {
  s: SeededSite;
  article: string;
  /** The site's admin (person A) and their credential. */
  a: string;
  /** A second administrator (person B), their credential and session. */
  b: string;
  bId: string;
  bSession: AdminSession;
}

async function people(): Promise<People> {
  const s = await seedSite();
  const { article } = await blogModels(s.ctx());
  const a = await credential(s);
  const other = await member(s, "admin");
  const b = await createManagementCredential(s.ctx(roleActor(other.id, "admin")), { name: "b", scopes: [...ALL_SCOPES] });
  return { s, article: article.id, a, b: b.token, bId: other.id, bSession: other.session };
}

let slugs = 0;
/** A new article in English (and French when asked), written directly by the admin. */
async function item(p: People, options: { fr?: boolean; published?: boolean; versions?: number } = {}): Promise<{ en: string; fr: string | null; first: string }> {
  const ctx = p.s.ctx();
  const en = await apply(ctx, lifecycle.createEntry(ctx, { model_id: p.article, lang: "en", slug: `item-${slugs++}`, fields: { title: "Tide" } }));
  let current = en.current_version_id ?? "";
  for (let i = 1; i < (options.versions ?? 1); i++) {
    current = (await apply(ctx, lifecycle.saveDraft(ctx, { instance_id: en.instance_id, expected_version_id: current, fields: { summary: `v${i}` } }))).current_version_id ?? "";
  }
  if (options.published) await apply(ctx, lifecycle.publishEntry(ctx, { instance_id: en.instance_id }));
  const fr = options.fr ? (await apply(ctx, lifecycle.addLanguage(ctx, { instance_id: en.instance_id, lang: "fr" }))).instance_id : null;
  return { en: en.instance_id, fr, first: en.current_version_id ?? "" };
}

async function currentVersion(instanceId: string): Promise<string> {
  const row = await env.DB.prepare("SELECT current_version_id FROM entries WHERE instance_id = ?").bind(instanceId).first<{ current_version_id: string }>();
  return row?.current_version_id ?? "";
}

/** Everything a refused entry write could have changed: the site's entries, versions, proposals, events and audit rows. */
async function written(siteId: string): Promise<unknown> {
  const all = async (sql: string) => (await env.DB.prepare(sql).bind(siteId).all()).results;
  return {
    entries: await all("SELECT * FROM entries WHERE site_id = ? ORDER BY instance_id"),
    versions: await all("SELECT id FROM versions WHERE site_id = ? ORDER BY id"),
    proposals: await all("SELECT id, state, revision FROM entry_proposals WHERE site_id = ? ORDER BY id"),
    events: await all("SELECT id FROM outbox_events WHERE site_id = ? ORDER BY id"),
    // A save refused with lock_lost keeps its text as the writer's recovery draft (docs/recovery-drafts.md): not an entry write.
    audit: await all("SELECT count(*) AS n FROM audit_log WHERE site_id = ? AND action != 'recovery_draft.keep'"),
  };
}

async function takeLease(token: string, instanceId: string): Promise<string> {
  const taken = await manage<Lease>(token, "POST", `/entries/${instanceId}/editing`, { body: {}, key: null });
  expect(taken.status, JSON.stringify(taken.body)).toBe(201);
  return taken.body.lease.token;
}

async function takeOver(token: string, instanceId: string): Promise<string> {
  const over = await manage<Lease>(token, "POST", `/entries/${instanceId}/editing/take-over`, { body: {}, key: null });
  expect(over.status, JSON.stringify(over.body)).toBe(200);
  return over.body.lease.token;
}

const editing = (token?: string) => (token ? { headers: { "x-editing-token": token } } : {});

/** One write kind of spec 3: a fresh item, the language whose lease holds the write off, and the write. */
interface Kind {
  name: string;
  ok: number;
  prepare: (p: People) => Promise<{ leased: string; write: (credential: string, token?: string) => Promise<ManageResult<unknown>> }>;
}

const KINDS: Kind[] = [
  {
    name: "save",
    ok: 200,
    prepare: async (p) => {
      const { en } = await item(p);
      return { leased: en, write: async (c, t) => manage(c, "PUT", `/entries/${en}`, { body: { expected_version_id: await currentVersion(en), fields: { summary: "saved" } }, ...editing(t) }) };
    },
  },
  {
    name: "add language (lease on the source language)",
    ok: 201,
    prepare: async (p) => {
      const { en } = await item(p);
      return { leased: en, write: (c, t) => manage(c, "POST", `/entries/${en}/languages`, { body: { lang: "fr" }, ...editing(t) }) };
    },
  },
  {
    name: "workflow move",
    ok: 200,
    prepare: async (p) => {
      const { en } = await item(p);
      return { leased: en, write: (c, t) => manage(c, "POST", `/entries/${en}/move`, { body: { to: "in_review", expected_workflow_revision: 0 }, ...editing(t) }) };
    },
  },
  {
    name: "assignment",
    ok: 200,
    prepare: async (p) => {
      const { en } = await item(p);
      return { leased: en, write: (c, t) => manage(c, "PUT", `/entries/${en}/assignment`, { body: { assignee_ids: [p.bId] }, ...editing(t) }) };
    },
  },
  {
    name: "version restore",
    ok: 200,
    prepare: async (p) => {
      const { en, first } = await item(p, { versions: 2 });
      return { leased: en, write: (c, t) => manage(c, "POST", `/entries/${en}/versions/${first}/restore`, { body: {}, ...editing(t) }) };
    },
  },
  {
    name: "forced publish",
    ok: 200,
    prepare: async (p) => {
      const { en } = await item(p);
      return { leased: en, write: (c, t) => manage(c, "POST", `/entries/${en}/publish`, { body: {}, ...editing(t) }) };
    },
  },
  {
    name: "unpublish",
    ok: 200,
    prepare: async (p) => {
      const { en } = await item(p, { published: true });
      return { leased: en, write: (c, t) => manage(c, "POST", `/entries/${en}/unpublish`, { body: {}, ...editing(t) }) };
    },
  },
  {
    name: "Trash of the item (lease on its other language)",
    ok: 200,
    prepare: async (p) => {
      const { en, fr } = await item(p, { fr: true });
      return { leased: fr ?? "", write: (c, t) => manage(c, "POST", `/entries/${en}/trash`, { body: {}, ...editing(t) }) };
    },
  },
  {
    name: "restore from Trash (lease on the item's language not in Trash)",
    ok: 200,
    prepare: async (p) => {
      const { en, fr } = await item(p, { fr: true });
      await apply(p.s.ctx(), lifecycle.trashEntry(p.s.ctx(), { instance_id: fr ?? "", language_only: true }));
      return { leased: en, write: (c, t) => manage(c, "POST", `/entries/${fr}/restore`, { body: {}, ...editing(t) }) };
    },
  },
  {
    name: "purge (lease on the item's language not in Trash)",
    ok: 200,
    prepare: async (p) => {
      const { en, fr } = await item(p, { fr: true });
      await apply(p.s.ctx(), lifecycle.trashEntry(p.s.ctx(), { instance_id: fr ?? "", language_only: true }));
      return { leased: en, write: (c, t) => manage(c, "POST", `/entries/${fr}/purge`, { body: {}, ...editing(t) }) };
    },
  },
];

describe("editing leases hold on every write (management API)", () => {
  for (const kind of KINDS) {
    it(`${kind.name}: locked by another's live lease, passes for the holder's token and with no lease, lock_lost after a take-over`, async () => {
      const p = await people();

      // No live lease: the write passes, without a token.
      const free = await kind.prepare(p);
      const passed = await free.write(p.a);
      expect(passed.status, JSON.stringify(passed.body)).toBe(kind.ok);

      const held = await kind.prepare(p);
      const mine = await takeLease(p.a, held.leased);
      const before = await written(p.s.site.id);
      // Someone else's write, whoever asks: 423 locked, nothing written.
      const locked = await held.write(p.b);
      expect(locked.status, JSON.stringify(locked.body)).toBe(423);
      expect((locked.body as Err).error.code).toBe("locked");
      expect(await written(p.s.site.id)).toEqual(before);

      // B takes over: A's writes, with or without its old token, are lock_lost, nothing written.
      const theirs = await takeOver(p.b, held.leased);
      for (const token of [undefined, mine]) {
        const lost = await held.write(p.a, token);
        expect(lost.status, JSON.stringify(lost.body)).toBe(423);
        expect((lost.body as Err).error.code).toBe("lock_lost");
      }
      expect(await written(p.s.site.id)).toEqual(before);

      // The holder's own write with its token passes.
      const own = await held.write(p.b, theirs);
      expect(own.status, JSON.stringify(own.body)).toBe(kind.ok);
    });
  }
});

describe("editing leases: which languages a write is held off by", () => {
  it("Trash, restore and purge of one language are held off only by that language's lease", async () => {
    const p = await people();
    const { en, fr } = await item(p, { fr: true });
    await takeLease(p.b, en);
    const trashed = await manage<{ instance_ids: string[] }>(p.a, "POST", `/entries/${fr}/trash`, { body: { language_only: true } });
    expect(trashed.status, JSON.stringify(trashed.body)).toBe(200);
    expect((await manage(p.a, "POST", `/entries/${fr}/restore`, { body: { language_only: true } })).status).toBe(200);
    await takeLease(p.b, fr ?? "");
    expect((await manage<Err>(p.a, "POST", `/entries/${en}/trash`, { body: { language_only: true } })).body.error.code).toBe("locked");
  });

  it("a write without a token passes once nobody holds the language, even for a writer who lost it", async () => {
    const p = await people();
    const { en } = await item(p);
    await takeLease(p.a, en);
    const theirs = await takeOver(p.b, en);
    expect((await manage<Err>(p.b, "DELETE", `/entries/${en}/editing`, { body: { token: theirs }, key: null })).status).toBe(200);
    const saved = await manage(p.a, "PUT", `/entries/${en}`, { body: { expected_version_id: await currentVersion(en), fields: { summary: "after" } } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  });

  it("replays a completed write under its key although someone holds the lease now", async () => {
    const p = await people();
    const { en } = await item(p);
    const key = newKey();
    const body = { expected_version_id: await currentVersion(en), fields: { summary: "first" } };
    const first = await manage(p.a, "PUT", `/entries/${en}`, { body, key });
    expect(first.status).toBe(200);
    await takeLease(p.b, en);
    const replay = await manage<{ replayed?: boolean }>(p.a, "PUT", `/entries/${en}`, { body, key });
    expect(replay.status).toBe(200);
    expect(replay.body.replayed).toBe(true);
    // A new write under another key is held off.
    expect((await manage<Err>(p.a, "PUT", `/entries/${en}`, { body: { ...body, expected_version_id: await currentVersion(en) } })).body.error.code).toBe("locked");
  });

  it("an entry proposal changes no entry: it can be made while someone edits", async () => {
    const p = await people();
    const { en } = await item(p);
    await takeLease(p.b, en);
    const proposed = await manage(p.a, "POST", `/entries/${en}/proposals`, { body: { base_version_id: await currentVersion(en), fields: { summary: "idea" } } });
    expect(proposed.status, JSON.stringify(proposed.body)).toBe(201);
  });
});

describe("editing leases on the other surfaces", () => {
  it("admin session bridge: a save is locked by another's lease and lock_lost after a take-over; the holder's token passes", async () => {
    const p = await people();
    const { en } = await item(p);
    const admin = await adminSession(p.s);
    const saveCurrent = async (session: AdminSession, token?: string) =>
      adminCall<Err>(session, "PUT", `/api/v1/entries/${en}`, {
        siteId: p.s.site.id,
        body: { expected_version_id: await currentVersion(en), fields: { summary: "bridge" } },
        headers: { "idempotency-key": newKey(), ...(token ? { "x-editing-token": token } : {}) },
      });
    const taken = await adminCall<Lease>(admin, "POST", `/api/v1/entries/${en}/editing`, { siteId: p.s.site.id, body: {} });
    expect(taken.status, JSON.stringify(taken.body)).toBe(201);
    const before = await written(p.s.site.id);
    expect((await saveCurrent(p.bSession)).body.error.code).toBe("locked");
    const over = await adminCall<Lease>(p.bSession, "POST", `/api/v1/entries/${en}/editing/take-over`, { siteId: p.s.site.id, body: {} });
    expect(over.status).toBe(200);
    expect((await saveCurrent(admin)).body.error.code).toBe("lock_lost");
    expect(await written(p.s.site.id)).toEqual(before);
    expect((await saveCurrent(p.bSession, over.body.lease.token)).status).toBe(200);
  });

  it("MCP: save_entry is locked by another's lease and lock_lost after a take-over", async () => {
    const p = await people();
    const { en } = await item(p);
    const save = async (token: string) => (await toolResult<Err>(p.s.host, token, "save_entry", { id: en, expected_version_id: await currentVersion(en), fields: { summary: "mcp" } })).structuredContent;
    await takeLease(p.b, en);
    expect(await save(p.a)).toMatchObject({ status: 423, body: { error: { code: "locked" } } });
    await takeOver(p.a, en);
    expect(await save(p.b)).toMatchObject({ status: 423, body: { error: { code: "lock_lost" } } });
    expect((await save(p.a)).status).toBe(200);
  });

  it("an applied proposal is locked by another's lease and lock_lost after a take-over; the holder applies it", async () => {
    const p = await people();
    const { en } = await item(p);
    const admin = await adminSession(p.s);
    const proposal = await manage<{ id: string }>(p.b, "POST", `/entries/${en}/proposals`, { body: { base_version_id: await currentVersion(en), fields: { summary: "proposed" } } });
    expect(proposal.status).toBe(201);
    const applyAs = (session: AdminSession) => adminCall<Err>(session, "POST", `/api/proposals/${proposal.body.id}/apply`, { siteId: p.s.site.id });
    await takeLease(p.b, en);
    const before = await written(p.s.site.id);
    const locked = await applyAs(admin);
    expect(locked.status).toBe(423);
    expect(locked.body.error.code).toBe("locked");
    await takeOver(p.a, en);
    const lost = await applyAs(p.bSession);
    expect(lost.status).toBe(423);
    expect(lost.body.error.code).toBe("lock_lost");
    expect(await written(p.s.site.id)).toEqual(before);
    // The lease is the person's: the holder applies it from another surface.
    expect((await applyAs(admin)).status).toBe(200);
  });

  it("a plugin transition for a person is refused (locked, lock_lost) while someone else holds the lease", async () => {
    const p = await people();
    const plugin = await installTestPlugin(p.s, { capabilities: ["content:read", "workflow:read", "workflow:publish", "workflow:unpublish"], modelIds: [p.article] });
    const { en, first } = await item(p);
    const delegation = await delegationFor(p.s, plugin, en);
    const publish = () => pluginCall<{ cause?: string }>(plugin.token, "POST", `/content/${en}/transitions`, {
        body: { kind: "publish", expected_current_version_id: first, expected_workflow_revision: 0, delegation_id: delegation },
        key: newKey(),
      });
    await takeLease(p.b, en);
    const before = await written(p.s.site.id);
    const locked = await publish();
    expectEnvelope(locked, "transition_refused");
    expect(locked.body.data).toMatchObject({ cause: "locked" });
    await takeOver(p.a, en);
    const theirs = await takeOver(p.b, en);
    const lost = await publish();
    expectEnvelope(lost, "transition_refused");
    expect(lost.body.data).toMatchObject({ cause: "lock_lost" });
    expect(await written(p.s.site.id)).toEqual(before);
    await manage(p.b, "DELETE", `/entries/${en}/editing`, { body: { token: theirs }, key: null });
    expectEnvelope(await publish(), "transition_applied");
  });
});

describe("getting a lease", () => {
  it("needs update or create on the entry's language; own-only roles must own the entry", async () => {
    const p = await people();
    const { en } = await item(p);
    const ask = (session: AdminSession) => adminCall<Err & Lease>(session, "POST", `/api/v1/entries/${en}/editing`, { siteId: p.s.site.id, body: {} });
    const createOnly = await member(p.s, await customRole(p.s, "creator", { models: { "*": ["read", "create"] }, system: [] }));
    const taken = await ask(createOnly.session);
    expect(taken.status, JSON.stringify(taken.body)).toBe(201);
    expect(taken.body.lease.holder).toBe(createOnly.id);
    await adminCall(createOnly.session, "DELETE", `/api/v1/entries/${en}/editing`, { siteId: p.s.site.id, body: { token: taken.body.lease.token } });

    const frenchOnly = await member(p.s, await customRole(p.s, "french", { models: { "*": ["read", "create"] }, system: [], limits: { languages: { create: ["fr"] } } }));
    expect((await ask(frenchOnly.session)).body.error.code).toBe("locale_denied");
    const author = await member(p.s, "author");
    expect((await ask(author.session)).body.error.code).toBe("not_owner");
    const viewer = await member(p.s, "viewer");
    expect((await ask(viewer.session)).body.error.code).toBe("missing_permission");
  });
});
