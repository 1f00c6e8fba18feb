/**
 * CPU profile of the bench worker while a bench runs (how the write-path hot spots were found,
 * issue #14). Start a bench with the inspector open, then this in a second shell:
 *
 *   BENCH_INSPECTOR_PORT=9229 BENCH_ONLY=write npm run bench
 *   node scripts/bench/profile.mjs 9229 20 /tmp/write.cpuprofile
 *
 * It attaches to the worker's isolate (the site objects run in the same one on Miniflare), samples
 * for the given seconds, writes the .cpuprofile (open it in Chrome DevTools) and prints the
 * functions with the most self time and the files with the most total self time.
 */
import { writeFileSync } from "node:fs";
import WebSocket from "ws";

const [port = "9229", seconds = "20", out = "/tmp/bench.cpuprofile", match = ""] = process.argv.slice(2);
const targets = await (await fetch(`http://127.0.0.1:${port}/json`)).json();
const target = targets.find((t) => t.title?.includes(match) && !/d1|r2|cache|kv|queue|loopback|entry|assets/i.test(t.title)) ?? targets[0];
console.error(`targets: ${targets.map((t) => t.title).join(", ")}; profiling ${target.title}`);
const ws = new WebSocket(target.webSocketDebuggerUrl);
await new Promise((resolve, reject) => {
  ws.once("open", resolve);
  ws.once("error", reject);
});
let nextId = 0;
const pending = new Map();
ws.on("message", (data) => {
  const message = JSON.parse(String(data));
  if (message.id !== undefined && pending.has(message.id)) {
    pending.get(message.id)(message);
    pending.delete(message.id);
  }
});
const call = (method, params = {}) =>
  new Promise((resolve) => {
    const id = ++nextId;
    pending.set(id, resolve);
    ws.send(JSON.stringify({ id, method, params }));
  });
await call("Profiler.enable");
await call("Profiler.setSamplingInterval", { interval: 200 });
await call("Profiler.start");
await new Promise((r) => setTimeout(r, Number(seconds) * 1000));
const { result } = await call("Profiler.stop");
ws.close();
const profile = result.profile;
writeFileSync(out, JSON.stringify(profile));

// Self time per node = samples × interval; fold by function and by file.
const counts = new Map();
for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
const total = profile.samples.length;
const byFunction = new Map();
const byFile = new Map();
for (const node of profile.nodes) {
  const n = counts.get(node.id) ?? 0;
  if (!n) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const file = (url || "(native)").replace(/^.*\//, "");
  const key = `${functionName || "(anonymous)"} ${file}:${lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + n);
  byFile.set(file, (byFile.get(file) ?? 0) + n);
}
// Total (inclusive) time: every function on a sampled stack, counted once per sample.
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const nodeById = new Map(profile.nodes.map((node) => [node.id, node]));
const keyOf = (node) => `${node.callFrame.functionName || "(anonymous)"} ${(node.callFrame.url || "(native)").replace(/^.*\//, "")}:${node.callFrame.lineNumber + 1}`;
const inclusive = new Map();
for (const [id, n] of counts) {
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) seen.add(keyOf(nodeById.get(at)));
  for (const key of seen) inclusive.set(key, (inclusive.get(key) ?? 0) + n);
}
const top = (map, k) => [...map].sort((a, b) => b[1] - a[1]).slice(0, k).map(([key, n]) => `${((100 * n) / total).toFixed(1).padStart(5)} %  ${key}`);
console.log(`${total} samples over ${seconds} s`);
console.log("— self time by function —");
console.log(top(byFunction, 40).join("\n"));
console.log("— total time by function —");
console.log(top(inclusive, 60).join("\n"));
console.log("— self time by file —");
console.log(top(byFile, 15).join("\n"));
