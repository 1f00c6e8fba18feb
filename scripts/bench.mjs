#!/usr/bin/env node
/**
 * npm run bench — public read throughput and latency, each figure beside a primitive measured in
 * the same runtime and the same run (docs/benchmarks.md).
 *
 *   1. bundles scripts/bench/bench-worker.ts (the real worker + primitive routes on primitive.bench)
 *      with esbuild and runs it on Miniflare's API with wrangler.jsonc's bindings, storage in a
 *      temporary folder (never .wrangler/), request logging off;
 *   2. applies migrations/d1/*.sql in order, seeds bench.localhost through the real lifecycle
 *      services (1,000 published ~2 KB articles), measures rows read by the list query;
 *   3. PUBLIC_CACHE_MAX_AGE=0: primitives fixed bytes and D1 read, then item, list and
 *      relation-filtered list uncached — autocannon, 50 connections for 10 s after a 2 s warm-up,
 *      then 1 connection for 5 s;
 *   4. restarts on the same storage with PUBLIC_CACHE_MAX_AGE=60: the cache-hit primitive, then the
 *      three reads cached (every answer checked to be a cache hit); copies published rows up to
 *      10,000 items and measures rows read again;
 *   5. prints `BENCH <name>=<req/s>rps/p99=<ms>ms ratio=<x>` per figure, a table, and the targets.
 *
 * Progress goes to stderr; results to stdout. Exits 0 when a target is missed (it reports, it does
 * not assert); non-zero only when the bench itself could not run.
 *
 *   6. write figures (scripts/bench/write-figures.mjs, issue #14) on a fresh runtime over the same storage.
 *
 * Environment (for quick trials): BENCH_ITEMS (default 1000), BENCH_DURATION seconds (default 10),
 * BENCH_ONLY=read|write|search|rows|backend|import (default read and write; search: only the search figures; rows: only the
 * list rows-read figures (issue #27 item 8); import: only the WordPress import of the 20,000-post file, written
 * to its end, scripts/bench/import-figures.mjs (issue #28; about an hour); backend: only the
 * generated backend beside Directus, scripts/bench/generated-backend-figures.mjs), BENCH_BACKEND=0 (skip those),
 * BENCH_DIRECTUS=0 (skip the peer), BENCH_WRITE_DURATION, BENCH_WRITE_SITES (default 1,2,5,10),
 * BENCH_WRITE_FIGURES=create,save,publish (only these write figures: the fair-writes run, docs/write-fairness.md),
 * BENCH_WRITE_PRIMITIVE_DURATION (seconds of each write primitive; default BENCH_WRITE_DURATION).
 */
import { buildAdmin } from "./build-admin.mjs";
import http from "node:http";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { root } from "./lib/load-ts.mjs";
import { bundleWorker, readBindings } from "./lib/worker-build.mjs";
import { noisePng, uploadFigure, uploadThroughApi } from "./bench/media-figures.mjs";
import { searchFigures, searchLines, searchTargets } from "./bench/search-figures.mjs";
import { cpuSnapshot, otherCpu } from "./bench/cpu.mjs";
import { cloneSites, mixTargets, primeMix, rotatingRequests, SCALE_SITES, SCALE_TARGET, scaleSlugs } from "./bench/scale-figures.mjs";
import { WRITE_BINDINGS, WRITE_DURABLE_OBJECTS, writeFigures } from "./bench/write-figures.mjs";
import { generatedBackendFigures } from "./bench/generated-backend-figures.mjs";
import { importFigures } from "./bench/import-figures.mjs";

const ITEMS = Number(process.env.BENCH_ITEMS ?? 1000);
const LARGE_ITEMS = 10_000;
/** Search figures grow the bench site's articles to this many (BENCH_SEARCH_ITEMS; 0 skips them). */
const SEARCH_ITEMS = Number(process.env.BENCH_SEARCH_ITEMS ?? 100_000);
const SEED_BATCH = Number(process.env.BENCH_SEED_BATCH ?? 50);
const CONNECTIONS = 50;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = 2;
const SINGLE_DURATION = 5;
const SITE_HOST = "bench.localhost";
const PRIMITIVE_HOST = "primitive.bench";
const SAMPLE_SLUG = `article-${String(Math.floor(ITEMS / 2)).padStart(5, "0")}`;
const DEEP_PAGE = 5;
const ONLY = process.env.BENCH_ONLY ?? "all";
const TARGETS = { uncachedItem: 0.6, uncachedList: 0.5, cached: 0.8 };
/** BENCH_SCALE=0 skips the many-sites figures (about 2 minutes and 99 SQL copies of the site). */
const SCALE = process.env.BENCH_SCALE !== "0";

const say = (line = "") => process.stderr.write(`${line}\n`);
const print = (line = "") => process.stdout.write(`${line}\n`);
const started = Date.now();
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(" ");
const loadAtStart = load();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;

/** One HTTP request with an explicit Host (Node's fetch would replace it: DESIGN.md §5). */
function call(base, method, pathname, host, body) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        // A connection of its own: Node 20's global agent keeps sockets alive, and reusing one the
        // runtime has closed meanwhile fails with ECONNRESET / "socket hang up".
        agent: false,
        host: base.hostname,
        port: base.port,
        method,
        path: pathname,
        headers: { host, ...(payload ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}) },
      },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

async function callJson(base, method, pathname, host, body) {
  const res = await call(base, method, pathname, host, body);
  if (res.status !== 200) throw new Error(`${method} ${host}${pathname} answered ${res.status}: ${res.text.slice(0, 2000)}`);
  return JSON.parse(res.text);
}

const bench = (base, method, pathname, body) => callJson(base, method, pathname, PRIMITIVE_HOST, body);

async function startRuntime(script, bindings, persistDir, maxAge) {
  const { Miniflare } = await import("miniflare");
  const mf = new Miniflare({
    modules: true,
    script,
    compatibilityDate: bindings.compatibilityDate,
    compatibilityFlags: bindings.compatibilityFlags,
    host: "127.0.0.1",
    port: 0,
    logRequests: false,
    // BENCH_INSPECTOR_PORT=9229 opens workerd's inspector, for scripts/bench/profile.mjs.
    ...(process.env.BENCH_INSPECTOR_PORT ? { inspectorPort: Number(process.env.BENCH_INSPECTOR_PORT) } : {}),
    d1Databases: bindings.d1Databases,
    ...(bindings.r2Bucket ? { r2Buckets: { MEDIA: bindings.r2Bucket } } : {}),
    durableObjects: {
      ...Object.fromEntries(
      bindings.durableObjects.map((d) => [d.name, { className: d.class_name, useSQLite: bindings.sqliteClasses.includes(d.class_name) }]),
      ),
      ...WRITE_DURABLE_OBJECTS,
    },
    queueProducers: Object.fromEntries(bindings.queueProducers.map((q) => [q.binding, { queueName: q.queue }])),
    bindings: { ...bindings.vars, ...WRITE_BINDINGS, PUBLIC_CACHE_MAX_AGE: String(maxAge) },
    d1Persist: path.join(persistDir, "d1"),
    r2Persist: path.join(persistDir, "r2"),
    durableObjectsPersist: path.join(persistDir, "do"),
    cachePersist: path.join(persistDir, "cache"),
    handleRuntimeStdio(stdout, stderr) {
      stdout.pipe(process.stderr);
      stderr.pipe(process.stderr);
    },
  });
  const url = await mf.ready;
  return { mf, base: new URL(url) };
}

/** migrations/d1/*.sql in order, split the way wrangler splits them, each file one batch. */
async function applyMigrations(mf, bindings) {
  const { unstable_splitSqlQuery } = await import("wrangler");
  const dir = path.join(root, bindings.d1MigrationsDir);
  const files = readdirSync(dir).filter((f) => f.endsWith(".sql")).sort();
  // Every D1 binding gets every migration (docs/scale.md, "More than one database").
  for (const binding of Object.keys(bindings.d1Databases)) {
    const db = await mf.getD1Database(binding);
    for (const file of files) {
      const statements = unstable_splitSqlQuery(readFileSync(path.join(dir, file), "utf8")).filter((s) => s.trim() !== "");
      await db.batch(statements.map((s) => db.prepare(s)));
    }
  }
  say(`Applied ${files.length} D1 migrations (${files.join(", ")}).`);
}

async function seed(base) {
  say(`Seeding ${SITE_HOST}: site, models, authors, categories…`);
  const site = await bench(base, "POST", "/_bench/site");
  let french = 0;
  const t0 = Date.now();
  for (let from = 0; from < ITEMS; from += SEED_BATCH) {
    const count = Math.min(SEED_BATCH, ITEMS - from);
    const done = await bench(base, "POST", "/_bench/articles", { site, from, count });
    french += done.french;
    const n = from + count;
    if (n % 200 === 0 || n === ITEMS) say(`  published ${n}/${ITEMS} articles (+${french} French) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
  return { site, french, seconds: (Date.now() - t0) / 1000 };
}

async function runCannon(base, host, pathname, connections, duration, requests) {
  const before = cpuSnapshot();
  const errorMessages = new Set();
  const instance = autocannon({ url: new URL(pathname, base).href, headers: { host }, connections, duration, pipelining: 1, ...(requests ? { requests } : {}) });
  instance.on("reqError", (error) => {
    if (errorMessages.size < 3) errorMessages.add(error.code ?? error.message);
  });
  const result = await instance;
  const other = otherCpu(before, cpuSnapshot());
  const codes = Object.entries(result.statusCodeStats ?? {}).filter(([code]) => code !== "200");
  return {
    otherCpu: other,
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    detail: [
      ...codes.map(([code, v]) => `${v.count}×${code}`),
      ...(result.errors - result.timeouts > 0 ? [`${result.errors - result.timeouts} socket errors (${[...errorMessages].join(", ")})`] : []),
      ...(result.timeouts ? [`${result.timeouts} timeouts`] : []),
    ].join(", "),
  };
}

/** Warm-up, 50 connections, then 1 connection; with the worker's cache-hit counts of each. */
async function measure(base, name, host, pathname) {
  say(`[${elapsed()}] ${name}: ${host}${pathname}`);
  await runCannon(base, host, pathname, CONNECTIONS, WARMUP);
  await bench(base, "POST", "/_bench/stats");
  const loaded = await runCannon(base, host, pathname, CONNECTIONS, DURATION);
  const loadedStats = await bench(base, "GET", "/_bench/stats");
  await bench(base, "POST", "/_bench/stats");
  const single = await runCannon(base, host, pathname, 1, SINGLE_DURATION);
  const singleStats = await bench(base, "GET", "/_bench/stats");
  return { name, host, pathname, c50: { ...loaded, stats: loadedStats }, c1: { ...single, stats: singleStats } };
}

/** A many-sites figure: the read mix over `targets` (rotating Host and path), warm-up then 50 connections. */
async function measureMix(base, name, targets) {
  say(`[${elapsed()}] ${name}: ${targets.length} (site, item) pairs`);
  const first = targets[0];
  await runCannon(base, first.host, first.path, CONNECTIONS, WARMUP, rotatingRequests(targets));
  await bench(base, "POST", "/_bench/stats");
  const loaded = await runCannon(base, first.host, first.path, CONNECTIONS, DURATION, rotatingRequests(targets));
  return { name, pairs: targets.length, c50: { ...loaded, stats: await bench(base, "GET", "/_bench/stats") } };
}

const scaleLines = [];

/** BENCH lines of the many-sites figures: each rate against the 1-site rate of the same kind. */
function reportScale(kind, figs, caches) {
  const one = figs[0];
  for (const fig of figs) {
    fig.ratio = fig.c50.rps / one.c50.rps;
    const hits = kind === "cached" ? ` cache_hits=${fig.c50.stats.cache_hits}/${fig.c50.stats.answers}` : "";
    const other = fig.c50.otherCpu === undefined ? "" : ` other_cpu=${Math.round(fig.c50.otherCpu)}%`;
    const line = `BENCH scale.${kind}.sites${fig.sites}.c50=${round(fig.c50.rps)}rps/p50=${round(fig.c50.p50)}ms/p99=${round(fig.c50.p99)}ms ratio=${fig.ratio.toFixed(2)} (vs 1 site; ${fig.pairs} pairs${hits}${other}${fig.c50.non2xx ? `, ${fig.c50.non2xx} non-200` : ""})`;
    print(line);
    scaleLines.push({ kind, sites: fig.sites, ratio: fig.ratio });
  }
  if (caches) {
    for (const c of caches) print(`BENCH scale.config_cache.${c.name.replace(/\s+/g, "_")}=${c.entries} entries (max ${c.max_entries}) approx_bytes=${c.approx_bytes}`);
  }
}

/**
 * The D1 and cache primitives are measured twice, before and after the figures compared with them;
 * their figure is the mean of the two runs (each run is kept, to show how steady the machine was).
 */
function bracket(a, b) {
  const mean = (x, y) => (x === undefined || y === undefined ? undefined : (x + y) / 2);
  const both = (x, y) => ({
    rps: mean(x.rps, y.rps),
    total: x.total + y.total,
    p50: mean(x.p50, y.p50),
    p99: mean(x.p99, y.p99),
    non2xx: x.non2xx + y.non2xx,
    errors: x.errors + y.errors,
    detail: [x.detail, y.detail].filter(Boolean).join(", "),
    otherCpu: mean(x.otherCpu, y.otherCpu),
    runs: [x.rps, y.rps],
    stats: x.stats,
  });
  return { ...a, c50: both(a.c50, b.c50), c1: both(a.c1, b.c1) };
}

const figures = [];
const lines = [];
const round = (x) => (x >= 100 ? Math.round(x) : Math.round(x * 10) / 10);

/** Records and prints the BENCH lines of a figure against its primitive. */
function report(fig, primitive, kind) {
  fig.kind = kind;
  fig.primitive = primitive?.name ?? fig.name;
  for (const c of ["c50", "c1"]) {
    const ratio = primitive ? fig[c].rps / primitive[c].rps : 1;
    fig[c].ratio = ratio;
    const line = `BENCH ${fig.name}.${c}=${round(fig[c].rps)}rps/p99=${round(fig[c].p99)}ms ratio=${ratio.toFixed(2)}`;
    lines.push(line);
    print(line);
  }
  figures.push(fig);
}

/** Checks what the three reads answer (uncached) and returns their data, to compare cached answers with. */
async function checkSamples(base, authorId) {
  const item = await call(base, "GET", `/v1/article/${SAMPLE_SLUG}`, SITE_HOST);
  const fixed = await call(base, "GET", "/fixed", PRIMITIVE_HOST);
  if (item.status !== 200) throw new Error(`item answered ${item.status}: ${item.text}`);
  if (item.text !== fixed.text) throw new Error("the item answer and the fixed-bytes primitive differ");
  const list = JSON.parse((await call(base, "GET", "/v1/article", SITE_HOST)).text);
  if (list.data?.length !== 20) throw new Error(`list answered ${list.data?.length} items`);
  const rel = JSON.parse((await call(base, "GET", `/v1/article?relation=author:${authorId}`, SITE_HOST)).text);
  const expected = Math.min(20, Math.ceil(ITEMS / 10));
  if (rel.data?.length !== expected || !rel.data.every((d) => d.relations.author?.[0]?.instance_id === authorId)) {
    throw new Error(`the relation-filtered list does not hold ${expected} items of the chosen author`);
  }
  return {
    itemBytes: Buffer.byteLength(item.text),
    listBytes: Buffer.byteLength(JSON.stringify(list)),
    data: { item: JSON.stringify(JSON.parse(item.text).data), list: JSON.stringify(list.data), list_relation: JSON.stringify(rel.data) },
  };
}

/**
 * Right before a cached figure: the first request is a miss that puts the key (max-age 60 s, so it
 * outlives the figure's ~20 s), the second must be a hit carrying the same data as the uncached read.
 */
async function primeCache(base, pathname, expectedData) {
  const first = await call(base, "GET", pathname, SITE_HOST);
  if (first.status !== 200) throw new Error(`${pathname} answered ${first.status}`);
  if (first.headers["cf-cache-status"] === "HIT") throw new Error(`${pathname} was already cached: its key would expire during the figure`);
  await new Promise((r) => setTimeout(r, 200));
  const again = await call(base, "GET", pathname, SITE_HOST);
  if (again.headers["cf-cache-status"] !== "HIT") throw new Error(`${pathname} was not served from the cache on a second request`);
  if (JSON.stringify(JSON.parse(again.text).data) !== expectedData) throw new Error(`${pathname}: the cached answer differs from the uncached one`);
}

const DELIVERY_BYTES = 256 * 1024;

/** The published gallery item's media URL (checked to serve the object's exact bytes) and the R2 primitive's path for the same object. */
async function deliveryPaths(base, objectKey) {
  const item = await call(base, "GET", "/v1/gallery/bench-photo", SITE_HOST);
  if (item.status !== 200) throw new Error(`the gallery item answered ${item.status}: ${item.text.slice(0, 500)}`);
  const url = JSON.parse(item.text).data.media.photo?.[0]?.url;
  if (typeof url !== "string") throw new Error(`the gallery item has no media url: ${item.text.slice(0, 500)}`);
  const primitive = `/r2get?key=${encodeURIComponent(objectKey)}`;
  const served = await call(base, "GET", url, SITE_HOST);
  const raw = await call(base, "GET", primitive, PRIMITIVE_HOST);
  if (served.status !== 200) throw new Error(`${url} answered ${served.status}: ${served.text.slice(0, 300)}`);
  if (served.text !== raw.text) throw new Error(`${url} does not serve the object's bytes`);
  return { url, primitive, objectKey };
}

/** Before the cached delivery figure: the second request must be a cache hit. */
async function primeMediaDelivery(base, url) {
  await call(base, "GET", url, SITE_HOST);
  await new Promise((r) => setTimeout(r, 200));
  const again = await call(base, "GET", url, SITE_HOST);
  if (again.status !== 200 || again.headers["cf-cache-status"] !== "HIT") throw new Error(`${url} was not served from the cache on a second request (${again.status}, ${again.headers["cf-cache-status"]})`);
}

/** The served view's figures are the targets (what the route reads); the read-time query's are printed beside them. */
function rowsLines(report) {
  const limit = report.page_size + 1;
  const out = [];
  for (const f of report.figures) {
    if (f.query === "read_time") {
      print(`ROWS list.${f.list}.read_time@${report.items}.page${f.page}=${f.rows_read} rows_read (${f.rows} served; the read-time query before the served view)`);
      continue;
    }
    out.push({ ...f, items: report.items, limit, met: f.rows_read <= limit });
    print(`ROWS list.${f.list}@${report.items}.page${f.page}=${f.rows_read} rows_read (${f.rows} served) target<=${limit} ${f.rows_read <= limit ? "met" : "MISSED"}`);
  }
  print(`ROWS list.relation.target_lookup@${report.items}=${report.target_lookup} rows_read (the author's instance id to its group: once per isolate and target)`);
  return out;
}

function table() {
  print("");
  print("| figure | conns | req/s | p50 ms | p99 ms | ratio | vs | not 200 | cache hits | other CPU |");
  print("|---|---:|---:|---:|---:|---:|---|---|---:|---:|");
  for (const f of figures) {
    for (const c of ["c50", "c1"]) {
      const r = f[c];
      const hits = f.kind === "primitive" ? "–" : `${r.stats.cache_hits}/${r.stats.answers}`;
      const rps = r.runs ? `${round(r.rps)} (${r.runs.map(round).join(" / ")})` : `${round(r.rps)}`;
      const cpu = r.otherCpu === undefined ? "n/a" : `${Math.round(r.otherCpu)} %`;
      print(`| ${f.name} | ${c === "c50" ? CONNECTIONS : 1} | ${rps} | ${round(r.p50)} | ${round(r.p99)} | ${r.ratio.toFixed(2)} | ${f.primitive} | ${r.detail || "0"} | ${hits} | ${cpu} |`);
    }
  }
}

function targets(rows) {
  const by = (name) => figures.find((f) => f.name === name);
  const checks = [
    ["item.uncached", TARGETS.uncachedItem, "primitive.d1_read"],
    ["list.uncached", TARGETS.uncachedList, "primitive.d1_read"],
    ["list_relation.uncached", TARGETS.uncachedList, "primitive.d1_read"],
    ["item.cached", TARGETS.cached, "primitive.cache_hit"],
    ["list.cached", TARGETS.cached, "primitive.cache_hit"],
    ["list_relation.cached", TARGETS.cached, "primitive.cache_hit"],
  ];
  print("");
  print("Targets (throughput at 50 connections; ratio = figure req/s ÷ primitive req/s):");
  for (const [name, min, primitive] of checks) {
    const f = by(name);
    if (!f) continue;
    print(`  TARGET ${name} >= ${min} x ${primitive}: ${f.c50.ratio.toFixed(2)} ${f.c50.ratio >= min ? "met" : "MISSED"}`);
  }
  for (const r of rows) {
    print(`  TARGET rows_read list.${r.list} page ${r.page} at ${r.items} items <= ${r.limit}: ${r.rows_read} ${r.met ? "met" : "MISSED"}`);
  }
  const errors = figures.flatMap((f) => ["c50", "c1"].filter((c) => f[c].non2xx + f[c].errors > 0).map((c) => `${f.name}.${c}`));
  if (errors.length > 0) print(`  WARNING: answers other than 200, or socket errors, in ${errors.join(", ")} (see the table)`);
}

/**
 * Grows the bench site to SEARCH_ITEMS published articles with their search documents (direct
 * SQL copies of the originals, in steps of 10 copies so no request runs long) and measures search
 * again with the same queries.
 */
async function growSearch(benchCall) {
  say(`[${elapsed()}] Copying published rows and search documents up to ${SEARCH_ITEMS} items (direct SQL, search figures)…`);
  let grownMore;
  const copiesWanted = Math.ceil(SEARCH_ITEMS / ITEMS) - 1;
  for (let from = 1; from <= copiesWanted; from += 10) {
    const to = Math.min(copiesWanted, from + 9);
    grownMore = await benchCall("POST", "/_bench/grow", { target: (to + 1) * ITEMS });
    const docs = await benchCall("POST", "/_bench/search/grow", { from, to });
    say(`  ${grownMore.items} items, ${docs.documents} search documents`);
  }
  return { items: grownMore?.items ?? ITEMS, figures: await searchFigures(benchCall, ITEMS) };
}

/** The admin UI's initial JavaScript, gzipped, against its 150 KB budget (issue #15). */
async function adminFigure() {
  const figures = await buildAdmin({ quiet: true });
  print(`BENCH admin.initial_js_gzip=${figures.initial_js_gzip_bytes}B (${figures.initial_files} files; all JavaScript ${figures.all_js_gzip_bytes}B in ${figures.js_files} files)`);
  const met = figures.initial_js_gzip_bytes <= figures.budget_bytes;
  print(`  TARGET admin.initial_js_gzip <= ${figures.budget_bytes}B: ${figures.initial_js_gzip_bytes}B ${met ? "met" : "MISSED"}`);
}

async function main() {
  if (ONLY === "backend") {
    await generatedBackendFigures(print, say);
    return;
  }
  if (ONLY === "import") {
    // The WordPress import of the generated 20,000-post file, written to its end (about an hour on
    // the shared machine: a part of its own, not in the default run).
    await importFigures(print, say);
    return;
  }
  await adminFigure();
  const bindings = await readBindings();
  say("Bundling scripts/bench/bench-worker.ts…");
  const script = await bundleWorker("scripts/bench/bench-worker.ts");
  const persistDir = mkdtempSync(path.join(os.tmpdir(), "driftwood-bench-"));
  let runtime;
  let uploads;
  let delivery;
  const stop = async () => {
    const r = runtime;
    runtime = undefined;
    if (r) await r.mf.dispose();
  };
  const interrupted = () => {
    stop().finally(() => {
      rmSync(persistDir, { recursive: true, force: true });
      process.exit(130);
    });
  };
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);
  try {
    if (ONLY === "write") {
      runtime = await startRuntime(script, bindings, persistDir, 0);
      say(`Miniflare (PUBLIC_CACHE_MAX_AGE=0) on ${runtime.base.origin}, storage ${persistDir}; write figures only`);
      await applyMigrations(runtime.mf, bindings);
      await writeFigures(runtime.base, print, say);
      await stop();
      print(`Load average at start ${loadAtStart}, at end ${load()}. Done in ${elapsed()}.`);
      return;
    }
    if (ONLY === "rows") {
      // Rows read by the public list forms (issue #27 item 8): seed, measure, grow to LARGE_ITEMS, measure.
      runtime = await startRuntime(script, bindings, persistDir, 0);
      say(`Miniflare on ${runtime.base.origin}, storage ${persistDir}; list rows-read figures only`);
      await applyMigrations(runtime.mf, bindings);
      await seed(runtime.base);
      const rows = rowsLines(await bench(runtime.base, "GET", `/_bench/rows?deep=${DEEP_PAGE}`));
      const grown = await bench(runtime.base, "POST", "/_bench/grow", { target: LARGE_ITEMS });
      say(`  ${grown.items} items, ${grown.rows} published rows`);
      rows.push(...rowsLines(await bench(runtime.base, "GET", `/_bench/rows?deep=${DEEP_PAGE}`)));
      await stop();
      for (const r of rows) print(`  TARGET rows_read list.${r.list} page ${r.page} at ${r.items} items <= ${r.limit}: ${r.rows_read} ${r.met ? "met" : "MISSED"}`);
      print(`Load average at start ${loadAtStart}, at end ${load()}. Done in ${elapsed()}.`);
      return;
    }
    if (ONLY === "search") {
      runtime = await startRuntime(script, bindings, persistDir, 0);
      say(`Miniflare on ${runtime.base.origin}, storage ${persistDir}; search figures only`);
      await applyMigrations(runtime.mf, bindings);
      await seed(runtime.base);
      const benchCall = (method, p, body) => bench(runtime.base, method, p, body);
      const small = await searchFigures(benchCall, ITEMS);
      const large = await growSearch(benchCall);
      await stop();
      for (const l of [...searchLines(ITEMS, small), ...searchLines(large.items, large.figures)]) print(l);
      for (const l of searchTargets(small, ITEMS, large.figures, large.items)) print(l);
      print(`Load average at start ${loadAtStart}, at end ${load()}. Done in ${elapsed()}.`);
      return;
    }
    // Phase 1: PUBLIC_CACHE_MAX_AGE=0.
    runtime = await startRuntime(script, bindings, persistDir, 0);
    let { base } = runtime;
    say(`Miniflare (PUBLIC_CACHE_MAX_AGE=0) on ${base.origin}, storage ${persistDir}`);
    await applyMigrations(runtime.mf, bindings);
    const seeded = await seed(base);
    const authorId = seeded.site.author_ids[0];
    const setup = await bench(base, "POST", "/_bench/setup", { host: SITE_HOST, model: "article", slug: SAMPLE_SLUG });
    const sample = await checkSamples(base, authorId);
    print(
      `Seeded ${ITEMS} articles (+${seeded.french} French translations) through the lifecycle in ${seeded.seconds.toFixed(1)} s; ` +
        `item answer ${sample.itemBytes} bytes (primitives answer the same ${setup.bytes} bytes), list page ${sample.listBytes} bytes.`,
    );
    const rows = rowsLines(await bench(base, "GET", `/_bench/rows?deep=${DEEP_PAGE}`));

    const fixed = await measure(base, "primitive.fixed", PRIMITIVE_HOST, "/fixed");
    const d1First = await measure(base, "primitive.d1_read", PRIMITIVE_HOST, "/d1");
    const paths = { item: `/v1/article/${SAMPLE_SLUG}`, list: "/v1/article", list_relation: `/v1/article?relation=author:${authorId}` };
    const uncached = [];
    for (const [name, p] of Object.entries(paths)) uncached.push(await measure(base, `${name}.uncached`, SITE_HOST, p));
    const d1 = bracket(d1First, await measure(base, "primitive.d1_read", PRIMITIVE_HOST, "/d1"));
    report(fixed, undefined, "primitive");
    report(d1, fixed, "primitive");
    for (const fig of uncached) report(fig, d1, "uncached");

    // Media: uploads through the management API against raw R2 puts, then delivery of a published image.
    say(`[${elapsed()}] media.upload: ${SITE_HOST}/api/manage/v1/media against PUT ${PRIMITIVE_HOST}/r2put`);
    const benchPerson = { site_id: seeded.site.site_id, person_id: seeded.site.person_id };
    const { token } = await bench(base, "POST", "/_bench/media/credential", benchPerson);
    uploads = await uploadFigure(base, SITE_HOST, PRIMITIVE_HOST, token, say);
    const photo = await uploadThroughApi(base, SITE_HOST, token, noisePng(DELIVERY_BYTES, `bench delivery ${Date.now()}`), "delivery.png");
    const gallery = await bench(base, "POST", "/_bench/media/gallery", { ...benchPerson, media_id: photo.id });
    delivery = await deliveryPaths(base, gallery.object_key);
    const r2First = await measure(base, "primitive.r2_get", PRIMITIVE_HOST, delivery.primitive);
    const mediaUncached = await measure(base, "media.delivery.uncached", SITE_HOST, delivery.url);
    const r2 = bracket(r2First, await measure(base, "primitive.r2_get", PRIMITIVE_HOST, delivery.primitive));
    report(r2, fixed, "primitive");
    report(mediaUncached, r2, "uncached");

    // Many sites (issue #14 item 3): the same item-read mix over 1, 10 and 100 sites of 1,000 items.
    let scaleHosts = [];
    const slugs = scaleSlugs(ITEMS);
    if (SCALE) {
      say(`[${elapsed()}] Copying ${SITE_HOST} into ${Math.max(...SCALE_SITES) - 1} more sites (direct SQL)…`);
      scaleHosts = await cloneSites((method, p, body) => bench(base, method, p, body), SITE_HOST, Math.max(...SCALE_SITES), say);
      const figs = [];
      for (const sites of SCALE_SITES) figs.push({ ...(await measureMix(base, `scale.uncached.sites${sites}`, mixTargets(scaleHosts, sites, slugs))), sites });
      reportScale("uncached", figs, await bench(base, "GET", "/_bench/scale/caches"));
    }
    await stop();

    // Phase 2: restart on the same storage with PUBLIC_CACHE_MAX_AGE=60.
    runtime = await startRuntime(script, bindings, persistDir, 60);
    base = runtime.base;
    say(`[${elapsed()}] Restarted Miniflare with PUBLIC_CACHE_MAX_AGE=60 on ${base.origin}`);
    await bench(base, "POST", "/_bench/setup", { host: SITE_HOST, model: "article", slug: SAMPLE_SLUG });
    const cacheFirst = await measure(base, "primitive.cache_hit", PRIMITIVE_HOST, "/cache");
    const cached = [];
    for (const [name, p] of Object.entries(paths)) {
      await primeCache(base, p, sample.data[name]);
      cached.push(await measure(base, `${name}.cached`, SITE_HOST, p));
    }
    const cache = bracket(cacheFirst, await measure(base, "primitive.cache_hit", PRIMITIVE_HOST, "/cache"));
    report(cache, fixed, "primitive");
    for (const fig of cached) report(fig, cache, "cached");

    await bench(base, "POST", "/_bench/media/prime", { object_key: delivery.objectKey });
    const mediaCacheFirst = await measure(base, "primitive.cache_media", PRIMITIVE_HOST, "/cache_media");
    await primeMediaDelivery(base, delivery.url);
    const mediaCached = await measure(base, "media.delivery.cached", SITE_HOST, delivery.url);
    const mediaCache = bracket(mediaCacheFirst, await measure(base, "primitive.cache_media", PRIMITIVE_HOST, "/cache_media"));
    report(mediaCache, fixed, "primitive");
    report(mediaCached, mediaCache, "cached");

    if (SCALE) {
      const figs = [];
      for (const sites of SCALE_SITES) {
        const targets = mixTargets(scaleHosts, sites, slugs);
        const hits = await primeMix(call, base, targets);
        if (hits !== targets.length) print(`  WARNING: scale.cached.sites${sites}: only ${hits}/${targets.length} pairs were cache hits after priming`);
        figs.push({ ...(await measureMix(base, `scale.cached.sites${sites}`, targets)), sites });
      }
      reportScale("cached", figs);
    }

    const benchCall = (method, p, body) => bench(base, method, p, body);
    const searchSmall = SEARCH_ITEMS > 0 ? await searchFigures(benchCall, ITEMS) : undefined;

    say(`[${elapsed()}] Copying published rows up to ${LARGE_ITEMS} items (direct SQL, rows-read measurement only)…`);
    const grown = await bench(base, "POST", "/_bench/grow", { target: LARGE_ITEMS });
    say(`  ${grown.items} items, ${grown.rows} published rows`);
    rows.push(...rowsLines(await bench(base, "GET", `/_bench/rows?deep=${DEEP_PAGE}`)));

    const searchLarge = searchSmall ? await growSearch(benchCall) : undefined;
    await stop();

    table();
    print("");
    print(`BENCH media.upload.c1=${uploads.api.toFixed(1)}MiB/s ratio=${uploads.ratio.toFixed(2)} (${uploads.rounds} × ${(uploads.fileBytes / 1048576).toFixed(2)} MiB through POST /api/manage/v1/media, ${Math.round(uploads.apiMsPerUpload)} ms each)`);
    print(`BENCH primitive.r2_put.c1=${uploads.put.toFixed(1)}MiB/s ratio=1.00 (the same bytes buffered and put to R2, ${Math.round(uploads.putMsPerUpload)} ms each)`);
    targets(rows);
    if (searchSmall && searchLarge) {
      print("");
      for (const l of [...searchLines(ITEMS, searchSmall), ...searchLines(searchLarge.items, searchLarge.figures)]) print(l);
      for (const l of searchTargets(searchSmall, ITEMS, searchLarge.figures, searchLarge.items)) print(l);
    }
    for (const r of scaleLines.filter((x) => x.sites === Math.max(...SCALE_SITES))) {
      print(`  TARGET scale.${r.kind} ${r.sites} sites >= ${SCALE_TARGET} x 1 site: ${r.ratio.toFixed(2)} ${r.ratio >= SCALE_TARGET ? "met" : "MISSED"}`);
    }
    for (const f of figures.filter((x) => x.kind === "cached")) {
      for (const c of ["c50", "c1"]) {
        if (f[c].stats.cache_hits !== f[c].stats.answers) print(`  WARNING: ${f.name}.${c}: only ${f[c].stats.cache_hits}/${f[c].stats.answers} answers were cache hits`);
      }
    }
    for (const f of figures) {
      for (const c of ["c50", "c1"]) {
        const r = f[c];
        if (r.runs && Math.abs(r.runs[0] - r.runs[1]) > 0.25 * r.rps) print(`  WARNING: ${f.name}.${c}: its two runs differ by more than 25 % (${r.runs.map(round).join(" / ")}): the machine was not steady`);
        if (r.otherCpu !== undefined && r.otherCpu > 10) print(`  WARNING: ${f.name}.${c}: other processes used ${Math.round(r.otherCpu)} % of the machine's CPU meanwhile`);
      }
    }
    for (const f of figures.filter((x) => x.kind !== "primitive")) {
      for (const c of ["c50", "c1"]) {
        if (f[c].stats.ok !== f[c].stats.answers) print(`  WARNING: ${f.name}.${c}: the worker answered ${f[c].stats.answers - f[c].stats.ok} of ${f[c].stats.answers} requests with a status other than 200`);
      }
    }
    for (const f of figures.filter((x) => x.kind === "uncached")) {
      if (f.c50.stats.cache_hits > 0) print(`  WARNING: ${f.name}: ${f.c50.stats.cache_hits} answers came from the cache`);
    }
    if (ONLY !== "read") {
      // Phase 3: the write figures (issue #14), on a fresh runtime over the same storage.
      runtime = await startRuntime(script, bindings, persistDir, 0);
      say(`[${elapsed()}] Restarted Miniflare with PUBLIC_CACHE_MAX_AGE=0 for the write figures`);
      await writeFigures(runtime.base, print, say);
      await stop();
    }
    // Phase 4: the generated backend's local server beside the Directus peer (issue #24 item 7).
    if (ONLY === "all" && process.env.BENCH_BACKEND !== "0") await generatedBackendFigures(print, say);
    print("");
    print(`Load average at start ${loadAtStart}, at end ${load()} (2 cores: other processes on the machine skew every figure, ratios less).`);
    print(`Done in ${elapsed()} (autocannon: ${CONNECTIONS} connections × ${DURATION} s after a ${WARMUP} s warm-up; 1 connection × ${SINGLE_DURATION} s).`);
  } finally {
    await stop();
    rmSync(persistDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  say(`bench failed: ${error.stack ?? error.message}`);
  process.exit(1);
});
