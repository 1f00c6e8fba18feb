/**
 * The generated backend's figures in `npm run bench` (issue #24 item 7, docs/generated-backend.md
 * "Speed"): the demo site's backend is generated through the management API, unpacked, given
 * BENCH_ITEMS articles (~2 KB each, like the peer's), initialised on its embedded database and
 * served by its local Node server; autocannon then measures findMany (20 newest), findUnique (by
 * slug) and create. In the same run, the Directus 12 + SQLite peer (../shared/bench/peer-directus.sh,
 * same article shape and count) is driven, and the ratios are printed as TARGET lines: ≥ 3× Directus
 * on both reads, ≥ 1.5× on create. Without the peer the TARGET lines say why they are not measured.
 *
 *   BENCH_ONLY=backend npm run bench     just these figures
 *   BENCH_DIRECTUS=0                     skip the peer (its first install takes ~10 min)
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { startDevServer } from "../lib/dev-server.mjs";
import { root } from "../lib/load-ts.mjs";

const CMS_PORT = 8871;
const BACKEND_PORT = 8872;
const DIRECTUS_PORT = 8873;
const SERVICE = "bench-service-token-0123456789";
const TARGETS = { findMany: 3, findUnique: 3, create: 1.5 };
const PEER_LABELS = { findMany: "directus-cacheoff-list20", findUnique: "directus-cacheoff-slug", create: "directus-create" };
const PEER_SCRIPT = path.resolve(root, "..", "shared", "bench", "peer-directus.sh");

const run = (command, args, options = {}) => spawnSync(command, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, timeout: 600_000, ...options });

function must(step, result) {
  if (result.status !== 0) throw new Error(`${step} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result;
}

/** The emitted project's dependencies, installed once per package.json + lock (the e2e harness's cache). */
function installOnce(tree) {
  const key = createHash("sha256").update(readFileSync(path.join(tree, "package.json")) + "\n" + readFileSync(path.join(tree, "package-lock.json"))).digest("hex").slice(0, 16);
  const cache = path.join(os.tmpdir(), `driftwood-generated-backend-deps-${key}`);
  if (!existsSync(path.join(cache, "node_modules", ".package-lock.json"))) {
    const staging = `${cache}.${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    for (const file of ["package.json", "package-lock.json"]) cpSync(path.join(tree, file), path.join(staging, file));
    must("npm ci", run("npm", ["ci", "--prefer-offline", "--no-audit", "--no-fund"], { cwd: staging }));
    rmSync(cache, { recursive: true, force: true });
    renameSync(staging, cache);
  }
  symlinkSync(path.join(cache, "node_modules"), path.join(tree, "node_modules"), "dir");
}

/** BENCH_ITEMS articles shaped like the peer's: title, unique slug, ~2 KB body, a date (published_at). */
function benchArticles(project, items) {
  const schema = JSON.parse(readFileSync(path.join(project, "schema.json"), "utf8"));
  const article = schema.models.find((m) => m.api === "article");
  const file = path.join(project, "data", "article.json");
  const demo = JSON.parse(readFileSync(file, "utf8"));
  const template = demo[0];
  const body = `<p>${"Driftwood benchmark paragraph. ".repeat(64)}</p>`.slice(0, 2048);
  const rows = Array.from({ length: items }, (_, i) => {
    const n = String(i).padStart(5, "0");
    const row = { ...template, id: `bench-${n}`, slug: `bench-article-${n}`, title: `Benchmark article ${n}`, body, published_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString() };
    for (const column of article.columns) {
      if (!column.unique || ["id", "slug"].includes(column.name) || row[column.name] === null) continue;
      row[column.name] = column.type === "integer" ? 1_000_000 + i : `${row[column.name]}-${n}`;
    }
    return row;
  });
  writeFileSync(file, JSON.stringify([...demo, ...rows]));
}

function measure(options) {
  return new Promise((resolve, reject) => autocannon({ connections: 50, ...options }, (error, result) => (error ? reject(error) : resolve(result))));
}

async function figure(label, base) {
  await measure({ ...base, duration: 2 });
  const result = await measure({ ...base, duration: Number(process.env.BENCH_DURATION ?? 10) });
  return { label, rps: Math.round(result.requests.average), p99: result.latency.p99, total: result.requests.total, non2xx: result.non2xx, errors: result.errors, timeouts: result.timeouts };
}

function startBackend(project, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["dist/src/node/server.js"], { cwd: project, env: { PATH: process.env.PATH, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.stdout.on("data", (chunk) => String(chunk).includes("listening") && resolve(child));
    child.on("exit", (code) => reject(new Error(`the backend exited ${code}: ${stderr}`)));
  });
}

let peerRun;
/**
 * The peer's figures, driven once per bench run: the write figures' create target (issue #27 item
 * 9) and the generated backend's targets compare with the same Directus run.
 */
export function directusFigures(say) {
  peerRun ??= driveDirectus(say);
  return peerRun;
}

/** The peer's figures from its last line (`PEER label=Nrps/p99=Mms …`), or why there are none. */
function driveDirectus(say) {
  if (process.env.BENCH_DIRECTUS === "0") return { reason: "skipped (BENCH_DIRECTUS=0)" };
  if (!existsSync(PEER_SCRIPT)) return { reason: `${PEER_SCRIPT} is not there (it lives in the shared folder beside the repository)` };
  say("Directus peer: ../shared/bench/peer-directus.sh (first install ~10 min, then ~3 min)…");
  const peer = run("bash", [PEER_SCRIPT], { env: { ...process.env, PORT: String(DIRECTUS_PORT), N: String(process.env.BENCH_ITEMS ?? 1000) }, timeout: 2_700_000 });
  const line = (peer.stdout ?? "").split("\n").find((l) => l.startsWith("PEER "));
  if (line === undefined) return { reason: `peer-directus.sh exited ${peer.status}: ${(peer.stderr ?? "").trim().split("\n").slice(-2).join(" / ")}` };
  const figures = Object.fromEntries(
    line
      .slice(5)
      .split(" ")
      .map((part) => /^([\w-]+)=(\d+)rps\/p99=(\d+)ms$/.exec(part))
      .filter(Boolean)
      .map((m) => [m[1], { rps: Number(m[2]), p99: Number(m[3]) }]),
  );
  return { figures, line };
}

/** Generates, starts and measures the demo's backend, then the peer; prints BENCH, PEER and TARGET lines. */
export async function generatedBackendFigures(print, say) {
  const items = Number(process.env.BENCH_ITEMS ?? 1000);
  say("Generated backend: starting the CMS to generate the demo site's backend…");
  const cms = await startDevServer({ port: CMS_PORT });
  const work = mkdtempSync(path.join(os.tmpdir(), "driftwood-bench-backend-"));
  let backend;
  try {
    const archive = path.join(work, "backend.tar.gz");
    must("get-generated-backend", run(process.execPath, [path.join(root, "cli", "manage.mjs"), "get-generated-backend", "--out", archive], { env: { PATH: process.env.PATH, SERVICE_URL: `http://127.0.0.1:${CMS_PORT}`, SERVICE_MANAGEMENT_TOKEN: cms.info.management_token } }));
    cms.stop();
    must("tar", run("tar", ["-xzf", archive, "-C", work]));
    const project = path.join(work, "demo-backend");
    benchArticles(project, items);
    installOnce(project);
    must("db:init", run("npm", ["run", "db:init"], { cwd: project, env: { ...process.env, DATABASE_FILE: path.join(work, "bench.db") } }));
    const schema = JSON.parse(readFileSync(path.join(project, "schema.json"), "utf8"));
    backend = await startBackend(project, { PORT: String(BACKEND_PORT), DATABASE_FILE: path.join(work, "bench.db"), API_BEARER_TOKEN: SERVICE, ACCESS_CONFIG: JSON.stringify({ version: 1, site: schema.site.id, tokens: [] }) });
    const base = `http://127.0.0.1:${BACKEND_PORT}`;
    const q = (args) => Object.entries(args).map(([k, v]) => `${k}=${encodeURIComponent(JSON.stringify(v))}`).join("&");
    say(`Generated backend on ${base} with ${items} bench articles (libsql, the local server): measuring…`);
    let created = 0;
    const ours = {
      findMany: await figure("backend.findMany", { url: `${base}/api/article?${q({ orderBy: { published_at: "desc" }, take: 20 })}` }),
      findUnique: await figure("backend.findUnique", { url: `${base}/api/article/unique?${q({ where: { slug: `bench-article-${String(Math.floor(items / 2)).padStart(5, "0")}` } })}` }),
      create: await figure("backend.create", {
        url: `${base}/api/article`,
        requests: [
          {
            method: "POST",
            headers: { authorization: `Bearer ${SERVICE}`, "content-type": "application/json" },
            setupRequest: (request) => {
              created += 1;
              return { ...request, body: JSON.stringify({ data: { slug: `created-${process.pid}-${created}`, title: `Created ${created}`, body: "<p>Created by the benchmark.</p>" } }) };
            },
          },
        ],
      }),
    };
    process.kill(-backend.pid, "SIGTERM");
    backend = undefined;
    for (const f of Object.values(ours)) print(`BENCH ${f.label}=${f.rps}rps/p99=${f.p99}ms requests=${f.total} non2xx=${f.non2xx} errors=${f.errors} timeouts=${f.timeouts}`);
    const peer = directusFigures(say);
    if (peer.line) print(peer.line);
    for (const [operation, min] of Object.entries(TARGETS)) {
      const theirs = peer.figures?.[PEER_LABELS[operation]];
      if (theirs === undefined) {
        print(`  TARGET backend.${operation} >= ${min} x Directus: not measured — ${peer.reason ?? `the peer printed no ${PEER_LABELS[operation]}`}`);
        continue;
      }
      // A peer that completed nothing (a starved machine) gives no ratio: never "Infinity met".
      if (!(theirs.rps > 0)) {
        print(`  TARGET backend.${operation} >= ${min} x Directus: not measured — ${PEER_LABELS[operation]} completed no request in the figure`);
        continue;
      }
      const ratio = ours[operation].rps / theirs.rps;
      print(`  TARGET backend.${operation} >= ${min} x Directus (${PEER_LABELS[operation]} ${theirs.rps} rps): ${ratio.toFixed(2)} ${ratio >= min ? "met" : "MISSED"}`);
    }
  } finally {
    if (backend) process.kill(-backend.pid, "SIGTERM");
    cms.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
