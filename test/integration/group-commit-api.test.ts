import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { SiteDatabaseBinding } from "../../shared/db/site-databases";
import type { EntryView } from "../../shared/services/lifecycle";
import { addModel, blogModels, seedSite, type SeededSite } from "../helpers/fixtures";
import { tracedGroups } from "../helpers/group-trace";
import { credential, manage, type ManageResult } from "../helpers/manage-api";

/**
 * Group commit (docs/write-fairness.md, "Group commit (session 17)") through the management API:
 * creates sent at once, some refused, answer and store exactly what the same creates sent one by
 * one do. The review of session 17 (issue #27 item 9) probed these; they document the guarantee.
 */

const groups = tracedGroups();

type Answer = EntryView & { replayed?: boolean; warnings?: unknown; error?: { code: string } };
interface Probe {
  /** Probes with the same label are interchangeable (which of two twins wins depends on arrival). */
  label: string;
  body: Record<string, unknown>;
  /** Sent with the credential scoped to the article model only. */
  scoped?: boolean;
}

/** A site (search on) with its models, an entry holding slug "taken", and a mix of creates, most of them refused. */
async function siteWithProbes(database?: SiteDatabaseBinding) {
  const s = await seedSite({ ...(database ? { database } : {}), settings: { search: { enabled: true } } });
  const other = await seedSite();
  const { article, note } = await blogModels(s.ctx());
  const foreign = await blogModels(other.ctx());
  const home = await addModel(s.ctx(), { slug: "home", name: "Home", kind: "single", fields: [{ key: "title", label: "Title", type: "text", title: true }] });
  const token = await credential(s);
  const scoped = await credential(s, undefined, [article.id]);
  expect((await manage(token, "POST", "/entries", { body: { model_id: article.id, slug: "taken", fields: { title: "Existing" } } })).status).toBe(201);
  const probes: Probe[] = [
    { label: "plain", body: { model_id: article.id, fields: { title: "Plain one" } } },
    { label: "twin", body: { model_id: article.id, slug: "twin", fields: { title: "Twin" } } },
    { label: "twin", body: { model_id: article.id, slug: "twin", fields: { title: "Twin" } } },
    { label: "slug taken", body: { model_id: article.id, slug: "taken", fields: { title: "Taken" } } },
    { label: "single", body: { model_id: home.id, fields: { title: "Home" } } },
    { label: "single", body: { model_id: home.id, fields: { title: "Home" } } },
    { label: "language", body: { model_id: article.id, lang: "de", fields: { title: "German" } } },
    { label: "other site's model", body: { model_id: foreign.article.id, fields: { title: "Foreign" } } },
    { label: "out of scope", body: { model_id: note.id, fields: { title: "Note" } }, scoped: true },
    { label: "rich text", body: { model_id: article.id, fields: { title: "Rich", body: '<p onclick="x()">Hi<script>alert(1)</script></p>' } } },
    { label: "no title", body: { model_id: article.id, fields: { summary: "untitled" } } },
    { label: "invalid", body: { model_id: article.id, fields: { title: 42 } } },
    { label: "plain", body: { model_id: article.id, fields: { title: "Plain two" } } },
  ];
  const send = (p: Probe) => manage<Answer>(p.scoped ? scoped : token, "POST", "/entries", { body: p.body });
  return { s, probes, send };
}

/** Each probe's label with its status and code (sorted: twins are interchangeable), and the rich text's warnings. */
function outcomes(answers: ManageResult<Answer>[], probes: Probe[]) {
  const codes = answers.map((r, i) => `${probes[i]?.label} ${r.status} ${r.body.error?.code ?? "created"}`).sort();
  const warnings = answers.filter((_, i) => probes[i]?.label === "rich text").map((r) => r.body.warnings);
  return { codes, warnings };
}

/** What the site's creates stored: entries, versions, audit rows, outbox events, idempotency answers, search and sync rows. */
async function stored(s: SeededSite, database: SiteDatabaseBinding = "DB") {
  const count = async (table: string, where = "") =>
    (await env[database].prepare(`SELECT count(*) AS n FROM ${table} WHERE site_id = ? ${where}`).bind(s.site.id).first<{ n: number }>())?.n;
  return {
    entries: await count("entries"),
    versions: await count("versions"),
    audit: await count("audit_log", "AND action = 'entry.create'"),
    events: await count("outbox_events", "AND name = 'entry.created'"),
    answers: await count("idempotency_results"),
    search: await count("search_documents"),
    sync: await count("sync_changes"),
  };
}

describe("group commit through the management API: concurrent creates answer and store as one by one", () => {
  it.each([["the control database", undefined], ["a site database", "DB_2" as const]])("refusals of every kind among concurrent creates (%s)", async (_, database) => {
    const together = await siteWithProbes(database);
    const oneByOne = await siteWithProbes(database);
    const concurrent = await Promise.all(together.probes.map(together.send));
    // The creates that reached the object together were committed in groups.
    expect(Math.max(0, ...groups())).toBeGreaterThan(1);
    const sequential: ManageResult<Answer>[] = [];
    for (const probe of oneByOne.probes) sequential.push(await oneByOne.send(probe));
    expect(outcomes(concurrent, together.probes)).toEqual(outcomes(sequential, oneByOne.probes));
    expect(outcomes(concurrent, together.probes).codes).toContain("twin 409 slug_taken");
    expect(outcomes(concurrent, together.probes).codes).toContain("single 409 single_entry_exists");
    expect(await stored(together.s, database)).toEqual(await stored(oneByOne.s, database));
  });

  it("one Idempotency-Key twice in a group, and with another body: refused as alone; the first answer replays after the group", async () => {
    const { s, probes, send } = await siteWithProbes();
    const modelId = probes[0]?.body.model_id;
    const key = `group-key-${s.site.id}`;
    const token = await credential(s);
    const withKey = (title: string) => manage<Answer>(token, "POST", "/entries", { key, body: { model_id: modelId, fields: { title } } });
    const others = Array.from({ length: 6 }, (_, i) => send({ label: "plain", body: { model_id: modelId, fields: { title: `Other ${i}` } } }));
    const [first, same, changed, ...rest] = await Promise.all([withKey("Keyed"), withKey("Keyed"), withKey("Another body"), ...others]);
    expect(Math.max(0, ...groups())).toBeGreaterThan(1);
    expect([first, same, changed].map((r) => `${r?.status} ${r?.body.error?.code ?? "created"}`)).toEqual(["201 created", "409 idempotency_in_progress", "409 idempotency_key_reused"]);
    expect(rest.map((r) => r.status)).toEqual(Array(6).fill(201));
    const replay = await withKey("Keyed");
    expect(replay.status).toBe(201);
    expect(replay.body).toMatchObject({ instance_id: first?.body.instance_id, replayed: true });
    expect((await withKey("Another body")).body.error?.code).toBe("idempotency_key_reused");
    // One entry, one audit row and one event per create: the existing entry, the keyed one and six others.
    expect(await stored(s)).toMatchObject({ entries: 8, versions: 8, audit: 8, events: 8 });
  });

  it("twelve creates near the body limit commit as one group, each stored whole", async () => {
    const { s, probes, send } = await siteWithProbes();
    const modelId = probes[0]?.body.model_id;
    const summary = "x".repeat(900 * 1024);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => send({ label: "big", body: { model_id: modelId, fields: { title: `Big ${i}`, summary } } })));
    expect(answers.map((r) => r.status)).toEqual(Array(12).fill(201));
    expect(Math.max(0, ...groups())).toBeGreaterThan(1);
    expect(answers.map((r) => (r.body.fields.summary as string).length)).toEqual(Array(12).fill(summary.length));
    // The existing entry and the twelve, each with its version, audit row and event.
    expect(await stored(s)).toMatchObject({ entries: 13, versions: 13, audit: 13, events: 13 });
  });
});
