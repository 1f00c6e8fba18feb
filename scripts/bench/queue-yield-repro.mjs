/**
 * The smallest case of the c50 write tail (docs/write-fairness.md, "Session 17"), without Driftwood:
 * a worker and one Durable Object that runs requests one at a time through a promise chain, each
 * burning a few ms of CPU, on Miniflare like the bench worker, driven by 50 loops on one shared
 * keep-alive http.Agent like scripts/bench/write-figures.mjs.
 *
 *   unshare -n bash -c 'ip link set lo up && node scripts/bench/queue-yield-repro.mjs'
 *
 * REPRO_YIELD=1 puts a macrotask between two queued jobs (what objects/site/write-queue.ts does);
 * REPRO_AGENT=connection gives each loop a keep-alive socket of its own instead of the shared pool;
 * REPRO_SECONDS (default 15), REPRO_BURN (loop iterations per job, default 3e6). Prints the
 * latency percentiles, p99 ÷ mean, operations per connection (min/median/max) and resets resent.
 */
import http from "node:http";
import { Miniflare } from "miniflare";

const SECONDS = Number(process.env.REPRO_SECONDS ?? 15);
const BURN = Number(process.env.REPRO_BURN ?? 3e6);
const YIELD = process.env.REPRO_YIELD === "1";
const CONNECTIONS = 50;

// Date.now() stands still while workerd runs JavaScript, so the job burns a fixed loop, not a time.
const script = `
export class Serial {
  tail = Promise.resolve();
  async fetch() {
    const turn = this.tail;
    let done;
    this.tail = new Promise((resolve) => { done = resolve; });
    await turn;
    let x = 0;
    for (let i = 0; i < ${BURN}; i++) x = (x * 31 + i) | 0;
    ${YIELD ? "setTimeout(done, 0);" : "done();"}
    return new Response(String(x));
  }
}
export default {
  fetch(request, env) {
    return env.SERIAL.get(env.SERIAL.idFromName("one")).fetch(request);
  },
};`;

const mf = new Miniflare({ modules: true, script, host: "127.0.0.1", port: 0, durableObjects: { SERIAL: "Serial" } });
const base = new URL(await mf.ready);
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
// REPRO_AGENT=connection: one keep-alive socket per loop (each loop a client of its own) instead of the shared pool.
const ownAgents = process.env.REPRO_AGENT === "connection" ? Array.from({ length: CONNECTIONS }, () => new http.Agent({ keepAlive: true, maxSockets: 1 })) : null;

let resets = 0;
function once(fresh, c) {
  return new Promise((resolve, reject) => {
    const req = http.request({ agent: fresh ? false : (ownAgents?.[c] ?? agent), host: base.hostname, port: base.port, method: "GET", path: "/" }, (res) => {
      res.resume();
      res.on("end", resolve);
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}
async function send(c = 0) {
  try {
    await once(false, c);
  } catch (error) {
    if (error.code !== "ECONNRESET") throw error;
    resets += 1;
    await once(true, c);
  }
}

await send();
const latencies = [];
const perConnection = Array(CONNECTIONS).fill(0);
const end = performance.now() + SECONDS * 1000;
await Promise.all(
  Array.from({ length: CONNECTIONS }, async (_, c) => {
    while (performance.now() < end) {
      const t0 = performance.now();
      await send(c);
      latencies.push(performance.now() - t0);
      perConnection[c] += 1;
    }
  }),
);
await mf.dispose();
latencies.sort((a, b) => a - b);
perConnection.sort((a, b) => a - b);
const mean = latencies.reduce((s, l) => s + l, 0) / latencies.length;
const p99 = latencies[Math.floor(0.99 * latencies.length)];
const [min, median, max] = [perConnection[0], perConnection[CONNECTIONS >> 1], perConnection[CONNECTIONS - 1]];
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))].toFixed(0);
console.log(`REPRO percentiles p50/p90/p95/p98/p99/p99.5/max ${[0.5, 0.9, 0.95, 0.98, 0.99, 0.995, 1].map(pct).join("/")} ms`);
console.log(
  `REPRO yield=${YIELD ? 1 : 0} burn=${BURN} ops/s=${(latencies.length / SECONDS).toFixed(1)} mean=${mean.toFixed(1)}ms p99=${p99.toFixed(1)}ms ` +
    `p99/mean=${(p99 / mean).toFixed(2)} per_connection=${min}/${median}/${max} resets=${resets}`,
);
