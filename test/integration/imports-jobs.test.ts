import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ALL_SCOPES } from "../../schema/scopes";
import { seedSite } from "../helpers/fixtures";
import { changeAdminRole, credential, manage, newKey } from "../helpers/manage-api";
import { getJob, newImport, PART, putPart, sha256, step, uploadFile, type JobAnswer } from "../helpers/imports-api";
import wxr from "../fixtures/wordpress/valid-wxr-1.1.xml?raw";

const bytes = new TextEncoder().encode(wxr);
const codeOf = (r: { status: number; body: { error?: { code: string } } }) => [r.status, r.body.error?.code];

/** Takes data:import away from the credential's creator (or gives it back). */
const importPermission = (s: Awaited<ReturnType<typeof seedSite>>, held: boolean) =>
  changeAdminRole(s, (p) => {
    const system = ((p.system as string[] | undefined) ?? []).filter((x) => x !== "data:import");
    return { ...p, system: held ? [...system, "data:import"] : system };
  });

describe("imports: creating sources and jobs (rule 3)", () => {
  it("creates a source and an import waiting for its file; a retried create replays the same job; unknown source 404; data:import scope and permission asked", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const source = await manage<{ source: { id: string; kind: string }; replayed?: true }>(token, "POST", "/imports/sources", { body: { kind: "wordpress", name: "Old blog" } });
    expect(source.status).toBe(201);
    expect(source.body.source).toMatchObject({ kind: "wordpress", name: "Old blog" });
    expect(source.body.source.id).toMatch(/^isr_/);

    const key = newKey();
    const first = await manage<JobAnswer>(token, "POST", "/imports", { body: { source_id: source.body.source.id, file_name: "blog.xml" }, key });
    expect(first.status).toBe(201);
    expect(first.body.import).toMatchObject({ state: "awaiting_upload", position: 0, kind: "wordpress", file: { name: "blog.xml", bytes: null, sha256: null } });
    const again = await manage<JobAnswer>(token, "POST", "/imports", { body: { source_id: source.body.source.id, file_name: "blog.xml" }, key });
    expect([again.status, again.body.replayed, again.body.import.id]).toEqual([201, true, first.body.import.id]);
    expect(codeOf(await manage(token, "POST", "/imports", { body: { source_id: source.body.source.id, file_name: "other.xml" }, key }))).toEqual([409, "idempotency_key_reused"]);
    expect(codeOf(await manage(token, "POST", "/imports", { body: { source_id: "isr_nope", file_name: "x.xml" } }))).toEqual([404, "not_found"]);
    expect(codeOf(await manage(token, "POST", "/imports", { body: { source_id: source.body.source.id, file_name: "x.xml", extra: 1 } }))).toEqual([400, "invalid_request"]);

    const reader = await credential(s, ALL_SCOPES.filter((x) => x !== "data:import"));
    expect(codeOf(await manage(reader, "GET", `/imports/${first.body.import.id}`))).toEqual([403, "insufficient_scope"]);
    await importPermission(s, false);
    expect(codeOf(await manage(token, "POST", "/imports/sources", { body: { kind: "wordpress", name: "x" } }))).toEqual([403, "missing_permission"]);
    expect(codeOf(await manage(token, "GET", `/imports/${first.body.import.id}`))).toEqual([403, "missing_permission"]);
  });

  it("keeps jobs apart by site: another site's job is not found", async () => {
    const a = await seedSite();
    const b = await seedSite();
    const job = await newImport(await credential(a));
    expect(codeOf(await manage(await credential(b), "GET", `/imports/${job.id}`))).toEqual([404, "not_found"]);
  });
});

describe("imports: upload in parts, completion with the whole file's SHA-256", () => {
  it("checks the digest: a different one discards the parts (422) and the file is uploaded again; the right one stores it", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const job = await newImport(token);
    expect((await putPart(token, job.id, 1, bytes)).body).toMatchObject({ part: 1, byte_length: bytes.length, sha256: await sha256(bytes) });
    const wrong = await step(token, job.id, "complete", { sha256: "0".repeat(64) });
    expect(codeOf(wrong)).toEqual([422, "import_checksum_mismatch"]);
    expect(wrong.body.error).toMatchObject({ expected: "0".repeat(64), received: await sha256(bytes) });
    expect(await getJob(token, job.id)).toMatchObject({ state: "awaiting_upload", position: 1 });
    // The parts were discarded: completing again has nothing to complete.
    const incomplete = await step(token, job.id, "complete", { sha256: await sha256(bytes) });
    expect(codeOf(incomplete)).toEqual([422, "import_upload_incomplete"]);
    // The refusal names what to send: part 1 (none was kept).
    expect(incomplete.body.error).toMatchObject({ parts: [], missing: [1] });
    const done = await uploadFile(token, job.id, bytes);
    expect(done.status).toBe(200);
    expect(done.body.import).toMatchObject({ state: "uploaded", file: { bytes: bytes.length, sha256: await sha256(bytes) }, next: ["advance", "pause", "cancel"] });
    const stored = await env.MEDIA.get(`imports/${s.site.id}/${job.id}/file`);
    expect(await stored?.text()).toBe(wxr);
    // A part after completion is refused: the job no longer waits for its file.
    expect(codeOf(await putPart(token, job.id, 1, bytes))).toEqual([409, "import_state_conflict"]);
  });

  it("refuses parts outside the limits: a part over 5 MiB, a part number past 20 (a file over 100 MiB), a short part before the last, bad base64", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const job = await newImport(token);
    expect(codeOf(await putPart(token, job.id, 1, new Uint8Array(PART + 1)))).toEqual([422, "import_part_invalid"]);
    const tooMany = await putPart(token, job.id, 21, bytes);
    expect(codeOf(tooMany)).toEqual([413, "import_file_too_large"]);
    expect(codeOf(await manage(token, "PUT", `/imports/${job.id}/parts/1`, { body: { content_base64: "not base64!" } }))).toEqual([400, "invalid_request"]);
    // Part 1 shorter than 5 MiB while part 2 follows: R2 (and the file) need every part but the last full.
    await putPart(token, job.id, 1, bytes);
    await putPart(token, job.id, 2, bytes);
    const incomplete = await step(token, job.id, "complete", { sha256: await sha256(bytes) });
    expect(codeOf(incomplete)).toEqual([422, "import_upload_incomplete"]);
    expect(incomplete.body.error).toMatchObject({ parts: [1, 2], not_full: [1] });
    // A gap: parts 1 and 3.
    const gap = await newImport(token);
    await putPart(token, gap.id, 1, bytes);
    await putPart(token, gap.id, 3, bytes);
    expect(codeOf(await step(token, gap.id, "complete", { sha256: await sha256(bytes) }))).toEqual([422, "import_upload_incomplete"]);
  });
});

describe("imports: job steps and idempotency rule 5", () => {
  it("a retried step after the job moved answers the current state with replayed: true and runs nothing", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const job = await newImport(token);
    await uploadFile(token, job.id, bytes);
    const key = newKey();
    const advanced = await step(token, job.id, "advance", {}, key);
    expect(advanced.status).toBe(200);
    expect(advanced.body.import.state).toBe("review");
    const position = advanced.body.import.position;
    const items = advanced.body.import.progress.items_total;
    expect(items).toBeGreaterThan(0);
    // Same key again: the job moved since the claim → current state, replayed, nothing run.
    const retried = await step(token, job.id, "advance", {}, key);
    expect([retried.status, retried.body.replayed, retried.body.import.position, retried.body.import.progress.items_total]).toEqual([200, true, position, items]);

    // Pause, resume, then the pause's key again: the job moved since (it was resumed) → the
    // current state (not paused), replayed, and the job is not paused again.
    const pauseKey = newKey();
    expect((await step(token, job.id, "pause", {}, pauseKey)).body.import).toMatchObject({ state: "paused", paused_from: "review" });
    expect(codeOf(await step(token, job.id, "advance"))).toEqual([409, "import_state_conflict"]);
    const resumed = await step(token, job.id, "resume");
    expect(resumed.body.import).toMatchObject({ state: "review", paused_from: null });
    const latePause = await step(token, job.id, "pause", {}, pauseKey);
    expect([latePause.status, latePause.body.replayed, latePause.body.import.state, latePause.body.import.position]).toEqual([200, true, "review", resumed.body.import.position]);
    // The same key for another request of this job is a reuse.
    expect(codeOf(await step(token, job.id, "resume", {}, pauseKey))).toEqual([409, "idempotency_key_reused"]);
  });

  it("advanceImport runs again with its key only after the first request ended with an error", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const job = await newImport(token);
    await uploadFile(token, job.id, bytes);
    const key = newKey();
    await importPermission(s, false);
    expect(codeOf(await step(token, job.id, "advance", {}, key))).toEqual([403, "missing_permission"]);
    const unmoved = await env.DB.prepare("SELECT position, state FROM import_jobs WHERE id = ?").bind(job.id).first<{ position: number; state: string }>();
    expect(unmoved).toMatchObject({ state: "uploaded" });
    await importPermission(s, true);
    // The job did not move and the first request ended with an error: the step runs now.
    const ran = await step(token, job.id, "advance", {}, key);
    expect([ran.status, ran.body.replayed, ran.body.import.state]).toEqual([200, undefined, "review"]);
  });

  it("a step that stopped mid-way: its pending claim answers 409 idempotency_in_progress without Retry-After; advance does not run again, pause does", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const job = await newImport(token);
    await uploadFile(token, job.id, bytes);
    // A request whose object stopped mid-step: its ledger claim is left pending (the object restarted).
    const key = newKey();
    const ran = await step(token, job.id, "advance", {}, key);
    const claim = await env.DB.prepare("SELECT scope, fingerprint FROM job_step_claims WHERE site_id = ? AND key = ?").bind(s.site.id, key).first<{ scope: string; fingerprint: string }>();
    expect(claim).not.toBeNull();
    await runInDurableObject(env.SITE.getByName(s.site.id), (_o, state) => {
      const now = Date.now();
      state.storage.sql.exec(
        "INSERT INTO ledger_claims (scope, key, fingerprint, state, status, body, retention_ms, claimed_at, completed_at, expires_at) VALUES (?, ?, ?, 'pending', NULL, NULL, ?, ?, NULL, ?)",
        claim?.scope,
        key,
        claim?.fingerprint,
        86_400_000,
        now,
        now + 86_400_000,
      );
    });
    const stale = await step(token, job.id, "advance", {}, key);
    expect(codeOf(stale)).toEqual([409, "idempotency_in_progress"]);
    expect(stale.headers.get("retry-after")).toBeNull();
    expect(stale.body.error?.retry_after).toBeUndefined();
    // Read the result, then send the command again with a new key.
    expect((await getJob(token, job.id)).position).toBe(ran.body.import.position);

    // A step claim left running with the job where it was (the step stopped before its batch):
    // advance is not run again (409 without Retry-After); pause is (rule 5).
    const advanceKey = newKey();
    const pauseKey = newKey();
    await step(token, job.id, "advance", { }, advanceKey).catch(() => undefined);
    const position = (await getJob(token, job.id)).position;
    await env.DB.prepare("UPDATE job_step_claims SET state = 'running', position = ? WHERE site_id = ? AND key = ?").bind(position, s.site.id, advanceKey).run();
    const notAgain = await step(token, job.id, "advance", {}, advanceKey);
    expect(codeOf(notAgain)).toEqual([409, "idempotency_in_progress"]);
    expect(notAgain.headers.get("retry-after")).toBeNull();
    await step(token, job.id, "pause", {}, pauseKey);
    await step(token, job.id, "resume");
    const now = (await getJob(token, job.id)).position;
    await env.DB.prepare("UPDATE job_step_claims SET state = 'running', position = ? WHERE site_id = ? AND key = ?").bind(now, s.site.id, pauseKey).run();
    const pausedAgain = await step(token, job.id, "pause", {}, pauseKey);
    expect([pausedAgain.status, pausedAgain.body.replayed, pausedAgain.body.import.state]).toEqual([200, undefined, "paused"]);
  });

  it("cancel stops the job for good and aborts an open upload; steps after it are refused", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const job = await newImport(token);
    await putPart(token, job.id, 1, bytes);
    const cancelled = await step(token, job.id, "cancel");
    expect(cancelled.body.import).toMatchObject({ state: "cancelled", next: ["undo"] });
    expect(codeOf(await step(token, job.id, "complete", { sha256: await sha256(bytes) }))).toEqual([409, "import_state_conflict"]);
    expect(codeOf(await step(token, job.id, "resume"))).toEqual([409, "import_state_conflict"]);
    expect(await env.MEDIA.head(`imports/${s.site.id}/${job.id}/file`)).toBeNull();
  });
});
