#!/usr/bin/env node
/**
 * npm run deploy: takes a Cloudflare account from nothing to a running Driftwood, and brings a
 * running one up to this checkout (docs/deploy.md). Idempotent; every call to Cloudflare is a
 * `wrangler` command run as a child process.
 *
 *   1. wrangler whoami (an account is needed: `wrangler login` or CLOUDFLARE_API_TOKEN);
 *   2. lists D1 databases, R2 buckets and queues, creates those wrangler.jsonc names that are missing;
 *   3. writes wrangler.production.jsonc (git-ignored) from wrangler.jsonc with the account's D1 ids
 *      and the production vars, and checks it (no local-only setting);
 *   4. applies the D1 migrations remotely to every D1 binding;
 *   5. builds the admin, deploys (tagged with package.json's version);
 *   6. sets the secrets the worker lacks with `wrangler secret bulk` (OPS_TOKEN generated unless
 *      given; CF_PURGE_ZONE_ID / CF_PURGE_API_TOKEN from the environment or asked for, optional);
 *   7. prints what it created, the version, and what is left by hand.
 *
 * `--dry-run` needs no account: it validates the production configuration (the operator's
 * wrangler.production.jsonc when there is one, else one rendered with placeholder ids) and bundles
 * the worker with `wrangler deploy --dry-run --outdir`.
 *
 * Flags: --dry-run, --outdir <dir> (dry run), --admin-host <host>, --cache-max-age <seconds>,
 * --account-id <id>, --config <path> (the production configuration; default wrangler.production.jsonc),
 * --rotate-ops-token, --yes (never ask; take values from flags and environment).
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { root } from "./lib/load-ts.mjs";
import {
  PRODUCTION_CONFIG,
  SECRETS,
  DEFAULT_CACHE_MAX_AGE,
  checkAdminHost,
  checkProductionConfig,
  parseSecretList,
  productionConfig,
  provision,
  renderProductionConfig,
  requiredResources,
} from "./lib/deploy-plan.mjs";

const require = createRequire(import.meta.url);
// DRIFTWOOD_WRANGLER_BIN: another wrangler entry (test/node/deploy.test.mjs runs the whole flow against a fake account).
const wranglerBin = process.env.DRIFTWOOD_WRANGLER_BIN || path.join(path.dirname(require.resolve("wrangler/package.json")), "bin", "wrangler.js");
const version = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).version;

const { values: flags } = parseArgs({
  options: {
    "dry-run": { type: "boolean", default: false },
    outdir: { type: "string" },
    "admin-host": { type: "string" },
    "cache-max-age": { type: "string" },
    "account-id": { type: "string" },
    config: { type: "string" },
    "rotate-ops-token": { type: "boolean", default: false },
    yes: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});

/** The production configuration's path: the repository root unless --config names another. */
const productionPath = path.resolve(flags.config ?? path.join(root, PRODUCTION_CONFIG));
const say = (line = "") => process.stdout.write(line + "\n");

/**
 * Runs `wrangler <args>`: output captured (and streamed to our stderr with `echo`), stdin from
 * `input` or closed, so wrangler never waits for a person. Answers `{ code, stdout, stderr }`.
 */
function wrangler(args, { cwd = root, input, echo = false, env = {} } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [wranglerBin, ...args], {
      cwd,
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, WRANGLER_SEND_METRICS: process.env.WRANGLER_SEND_METRICS ?? "false", ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      stdout += chunk;
      if (echo) process.stderr.write(chunk);
    });
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      stderr += chunk;
      if (echo) process.stderr.write(chunk);
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(input ?? "");
  });
}

function must(result, what) {
  if (result.code !== 0) throw new Error(`${what} failed (exit ${result.code})${result.echoed ? "" : `:\n${(result.stderr || result.stdout).trim()}`}`);
  return result;
}

async function readRaw(configPath) {
  const { experimental_readRawConfig } = await import("wrangler");
  return experimental_readRawConfig({ config: configPath }).rawConfig;
}

/** wrangler's own reader and validator, then our production checks; throws with every problem. */
async function validate(configPath, { allowPlaceholderIds }) {
  const { unstable_readConfig } = await import("wrangler");
  const config = unstable_readConfig({ config: configPath }, { hideWarnings: true });
  const problems = checkProductionConfig(config, { allowPlaceholderIds });
  if (problems.length) throw new Error(`${path.relative(root, configPath) || configPath} is not fit for production:\n  - ${problems.join("\n  - ")}`);
  return config;
}

async function ensureAdminBuilt({ always }) {
  if (!always && existsSync(path.join(root, "admin", "dist", "index.html"))) return;
  const { buildAdmin } = await import("./build-admin.mjs");
  await buildAdmin();
}

async function dryRun() {
  const started = Date.now();
  say(`Driftwood ${version}: dry run (no account needed)`);
  const outdir = path.resolve(flags.outdir ?? mkdtempSync(path.join(os.tmpdir(), "driftwood-deploy-")));
  mkdirSync(outdir, { recursive: true });
  let configPath = productionPath;
  let placeholder = false;
  if (!existsSync(configPath)) {
    // No operator configuration here: render one as the real run would, with placeholder ids.
    placeholder = true;
    configPath = path.join(outdir, PRODUCTION_CONFIG);
    const raw = await readRaw(path.join(root, "wrangler.jsonc"));
    const d1Ids = Object.fromEntries(raw.d1_databases.map((d, i) => [d.binding, `00000000-0000-0000-0000-00000000000${i}`]));
    const config = productionConfig(raw, { d1Ids, adminHost: "admin.example.com", root, configDir: outdir });
    writeFileSync(configPath, renderProductionConfig(config));
  }
  const config = await validate(configPath, { allowPlaceholderIds: placeholder });
  say(`config: ${configPath}${placeholder ? " (placeholder D1 ids)" : ""}; ADMIN_HOST ${config.vars.ADMIN_HOST}, PUBLIC_CACHE_MAX_AGE ${config.vars.PUBLIC_CACHE_MAX_AGE}`);
  await ensureAdminBuilt({ always: false });
  const bundleDir = path.join(outdir, "bundle");
  const result = await wrangler(["deploy", "--dry-run", "--outdir", bundleDir, "-c", configPath], { cwd: path.dirname(configPath) });
  must(result, "wrangler deploy --dry-run");
  const bundle = path.join(bundleDir, "index.js");
  if (!existsSync(bundle)) throw new Error(`wrangler deploy --dry-run wrote no ${bundle}`);
  // wrangler's own figure is what Cloudflare's size limit applies to (3 MB Free, 10 MB Paid, gzipped).
  const upload = /Total Upload:\s*([\d.]+ KiB)\s*\/\s*gzip:\s*([\d.]+ KiB)/.exec(result.stdout);
  say(`bundle: ${bundle} (${(statSync(bundle).size / 1024).toFixed(0)} KiB${upload ? `; upload ${upload[1]}, gzip ${upload[2]}` : ""})`);
  say(`dry run passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function ask(question) {
  if (flags.yes || !process.stdin.isTTY) return "";
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}

/** The operator's choices: flags, then what the last run wrote, then the environment, then a question. */
async function choices() {
  const previous = existsSync(productionPath) ? await readRaw(productionPath) : null;
  let adminHost = flags["admin-host"] ?? previous?.vars?.ADMIN_HOST ?? process.env.ADMIN_HOST;
  if (!adminHost) adminHost = await ask("Admin host (the name people open the admin at, e.g. admin.example.com): ");
  const hostProblem = checkAdminHost(adminHost);
  if (hostProblem) throw new Error(`${hostProblem} (pass --admin-host)`);
  const cacheMaxAge = flags["cache-max-age"] ?? previous?.vars?.PUBLIC_CACHE_MAX_AGE ?? DEFAULT_CACHE_MAX_AGE;
  const accountId = flags["account-id"] ?? previous?.account_id ?? process.env.CLOUDFLARE_ACCOUNT_ID;
  return { adminHost, cacheMaxAge, accountId };
}

/** Secrets to set: those the worker lacks (or OPS_TOKEN again with --rotate-ops-token). */
async function secretsToSet(existing) {
  const set = {};
  let generated = false;
  if (!existing.includes("OPS_TOKEN") || flags["rotate-ops-token"]) {
    set.OPS_TOKEN = (!flags["rotate-ops-token"] && process.env.OPS_TOKEN) || randomBytes(32).toString("base64url");
    generated = set.OPS_TOKEN !== process.env.OPS_TOKEN;
  }
  for (const name of SECRETS.optional) {
    if (existing.includes(name)) continue;
    const value = process.env[name] || (await ask(`${name} for cache purge (optional; Enter to skip): `));
    if (value) set[name] = value;
  }
  return { set, generated };
}

async function deploy() {
  say(`Driftwood ${version}: deploying`);
  const who = await wrangler(["whoami"]);
  if (who.code !== 0 || /not authenticated/i.test(who.stdout + who.stderr)) {
    throw new Error("wrangler is not signed in to a Cloudflare account: run `npx wrangler login` or set CLOUDFLARE_API_TOKEN (and CLOUDFLARE_ACCOUNT_ID)");
  }
  const { adminHost, cacheMaxAge, accountId } = await choices();
  const accountEnv = accountId ? { CLOUDFLARE_ACCOUNT_ID: accountId } : {};
  const base = await readRaw(path.join(root, "wrangler.jsonc"));

  // Account-level commands run in an empty folder: no configuration file for wrangler to offer to edit.
  const scratch = mkdtempSync(path.join(os.tmpdir(), "driftwood-deploy-"));
  let resources;
  try {
    resources = await provision((args) => wrangler(args, { cwd: scratch, env: accountEnv }), requiredResources(base), { log: (line) => say(`  ${line}`) });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const config = productionConfig(base, { d1Ids: resources.d1Ids, adminHost, cacheMaxAge, accountId, root, configDir: path.dirname(productionPath) });
  writeFileSync(productionPath, renderProductionConfig(config));
  await validate(productionPath, { allowPlaceholderIds: false });
  say(`wrote ${path.relative(root, productionPath) || productionPath}`);

  const existingSecrets = parseSecretList(await wrangler(["secret", "list", "--format", "json", "-c", productionPath], { env: accountEnv }));
  const secrets = await secretsToSet(existingSecrets);

  for (const d of config.d1_databases) {
    say(`migrations: ${d.binding} (${d.database_name})`);
    must({ ...(await wrangler(["d1", "migrations", "apply", d.binding, "--remote", "-c", productionPath], { echo: true, env: accountEnv })), echoed: true }, `wrangler d1 migrations apply ${d.binding} --remote`);
  }

  await ensureAdminBuilt({ always: true });
  const deployed = must(
    { ...(await wrangler(["deploy", "-c", productionPath, "--tag", `v${version}`, "--message", `Driftwood ${version}`], { echo: true, env: accountEnv })), echoed: true },
    "wrangler deploy",
  );
  const versionId = /Current Version ID:\s*([0-9a-f-]{36})/i.exec(deployed.stdout)?.[1];

  const names = Object.keys(secrets.set);
  if (names.length) {
    say(`secrets: setting ${names.join(", ")}`);
    must(await wrangler(["secret", "bulk", "-c", productionPath], { input: JSON.stringify(secrets.set), env: accountEnv }), "wrangler secret bulk");
  }

  const created = resources.created.map((r) => `${r.kind} ${r.name}`);
  say("");
  say(`Deployed Driftwood ${version}${versionId ? ` (Cloudflare version ${versionId}${names.length ? "; the secrets made a newer one" : ""})` : ""}.`);
  say(`Created: ${created.length ? created.join(", ") : "nothing (everything existed)"}.`);
  say(`Secrets set: ${names.length ? names.join(", ") : "none (all present)"}.`);
  if (secrets.set.OPS_TOKEN && secrets.generated) {
    say("");
    say(`OPS_TOKEN (shown once; Cloudflare never shows a secret again — keep it in your password manager):`);
    say(`  ${secrets.set.OPS_TOKEN}`);
  }
  const purgeMissing = SECRETS.optional.filter((n) => !existingSecrets.includes(n) && !secrets.set[n]);
  say("");
  say("Left to do by hand (docs/deploy.md):");
  say(`  - Workers & Pages → driftwood → Settings → Domains & Routes: add a Custom Domain for ${adminHost} (the admin host; DNS and certificate follow).`);
  say("  - The same for every site host you create (each host of each site); a host whose zone is not on Cloudflare needs a CNAME there first.");
  if (purgeMissing.length) say(`  - Optional: ${purgeMissing.join(" and ")} (wrangler secret put … -c ${PRODUCTION_CONFIG}) so writes purge cached answers; until then a change shows within ${cacheMaxAge} s.`);
  say(`  - Sites, their hosts and their first administrators: through the operators' API on https://${adminHost}/api/ops with OPS_TOKEN.`);
}

const main = flags.help
  ? async () => say(readFileSync(new URL(import.meta.url), "utf8").split("*/")[0].replace(/^#!.*\n\/\*\*\n?/, "").replace(/^ \* ?/gm, ""))
  : flags["dry-run"]
    ? dryRun
    : deploy;

main().catch((error) => {
  process.stderr.write(`npm run deploy failed: ${error.message}\n`);
  process.exit(1);
});
