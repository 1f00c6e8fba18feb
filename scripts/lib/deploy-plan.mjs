/**
 * The pure half of `npm run deploy` (scripts/deploy.mjs, docs/deploy.md): which Cloudflare
 * resources wrangler.jsonc needs, what wrangler's list commands say exists, what must be created,
 * the generated production configuration, and the checks that keep local-only settings out of it.
 *
 * Everything that talks to Cloudflare goes through one injected function, `run(args, options)`,
 * which runs `wrangler <args>` and answers `{ code, stdout, stderr }`; tests pass a fake, so the
 * idempotency of provisioning is tested without an account.
 */
import path from "node:path";

/** Vars only local development sets (docs/outbound-addresses.md, workers/http/drain-body.ts). */
export const LOCAL_ONLY_VARS = ["OUTBOUND_ALLOW_LOOPBACK", "UNREAD_BODY_DRAIN_BYTES"];
/** Bindings only the workerd tests bind (fakes of api.cloudflare.com and of webhook receivers). */
export const TEST_ONLY_BINDINGS = ["CF_PURGE_API", "WEBHOOK_FETCH"];
/** The plain vars a deployment may set (shared/env.ts); anything else is a leftover or a typo. */
export const PRODUCTION_VARS = ["ADMIN_HOST", "PUBLIC_CACHE_MAX_AGE", "CONFIG_CACHE_MS", "MANAGE_RATE_LIMIT", "MEDIA_REQUEST_BODY_LIMIT_BYTES"];
/** Secrets the worker reads (shared/env.ts). The signing secrets live in D1 (`signing_keys`), made on first use. */
export const SECRETS = { required: ["OPS_TOKEN"], optional: ["CF_PURGE_ZONE_ID", "CF_PURGE_API_TOKEN"] };
/** Seconds public answers stay cached when the operator says nothing: a change missed by a purge is stale at most a minute. */
export const DEFAULT_CACHE_MAX_AGE = "60";
/** The placeholder D1 id of wrangler.jsonc (local only) and of the dry run's configuration. */
export const PLACEHOLDER_ID = /^0{8}-0{4}-0{4}-0{4}-0{11}\d$/;
export const PRODUCTION_CONFIG = "wrangler.production.jsonc";

/** The resources a configuration names: D1 databases (by binding), R2 buckets, queues (with dead-letter queues). */
export function requiredResources(raw) {
  const queues = new Set();
  for (const p of raw.queues?.producers ?? []) queues.add(p.queue);
  for (const c of raw.queues?.consumers ?? []) {
    queues.add(c.queue);
    if (c.dead_letter_queue) queues.add(c.dead_letter_queue);
  }
  return {
    d1: (raw.d1_databases ?? []).map((d) => ({ binding: d.binding, name: d.database_name })),
    r2: [...new Set((raw.r2_buckets ?? []).map((b) => b.bucket_name))],
    queues: [...queues],
  };
}

/** `wrangler d1 list --json` → [{ name, uuid }]. */
export function parseD1List(stdout) {
  const start = stdout.indexOf("[");
  if (start < 0) throw new Error("wrangler d1 list --json printed no JSON array");
  return JSON.parse(stdout.slice(start)).map((d) => ({ name: d.name, uuid: d.uuid }));
}

const stripAnsi = (text) => text.replace(/\u001b\[[0-9;]*m/g, "");

/** `wrangler r2 bucket list` prints one `name: …` / `creation_date: …` block per bucket. */
export function parseR2List(stdout) {
  return stripAnsi(stdout)
    .split("\n")
    .map((line) => /^\s*name:\s+(\S+)\s*$/.exec(line)?.[1])
    .filter(Boolean);
}

/** `wrangler queues list` prints a table (cli-table3) with a `name` column; one page per call. */
export function parseQueueList(stdout) {
  const rows = stripAnsi(stdout)
    .split("\n")
    .filter((line) => line.includes("│"))
    .map((line) => line.split("│").slice(1, -1).map((cell) => cell.trim()));
  const header = rows.findIndex((cells) => cells.includes("name") && cells.includes("id"));
  if (header < 0) return [];
  const column = rows[header].indexOf("name");
  return rows.slice(header + 1).map((cells) => cells[column]).filter(Boolean);
}

/** What exists against what is needed: the resources to create, and the D1 ids already known. */
export function planResources(required, existing) {
  const d1Names = new Map(existing.d1.map((d) => [d.name, d.uuid]));
  const r2 = new Set(existing.r2);
  const queues = new Set(existing.queues);
  const create = [
    ...required.d1.filter((d) => !d1Names.has(d.name)).map((d) => ({ kind: "d1", name: d.name, binding: d.binding })),
    ...required.r2.filter((name) => !r2.has(name)).map((name) => ({ kind: "r2", name })),
    // A consumer's dead-letter queue first: the consumer names it.
    ...[...required.queues].sort((a, b) => Number(b.endsWith("-dlq")) - Number(a.endsWith("-dlq"))).filter((name) => !queues.has(name)).map((name) => ({ kind: "queue", name })),
  ];
  const kept = [
    ...required.d1.filter((d) => d1Names.has(d.name)).map((d) => ({ kind: "d1", name: d.name, binding: d.binding, id: d1Names.get(d.name) })),
    ...required.r2.filter((name) => r2.has(name)).map((name) => ({ kind: "r2", name })),
    ...required.queues.filter((name) => queues.has(name)).map((name) => ({ kind: "queue", name })),
  ];
  return { create, kept };
}

/** The wrangler command that creates one planned resource. */
export function createCommand(item) {
  if (item.kind === "d1") return ["d1", "create", item.name];
  if (item.kind === "r2") return ["r2", "bucket", "create", item.name];
  return ["queues", "create", item.name];
}

function must(result, what) {
  if (result.code !== 0) throw new Error(`${what} failed (exit ${result.code}):\n${(result.stderr || result.stdout).trim()}`);
  return result.stdout;
}

async function listAll(run, required) {
  const d1 = parseD1List(must(await run(["d1", "list", "--json"]), "wrangler d1 list"));
  const r2 = parseR2List(must(await run(["r2", "bucket", "list"]), "wrangler r2 bucket list"));
  const queues = [];
  // Queues are listed a page at a time; stop at an empty page or once every needed name is seen.
  for (let page = 1; page <= 100; page++) {
    const names = parseQueueList(must(await run(["queues", "list", "--page", String(page)]), "wrangler queues list"));
    queues.push(...names);
    if (names.length === 0 || required.queues.every((q) => queues.includes(q))) break;
  }
  return { d1, r2, queues };
}

/**
 * Lists, creates what is missing, lists D1 again for the new ids. Idempotent: a second run over
 * an account that has everything creates nothing. Answers `{ created, kept, d1Ids }`
 * (`d1Ids`: binding → database id).
 */
export async function provision(run, required, { log = () => {} } = {}) {
  const plan = planResources(required, await listAll(run, required));
  for (const item of plan.create) {
    log(`creating ${item.kind} ${item.name}`);
    must(await run(createCommand(item)), `wrangler ${createCommand(item).join(" ")}`);
  }
  const d1 = plan.create.some((item) => item.kind === "d1") ? parseD1List(must(await run(["d1", "list", "--json"]), "wrangler d1 list")) : null;
  const ids = new Map((d1 ?? []).map((d) => [d.name, d.uuid]));
  for (const k of plan.kept) if (k.kind === "d1") ids.set(k.name, k.id);
  const d1Ids = {};
  for (const d of required.d1) {
    const id = ids.get(d.name);
    if (!id) throw new Error(`D1 database ${d.name} was created but wrangler d1 list does not show it`);
    d1Ids[d.binding] = id;
  }
  return { created: plan.create, kept: plan.kept, d1Ids };
}

/** `wrangler secret list --format json` → names; a worker not deployed yet has none. */
export function parseSecretList(result) {
  if (result.code !== 0) {
    if (/10007|does not exist|not found/i.test(result.stderr + result.stdout)) return [];
    throw new Error(`wrangler secret list failed (exit ${result.code}):\n${(result.stderr || result.stdout).trim()}`);
  }
  const start = result.stdout.indexOf("[");
  return start < 0 ? [] : JSON.parse(result.stdout.slice(start)).map((s) => s.name);
}

/** A host name an operator can point DNS at: lower-case labels, at least one dot, not a local name. */
export function checkAdminHost(host) {
  if (typeof host !== "string" || !/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(host)) return "ADMIN_HOST must be a lower-case DNS name such as admin.example.com";
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || host.endsWith(".internal")) return `ADMIN_HOST ${host} is a local name`;
  return null;
}

/**
 * The production configuration: wrangler.jsonc's raw configuration (so a binding added there
 * reaches production without a second edit), with the account's D1 ids, production vars and no
 * local-only setting. `configDir` is where the file will be written: paths are rewritten relative
 * to it, as wrangler resolves them from the configuration file.
 */
export function productionConfig(raw, { d1Ids, adminHost, cacheMaxAge = DEFAULT_CACHE_MAX_AGE, accountId, root, configDir }) {
  const rel = (p) => path.relative(configDir, path.resolve(root, p)).split(path.sep).join("/") || ".";
  const config = structuredClone(raw);
  delete config.env;
  delete config.dev;
  if (config.$schema) config.$schema = rel(config.$schema);
  if (config.main) config.main = rel(config.main);
  if (config.assets?.directory) config.assets.directory = rel(config.assets.directory);
  if (accountId) config.account_id = accountId;
  config.d1_databases = config.d1_databases.map((d) => {
    const { preview_database_id: _preview, ...rest } = d;
    return { ...rest, database_id: d1Ids[d.binding], ...(d.migrations_dir ? { migrations_dir: rel(d.migrations_dir) } : {}) };
  });
  const vars = Object.fromEntries(Object.entries(config.vars ?? {}).filter(([k]) => !LOCAL_ONLY_VARS.includes(k)));
  config.vars = { ...vars, ADMIN_HOST: adminHost, PUBLIC_CACHE_MAX_AGE: String(cacheMaxAge) };
  if (config.services) config.services = config.services.filter((s) => !TEST_ONLY_BINDINGS.includes(s.binding));
  // Nothing is served on *.workers.dev or version preview addresses: every host there is unknown (404).
  config.workers_dev = false;
  config.preview_urls = false;
  config.observability = { enabled: true };
  return config;
}

export function renderProductionConfig(config) {
  return `// Generated by scripts/deploy.mjs (npm run deploy) from wrangler.jsonc and this account's resources.
// Not in git: the D1 ids belong to one Cloudflare account. Edit wrangler.jsonc and run npm run deploy
// again rather than editing this file; ADMIN_HOST and PUBLIC_CACHE_MAX_AGE are kept from here.
${JSON.stringify(config, null, 2)}
`;
}

/**
 * Problems of a production configuration as wrangler reads it (`unstable_readConfig`): local-only
 * settings, secrets in plain vars, a local admin host, a cache age that is not a whole number of
 * seconds up to a day, placeholder D1 ids (unless `allowPlaceholderIds`, the dry run's).
 */
export function checkProductionConfig(config, { allowPlaceholderIds = false } = {}) {
  const problems = [];
  const vars = config.vars ?? {};
  for (const name of LOCAL_ONLY_VARS) if (name in vars) problems.push(`${name} is a local development setting`);
  for (const name of [...SECRETS.required, ...SECRETS.optional]) if (name in vars) problems.push(`${name} is a secret, not a plain var`);
  for (const name of Object.keys(vars)) if (!PRODUCTION_VARS.includes(name) && !LOCAL_ONLY_VARS.includes(name) && !SECRETS.optional.includes(name) && !SECRETS.required.includes(name)) problems.push(`${name} is not a var the worker reads`);
  const hostProblem = checkAdminHost(vars.ADMIN_HOST);
  if (hostProblem) problems.push(hostProblem);
  const age = vars.PUBLIC_CACHE_MAX_AGE;
  if (typeof age !== "string" || !/^\d+$/.test(age) || Number(age) > 86400) problems.push("PUBLIC_CACHE_MAX_AGE must be a whole number of seconds from 0 to 86400");
  for (const s of config.services ?? []) if (TEST_ONLY_BINDINGS.includes(s.binding)) problems.push(`${s.binding} is a test-only binding`);
  for (const d of config.d1_databases ?? []) {
    if (!d.database_id) problems.push(`D1 binding ${d.binding} has no database_id`);
    else if (!allowPlaceholderIds && PLACEHOLDER_ID.test(d.database_id)) problems.push(`D1 binding ${d.binding} has the local placeholder id`);
  }
  if (config.compatibility_date > "2026-05-03") problems.push(`compatibility_date ${config.compatibility_date} is later than this wrangler's workerd supports (2026-05-03)`);
  return problems;
}
