/**
 * npm run deploy (scripts/deploy.mjs, docs/deploy.md) without a Cloudflare account:
 * - the dry run validates the production configuration and bundles the worker;
 * - the production configuration keeps local-only settings off (loopback outbound calls, the
 *   local body drain, the demo seed, test-only bindings, a *.localhost admin host) and caches;
 * - provisioning against a fake account (wrangler's list and create commands answered in memory,
 *   in wrangler's own output formats) creates what is missing once, and nothing on a second run;
 * - the whole `npm run deploy` twice against a fake wrangler (test/helpers/fake-wrangler.mjs):
 *   the order of its commands, what it writes and sets, and that the second run changes nothing.
 * Run: node --test test/node/deploy.test.mjs
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import {
  checkProductionConfig,
  parseD1List,
  parseQueueList,
  parseR2List,
  parseSecretList,
  productionConfig,
  provision,
  requiredResources,
} from "../../scripts/lib/deploy-plan.mjs";
import { root } from "../../scripts/lib/load-ts.mjs";

const readConfig = async (file) => (await import("wrangler")).unstable_readConfig({ config: file }, { hideWarnings: true });
const readRaw = async (file) => (await import("wrangler")).experimental_readRawConfig({ config: file }).rawConfig;

describe("npm run deploy -- --dry-run", () => {
  const outdir = mkdtempSync(path.join(os.tmpdir(), "driftwood-deploy-test-"));
  after(() => rmSync(outdir, { recursive: true, force: true }));
  let run;

  it("passes without an account and writes the bundle", async () => {
    run = await new Promise((resolve) => {
      execFile(process.execPath, [path.join(root, "scripts", "deploy.mjs"), "--dry-run", "--outdir", outdir], { cwd: root, timeout: 120_000, env: { ...process.env, CLOUDFLARE_API_TOKEN: "", WRANGLER_SEND_METRICS: "false" } }, (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
      );
    });
    assert.equal(run.code, 0, run.stderr + run.stdout);
    assert.match(run.stdout, /^Driftwood \d+\.\d+\.\d+: dry run/m, "prints the version");
    assert.ok(existsSync(path.join(outdir, "bundle", "index.js")));
  });

  it("bundles no demo seed", () => {
    const bundle = readFileSync(path.join(outdir, "bundle", "index.js"), "utf8");
    // The demo's login and hosts (scripts/seed): none of the seed reaches the worker.
    assert.doesNotMatch(bundle, /driftwood-demo|admin@demo\.localhost|demo\.localhost/);
  });

  it("validates a production configuration that keeps local-only settings off", async () => {
    const configPath = /^config: (\S+)/m.exec(run.stdout)?.[1];
    assert.ok(configPath && existsSync(configPath), run.stdout);
    const config = await readConfig(configPath);
    assert.equal(config.vars.OUTBOUND_ALLOW_LOOPBACK, undefined);
    assert.equal(config.vars.UNREAD_BODY_DRAIN_BYTES, undefined);
    assert.doesNotMatch(readFileSync(configPath, "utf8"), /OUTBOUND_ALLOW_LOOPBACK|UNREAD_BODY_DRAIN_BYTES|localhost/);
    assert.doesNotMatch(String(config.vars.ADMIN_HOST), /(^|\.)localhost$/);
    const age = Number(config.vars.PUBLIC_CACHE_MAX_AGE);
    assert.ok(Number.isInteger(age) && age >= 1 && age <= 3600, `PUBLIC_CACHE_MAX_AGE ${config.vars.PUBLIC_CACHE_MAX_AGE}`);
    assert.equal(config.services.length, 0, "no test-only service binding");
    assert.equal(config.workers_dev, false);
    assert.deepEqual(
      config.d1_databases.map((d) => d.binding),
      (await readConfig(path.join(root, "wrangler.jsonc"))).d1_databases.map((d) => d.binding),
      "every D1 binding of wrangler.jsonc",
    );
  });
});

describe("production configuration checks", () => {
  const base = async () => readRaw(path.join(root, "wrangler.jsonc"));
  const ids = { DB: "9a1c0d7e-1111-4222-8333-444455556666", DB_2: "9a1c0d7e-1111-4222-8333-444455557777" };

  it("refuses the local configuration as it stands", async () => {
    const problems = checkProductionConfig(await readConfig(path.join(root, "wrangler.jsonc")));
    assert.ok(problems.some((p) => /ADMIN_HOST admin\.localhost is a local name/.test(p)), problems.join("\n"));
    assert.ok(problems.some((p) => /placeholder id/.test(p)), problems.join("\n"));
  });

  it("drops local-only vars and test-only bindings that reach wrangler.jsonc", async () => {
    const raw = await base();
    raw.vars = { ...raw.vars, OUTBOUND_ALLOW_LOOPBACK: "true", UNREAD_BODY_DRAIN_BYTES: "134217728" };
    raw.services = [{ binding: "CF_PURGE_API", service: "fake" }];
    const config = productionConfig(raw, { d1Ids: ids, adminHost: "admin.example.com", root, configDir: root });
    assert.deepEqual(Object.keys(config.vars).sort(), ["ADMIN_HOST", "PUBLIC_CACHE_MAX_AGE"]);
    assert.deepEqual(config.services, []);
    assert.deepEqual(checkProductionConfig(config), []);
    assert.deepEqual(config.d1_databases.map((d) => d.database_id), [ids.DB, ids.DB_2]);
  });

  it("names each problem", async () => {
    const config = productionConfig(await base(), { d1Ids: ids, adminHost: "admin.example.com", root, configDir: root });
    const bad = (change) => checkProductionConfig({ ...config, ...change(structuredClone(config)) });
    assert.match(bad((c) => ({ vars: { ...c.vars, OUTBOUND_ALLOW_LOOPBACK: "true" } })).join(), /OUTBOUND_ALLOW_LOOPBACK is a local development setting/);
    assert.match(bad((c) => ({ vars: { ...c.vars, UNREAD_BODY_DRAIN_BYTES: "1" } })).join(), /UNREAD_BODY_DRAIN_BYTES is a local development setting/);
    assert.match(bad((c) => ({ vars: { ...c.vars, OPS_TOKEN: "x" } })).join(), /OPS_TOKEN is a secret/);
    assert.match(bad((c) => ({ vars: { ...c.vars, DEMO: "1" } })).join(), /DEMO is not a var the worker reads/);
    assert.match(bad((c) => ({ vars: { ...c.vars, ADMIN_HOST: "admin.localhost" } })).join(), /local name/);
    assert.match(bad((c) => ({ vars: { ...c.vars, ADMIN_HOST: "https://admin.example.com" } })).join(), /DNS name/);
    assert.match(bad((c) => ({ vars: { ...c.vars, PUBLIC_CACHE_MAX_AGE: "1 day" } })).join(), /PUBLIC_CACHE_MAX_AGE/);
    assert.match(bad(() => ({ services: [{ binding: "WEBHOOK_FETCH", service: "fake" }] })).join(), /WEBHOOK_FETCH is a test-only binding/);
    assert.match(bad((c) => ({ d1_databases: c.d1_databases.map((d) => ({ ...d, database_id: "00000000-0000-0000-0000-000000000000" })) })).join(), /placeholder id/);
  });
});

/** A Cloudflare account in memory, answering wrangler's list and create commands in wrangler's formats. */
function fakeAccount({ d1 = [], r2 = [], queues = [], pageSize = 2 } = {}) {
  const state = { d1: [...d1], r2: [...r2], queues: [...queues] };
  const calls = [];
  let next = 1;
  const ok = (stdout) => ({ code: 0, stdout, stderr: "" });
  const table = (rows) => {
    const line = (cells) => `│ ${cells.join(" │ ")} │`;
    return ["┌──┐", line(["id", "name", "created_on", "modified_on", "producers", "consumers"]), "├──┤", ...rows.map((n, i) => line([`q${i}`, n, "2026-11-01T00:00:00Z", "2026-11-01T00:00:00Z", "1", "1"])), "└──┘"].join("\n");
  };
  async function run(args) {
    calls.push(args.join(" "));
    const [a, b, c, d] = args;
    if (a === "d1" && b === "list") return ok(JSON.stringify(state.d1.map((x) => ({ uuid: x.uuid, name: x.name, created_at: "2026-11-01", version: "production" }))));
    if (a === "d1" && b === "create") {
      state.d1.push({ name: c, uuid: `uuid-${next++}` });
      return ok(`✅ Successfully created DB '${c}'`);
    }
    if (a === "r2" && c === "list") return ok(`Listing buckets...\n${state.r2.map((n) => `name:           ${n}\ncreation_date:  2026-11-01T00:00:00.000Z`).join("\n\n")}\n`);
    if (a === "r2" && c === "create") {
      state.r2.push(d);
      return ok(`Created bucket '${d}'`);
    }
    if (a === "queues" && b === "list") {
      const page = Number(args[3] ?? 1);
      return ok(table(state.queues.slice((page - 1) * pageSize, page * pageSize)));
    }
    if (a === "queues" && b === "create") {
      state.queues.push(c);
      return ok(`Created queue ${c}.`);
    }
    return { code: 1, stdout: "", stderr: `unexpected command ${args.join(" ")}` };
  }
  return { run, calls, state };
}

describe("provisioning (idempotent)", () => {
  const required = { d1: [{ binding: "DB", name: "driftwood" }, { binding: "DB_2", name: "driftwood-2" }], r2: ["driftwood-media"], queues: ["driftwood-events", "driftwood-events-dlq"] };

  it("reads wrangler.jsonc's resources: every D1 binding, the bucket, the queue and its dead-letter queue", async () => {
    assert.deepEqual(requiredResources(await readRaw(path.join(root, "wrangler.jsonc"))), required);
  });

  it("creates everything on an empty account, then nothing on a second run", async () => {
    const account = fakeAccount({ r2: ["someone-elses-bucket"], queues: ["a", "b", "c"] });
    const first = await provision(account.run, required);
    assert.deepEqual(first.created.map((r) => `${r.kind} ${r.name}`), ["d1 driftwood", "d1 driftwood-2", "r2 driftwood-media", "queue driftwood-events-dlq", "queue driftwood-events"]);
    assert.deepEqual(first.d1Ids, { DB: "uuid-1", DB_2: "uuid-2" });
    const creates = account.calls.filter((c) => / create /.test(` ${c} `));
    assert.deepEqual(creates, ["d1 create driftwood", "d1 create driftwood-2", "r2 bucket create driftwood-media", "queues create driftwood-events-dlq", "queues create driftwood-events"]);

    account.calls.length = 0;
    const second = await provision(account.run, required);
    assert.deepEqual(second.created, []);
    assert.deepEqual(second.d1Ids, first.d1Ids);
    assert.deepEqual(account.calls.filter((c) => c.includes("create")), []);
    assert.ok(account.calls.some((c) => c === "queues list --page 3"), "queues listed past the first page");
  });

  it("creates only what is missing and keeps existing ids", async () => {
    const account = fakeAccount({ d1: [{ name: "driftwood", uuid: "existing-db" }], r2: ["driftwood-media"], queues: ["driftwood-events-dlq"] });
    const result = await provision(account.run, required);
    assert.deepEqual(result.created.map((r) => `${r.kind} ${r.name}`), ["d1 driftwood-2", "queue driftwood-events"]);
    assert.deepEqual(result.d1Ids, { DB: "existing-db", DB_2: "uuid-1" });
  });

  it("stops at a failing wrangler command", async () => {
    const run = async (args) => (args[0] === "d1" ? { code: 1, stdout: "", stderr: "Authentication error [code: 10000]" } : { code: 0, stdout: "", stderr: "" });
    await assert.rejects(provision(run, required), /wrangler d1 list failed \(exit 1\):\nAuthentication error/);
  });

  it("parses wrangler's list outputs", () => {
    assert.deepEqual(parseD1List(' ⛅️ wrangler\n[{"uuid":"u1","name":"driftwood"}]'), [{ name: "driftwood", uuid: "u1" }]);
    assert.deepEqual(parseR2List("Listing buckets...\n\u001b[37mname:\u001b[39m           \u001b[90mdriftwood-media\u001b[39m\ncreation_date:  x\n"), ["driftwood-media"]);
    assert.deepEqual(parseQueueList("│ id │ name │\n│ q1 │ driftwood-events │"), ["driftwood-events"]);
    assert.deepEqual(parseQueueList("no queues"), []);
    assert.deepEqual(parseSecretList({ code: 1, stdout: "", stderr: "This Worker does not exist on your account. [code: 10007]" }), []);
    assert.deepEqual(parseSecretList({ code: 0, stdout: '[{"name":"OPS_TOKEN","type":"secret_text"}]', stderr: "" }), ["OPS_TOKEN"]);
  });
});

describe("npm run deploy against a fake account", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "driftwood-deploy-fake-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const accountFile = path.join(dir, "account.json");
  const configFile = path.join(dir, "wrangler.production.jsonc");
  const version = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).version;
  const deploy = (args, env = {}) =>
    new Promise((resolve) => {
      const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(OPS_TOKEN|CF_PURGE_|ADMIN_HOST|CLOUDFLARE_)/.test(k)));
      execFile(
        process.execPath,
        [path.join(root, "scripts", "deploy.mjs"), "--yes", "--config", configFile, ...args],
        { cwd: root, timeout: 120_000, env: { ...clean, DRIFTWOOD_WRANGLER_BIN: path.join(root, "test", "helpers", "fake-wrangler.mjs"), FAKE_ACCOUNT: accountFile, ...env } },
        (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
      );
    });
  const account = () => JSON.parse(readFileSync(accountFile, "utf8"));

  it("refuses a local admin host before touching the account's resources", async () => {
    writeFileSync(accountFile, "{}");
    const run = await deploy(["--admin-host", "admin.localhost"]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /ADMIN_HOST admin\.localhost is a local name/);
    assert.deepEqual(account().calls.map((c) => c.args[0]), ["whoami"]);
  });

  it("first run: creates everything, migrates every D1 binding, deploys the version, then sets OPS_TOKEN", async () => {
    writeFileSync(accountFile, "{}");
    const run = await deploy(["--admin-host", "admin.example.com"]);
    assert.equal(run.code, 0, run.stderr + run.stdout);
    assert.match(run.stdout, new RegExp(`^Driftwood ${version.replaceAll(".", "\\.")}: deploying`, "m"));
    assert.match(run.stdout, /Created: d1 driftwood, d1 driftwood-2, r2 driftwood-media, queue driftwood-events-dlq, queue driftwood-events\./);
    assert.match(run.stdout, /Cloudflare version 0f0e0d0c-/);
    assert.match(run.stdout, /OPS_TOKEN \(shown once[^\n]*\n {2}[A-Za-z0-9_-]{43}\n/);
    assert.match(run.stdout, /Custom Domain for admin\.example\.com/);
    const state = account();
    assert.deepEqual(state.secrets, ["OPS_TOKEN"]);
    assert.deepEqual(state.migrated, { DB: 1, DB_2: 1 });
    assert.deepEqual(state.deploys.map((x) => x.tag), [`v${version}`]);
    const order = state.calls.map((c) => c.args.slice(0, 2).join(" "));
    assert.ok(order.indexOf("d1 migrations") < order.indexOf("deploy -c"), order.join(", "));
    assert.ok(order.indexOf("deploy -c") < order.indexOf("secret bulk"), order.join(", "));
    assert.equal(state.calls.find((c) => c.args[1] === "bulk").stdin, "(given)", "secrets through stdin");
    const config = await readConfig(configFile);
    assert.deepEqual(config.d1_databases.map((x) => x.database_id), state.d1.map((x) => x.uuid));
    assert.equal(config.vars.ADMIN_HOST, "admin.example.com");
    assert.deepEqual(checkProductionConfig(config), []);
  });

  it("second run: creates nothing, keeps the admin host and OPS_TOKEN, sets only the purge secrets now given", async () => {
    const before = account();
    const run = await deploy([], { CF_PURGE_ZONE_ID: "zone", CF_PURGE_API_TOKEN: "token" });
    assert.equal(run.code, 0, run.stderr + run.stdout);
    assert.match(run.stdout, /Created: nothing \(everything existed\)\./);
    assert.match(run.stdout, /Secrets set: CF_PURGE_ZONE_ID, CF_PURGE_API_TOKEN\./);
    assert.doesNotMatch(run.stdout, /shown once/);
    const state = account();
    assert.deepEqual(state.d1, before.d1);
    assert.deepEqual(state.r2, before.r2);
    assert.deepEqual(state.queues, before.queues);
    assert.deepEqual(state.calls.slice(before.calls.length).filter((c) => c.args[1] === "create"), []);
    assert.deepEqual(state.migrated, { DB: 2, DB_2: 2 }, "migrations asked again (wrangler applies none)");
    assert.equal((await readConfig(configFile)).vars.ADMIN_HOST, "admin.example.com");
  });
});
