#!/usr/bin/env node
/**
 * An example Driftwood plugin: plain Node (ESM), no dependencies, written from docs/plugins.md.
 *
 *   POST /events                      a signed event delivery: verified, recorded, answered 204
 *   GET  /actions/review?code=dwl_…   content action: exchange the launch code, read the entry and
 *                                     the context, publish the entry for the person who launched it
 *   GET  /views/dashboard?code=dwl_…  manage view: exchange the code, list the granted models' content
 *   POST /operations/<id>             an operation run (docs/plugin-operations.md): signed call with a
 *                                     one-time code; `word-count` (site), `summarize` (entry, input
 *                                     max_words), `archive` (entry, destructive: unpublishes),
 *                                     `nightly-digest` (automation), `slow` (answers after 6 s: 504)
 *   POST /policies/<id>               a content policy question (docs/plugin-policies.md):
 *                                     `no-forbidden-words` refuses a title containing FORBIDDEN,
 *                                     `trim-title` trims the spaces around a title on a save
 *   POST /media-sources/sample-images/items    a page of the media source (docs/media.md, "Media
 *   POST /media-sources/sample-images/resolve  sources"): 30 generated images, 24 a page, `q`
 *   GET  /media/sample-images/<n>.png          searches titles; `resolve` names an image's file
 *
 * As a module: `const plugin = await startPlugin({ port, baseUrl, token, eventSecret })` answers
 * `{ url, events, stop() }` (`events`: every verified delivery received, oldest first).
 *
 * As a CLI (the seeded `demo-helper` plugin points at http://127.0.0.1:8789):
 *
 *   SEED=$(npm run -s seed -- --json)
 *   DRIFTWOOD_URL=http://127.0.0.1:8787 \
 *   PLUGIN_TOKEN=$(echo "$SEED" | node -pe 'JSON.parse(require("fs").readFileSync(0,"utf8")).plugin_token') \
 *   PLUGIN_EVENT_SECRET=$(echo "$SEED" | node -pe 'JSON.parse(require("fs").readFileSync(0,"utf8")).plugin_event_secret') \
 *   node examples/plugin/server.mjs
 *
 * The plugin protocol (`/api/plugin/v1`) answers on any host: the site comes from the token, so
 * `http://127.0.0.1:<port>` is a fine base URL for a local service.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import { deflateSync } from "node:zlib";
import { pathToFileURL } from "node:url";

/** Deliveries whose timestamp is further than this from now are refused (docs/events.md). */
const MAX_SIGNATURE_AGE_SECONDS = 300;
/** Larger event bodies are refused (events carry ids only, never content). */
const MAX_EVENT_BYTES = 1024 * 1024;
/** Larger operation and policy calls are refused (a policy call carries the fields being written). */
const MAX_CALL_BYTES = 2 * 1024 * 1024;
/** How long the `slow` operation takes: past the service's 5000 ms remote call timeout. */
const SLOW_OPERATION_MS = 6000;
const LAUNCH_CODE = /^dwl_[A-Za-z0-9_-]{43}$/;

/** A refusal of the plugin protocol: its HTTP status and outcome envelope. */
export class ProtocolError extends Error {
  constructor(status, outcome) {
    super(`${outcome?.code ?? "error"}: ${outcome?.message ?? `HTTP ${status}`}`);
    this.status = status;
    this.outcome = outcome ?? { code: "error", message: `HTTP ${status}`, retry: false };
  }
}

/**
 * Whether a delivery is authentic: `v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`, compared in
 * constant time, with a timestamp at most five minutes away from now.
 */
export function verifySignature({ secret, timestamp, signature, body, now = Date.now() }) {
  if (typeof timestamp !== "string" || !/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: "missing or malformed timestamp" };
  if (Math.abs(Math.floor(now / 1000) - Number(timestamp)) > MAX_SIGNATURE_AGE_SECONDS) return { ok: false, reason: "timestamp too old" };
  if (typeof signature !== "string") return { ok: false, reason: "missing signature" };
  const expected = createHmac("sha256", secret).update(`${timestamp}.`).update(body).digest();
  // One or more `v1=<hex>` values (comma separated); any matching one is enough.
  for (const part of signature.split(",")) {
    const match = /^\s*v1=([0-9a-f]{64})\s*$/i.exec(part);
    if (match && timingSafeEqual(Buffer.from(match[1], "hex"), expected)) return { ok: true };
  }
  return { ok: false, reason: "signature mismatch" };
}

/** A client of the plugin protocol v1 for one installation token. */
export function protocolClient({ baseUrl, token }) {
  const root = `${baseUrl.replace(/\/+$/, "")}/api/plugin/v1`;
  return async function call(method, path, { body, headers = {} } = {}) {
    const response = await fetch(root + path, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: "application/json",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let envelope;
    try {
      envelope = JSON.parse(text);
    } catch {
      throw new ProtocolError(response.status, { code: "invalid_answer", message: text.slice(0, 200), retry: response.status >= 500 });
    }
    if (!response.ok) throw new ProtocolError(response.status, envelope.outcome);
    return { status: response.status, outcome: envelope.outcome, data: envelope.data };
  };
}

function send(res, status, value) {
  const body = value === undefined ? "" : JSON.stringify(value, null, 2);
  res.writeHead(status, value === undefined ? {} : { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

function readBody(req, limit) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on("data", (chunk) => {
      size += chunk.length;
      if (size > limit) {
        reject(Object.assign(new Error("body too large"), { status: 413 }));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/**
 * Starts the plugin on 127.0.0.1:`port` (0 picks a free port). `baseUrl` is the Driftwood service,
 * `token` the installation token (`dwp_…`), `eventSecret` the event secret (`whsec_…`), both from
 * install or rotate-token.
 */
const COLOUR_NAMES = ["teal", "coral", "indigo", "amber", "olive", "plum"];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function pngChunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "ascii");
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
const samples = new Map();
/** Sample image n: a 64×64 PNG, a diagonal gradient in its own hue (no dependencies: zlib and a CRC). */
export function samplePng(n) {
  if (samples.has(n)) return samples.get(n);
  const size = 64;
  const hue = (n * 37) % 360;
  const [r, g, b] = [0, 120, 240].map((shift) => Math.round(127 + 127 * Math.cos(((hue + shift) * Math.PI) / 180)));
  const rows = Buffer.alloc(size * (1 + size * 3));
  for (let y = 0; y < size; y++) {
    rows[y * (1 + size * 3)] = 0;
    for (let x = 0; x < size; x++) {
      const shade = 0.5 + (x + y) / (4 * size);
      const at = y * (1 + size * 3) + 1 + x * 3;
      rows[at] = Math.min(255, Math.round(r * shade));
      rows[at + 1] = Math.min(255, Math.round(g * shade));
      rows[at + 2] = Math.min(255, Math.round(b * shade));
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk("IHDR", header), pngChunk("IDAT", deflateSync(rows)), pngChunk("IEND", Buffer.alloc(0))]);
  samples.set(n, png);
  return png;
}

export async function startPlugin({ port = 8789, host = "127.0.0.1", baseUrl, token, eventSecret, log = () => {} }) {
  if (!baseUrl || !token || !eventSecret) throw new Error("startPlugin needs baseUrl, token and eventSecret");
  const call = protocolClient({ baseUrl, token });
  /** Verified deliveries, oldest first: { delivery_id, name, event, received_at }. */
  const events = [];
  const seen = new Set();

  async function exchange(url) {
    const code = url.searchParams.get("code");
    if (!code || !LAUNCH_CODE.test(code)) throw new ProtocolError(400, { code: "invalid_request", message: "Missing or malformed launch code.", retry: false });
    return (await call("POST", "/launch/exchange", { body: { code } })).data;
  }

  async function onEvent(req, res) {
    const body = await readBody(req, MAX_EVENT_BYTES);
    const timestamp = req.headers["x-driftwood-timestamp"];
    const verdict = verifySignature({ secret: eventSecret, timestamp, signature: req.headers["x-driftwood-signature"], body });
    if (!verdict.ok) {
      log(`refused a delivery: ${verdict.reason}`);
      return send(res, 401, { error: verdict.reason });
    }
    const deliveryId = String(req.headers["x-driftwood-delivery"] ?? "");
    // At-least-once delivery: the same delivery id may arrive again; record it once.
    if (!seen.has(deliveryId)) {
      seen.add(deliveryId);
      const event = JSON.parse(body.toString("utf8"));
      events.push({ delivery_id: deliveryId, name: String(req.headers["x-driftwood-event"] ?? event.name), event, received_at: new Date().toISOString() });
      log(`event ${event.name} ${event.id} (${deliveryId})`);
    }
    return send(res, 204);
  }

  /** The content action: read the entry for the person who launched it, then publish it. */
  async function onReview(url, res) {
    const launch = await exchange(url);
    const instanceId = launch.launch?.instance_id;
    if (!instanceId) return send(res, 400, { error: "this launch is not about an entry" });
    const delegation = encodeURIComponent(launch.delegation_id);
    const [entry, context] = await Promise.all([
      call("GET", `/content/${encodeURIComponent(instanceId)}?delegation_id=${delegation}`).then((r) => r.data),
      call("GET", "/context").then((r) => r.data),
    ]);
    const answer = {
      action: "review",
      site: context.site,
      person: launch.person,
      instance_id: instanceId,
      label: entry.label,
      before: entry.workflow ? { state: entry.workflow.state, revision: entry.workflow.revision } : null,
    };
    const canPublish = entry.workflow?.transitions?.some((t) => t.kind === "publish") && launch.capabilities.includes("workflow:publish");
    if (!canPublish) return send(res, 200, { ...answer, published: false, reason: "publishing is not offered for this entry or not delegated" });
    const result = await call("POST", `/content/${encodeURIComponent(instanceId)}/transitions`, {
      headers: { "idempotency-key": `review-${launch.delegation_id}` },
      body: {
        kind: "publish",
        expected_current_version_id: entry.current_version_id,
        expected_workflow_revision: entry.workflow.revision,
        delegation_id: launch.delegation_id,
      },
    });
    log(`published ${instanceId} for ${launch.person?.name ?? launch.person?.id}`);
    return send(res, 200, {
      ...answer,
      published: true,
      outcome: result.outcome.code,
      after: { state: result.data.workflow?.state, revision: result.data.workflow?.revision, published_version_id: result.data.published_version_id },
    });
  }

  /** The manage view: the first page of every model the delegation may touch. */
  async function onDashboard(url, res) {
    const launch = await exchange(url);
    const models = [];
    for (const modelId of launch.model_ids.slice(0, 10)) {
      const page = (await call("GET", `/content?model_id=${encodeURIComponent(modelId)}&limit=20`)).data;
      models.push({
        model_id: modelId,
        items: page.data.map((c) => ({ instance_id: c.instance_id, model_slug: c.model_slug, lang: c.lang, label: c.label, slug: c.slug, state: c.workflow?.state ?? null })),
        has_more: page.page.has_more,
      });
    }
    return send(res, 200, { view: "dashboard", person: launch.person, models, events_received: events.length });
  }


  /** A signed call from the service (operation or policy): verified like an event delivery, parsed. */
  async function signedCall(req) {
    const body = await readBody(req, MAX_CALL_BYTES);
    const verdict = verifySignature({ secret: eventSecret, timestamp: req.headers["x-driftwood-timestamp"], signature: req.headers["x-driftwood-signature"], body });
    if (!verdict.ok) return { refused: verdict.reason };
    return { call: JSON.parse(body.toString("utf8")) };
  }

  const words = (value) => (typeof value === "string" ? value.replace(/<[^>]*>/g, " ").split(/\s+/).filter(Boolean) : []);
  const textOf = (fields) => Object.values(fields ?? {}).flatMap(words);
  const refuse = (res, code, message) => send(res, 422, { outcome: "refused", refusal: { code, message } });
  const completed = (res, blocks) => send(res, 200, { outcome: "completed", result: { blocks } });

  /**
   * Operations. The call carries only a one-time code: exchanging it (with this plugin's own
   * token) gives the delegation the plugin acts with, as the person who ran the operation.
   */
  async function onOperation(id, req, res) {
    const { call: op, refused } = await signedCall(req);
    if (refused) return send(res, 401, { error: refused });
    if (id === "slow") {
      await new Promise((resolve) => setTimeout(resolve, SLOW_OPERATION_MS));
      return completed(res, [{ type: "text", text: "Finally done." }]);
    }
    const launch = (await call("POST", "/launch/exchange", { body: { code: op.code } })).data;
    const delegation = encodeURIComponent(launch.delegation_id);
    const readEntry = async (instanceId) => (await call("GET", `/content/${encodeURIComponent(instanceId)}?delegation_id=${delegation}`)).data;
    if (id === "word-count" || id === "nightly-digest") {
      // One content page per model (at most 10 models, 50 entries each): the words of the entries'
      // labels. Cheap on purpose: the run has 5 s and the protocol 120 requests a minute.
      const rows = [];
      for (const modelId of launch.model_ids.slice(0, 10)) {
        const page = (await call("GET", `/content?model_id=${encodeURIComponent(modelId)}&limit=50`)).data;
        const slug = page.data[0]?.model_slug ?? modelId;
        rows.push([slug, page.data.length, page.data.reduce((sum, item) => sum + words(item.label).length, 0)]);
      }
      const total = rows.reduce((sum, row) => sum + row[2], 0);
      log(`operation ${id} for ${launch.person?.name}: ${total} words`);
      if (id === "nightly-digest") return completed(res, [{ type: "json", value: { models: rows.length, words: total, at: new Date().toISOString() } }]);
      return completed(res, [
        { type: "text", text: `${total} words in the titles of ${rows.reduce((sum, row) => sum + row[1], 0)} entries (at most 50 per model).` },
        { type: "rows", columns: ["model", "entries", "words"], rows },
      ]);
    }
    if (id === "summarize") {
      const entry = await readEntry(op.instance_id);
      const all = textOf(entry.fields);
      const max = op.input?.max_words ?? 20;
      const summary = all.slice(0, max).join(" ") + (all.length > max ? " …" : "");
      return completed(res, [
        { type: "text", text: summary || "(no text)" },
        { type: "json", value: { instance_id: entry.instance_id, words: all.length, kept: Math.min(max, all.length) } },
      ]);
    }
    if (id === "archive") {
      const entry = await readEntry(op.instance_id);
      const canUnpublish = entry.workflow?.transitions?.some((t) => t.kind === "unpublish") && launch.capabilities.includes("workflow:unpublish");
      if (!entry.published_version_id || !canUnpublish) return refuse(res, "not_published", "Only a published entry can be archived.");
      const result = await call("POST", `/content/${encodeURIComponent(entry.instance_id)}/transitions`, {
        headers: { "idempotency-key": `archive-${launch.delegation_id}` },
        body: { kind: "unpublish", expected_published_version_id: entry.published_version_id, expected_workflow_revision: entry.workflow.revision, delegation_id: launch.delegation_id },
      });
      return completed(res, [
        { type: "text", text: `Archived "${entry.label ?? entry.instance_id}": it is no longer published.` },
        { type: "rows", columns: ["instance_id", "state"], rows: [[entry.instance_id, result.data.workflow?.state ?? null]] },
      ]);
    }
    return refuse(res, "unknown_operation", `This plugin has no operation "${id}".`);
  }

  /** Content policies: asked before a write, with the fields about to be written. */
  async function onPolicy(id, req, res) {
    const { call: question, refused } = await signedCall(req);
    if (refused) return send(res, 401, { error: refused });
    const title = question.fields?.title;
    if (id === "no-forbidden-words") {
      if (typeof title === "string" && title.includes("FORBIDDEN")) return send(res, 200, { outcome: "refused", code: "forbidden_word", message: "The title may not contain the word FORBIDDEN.", fields: ["title"] });
      return send(res, 200, { outcome: "allowed" });
    }
    if (id === "trim-title") {
      const save = question.operation === "create" || question.operation === "save";
      if (save && typeof title === "string" && title.trim() !== title) return send(res, 200, { outcome: "transformed", fields: { title: title.trim() }, message: "Trimmed the spaces around the title." });
      return send(res, 200, { outcome: "allowed" });
    }
    return send(res, 200, { outcome: "allowed" });
  }

  /**
   * The media source `sample-images` (docs/media.md, "Media sources"): 30 generated 64×64 PNGs,
   * each its own colour. Items and resolve are signed calls like policies; the files are public.
   */
  const SAMPLE_COUNT = 30;
  const sampleUrl = (n) => `http://${host}:${server.address().port}/media/sample-images/${n}.png`;
  const sampleItem = (n) => ({
    id: `sample-${n}`,
    title: `Sample image ${n} (${COLOUR_NAMES[n % COLOUR_NAMES.length]})`,
    file_name: `sample-${n}.png`,
    kind: "image",
    size: samplePng(n).byteLength,
    thumbnail_url: sampleUrl(n),
    attribution: "Generated by the Driftwood demo plugin",
  });
  async function onMediaSource(route, req, res) {
    const { call: question, refused } = await signedCall(req);
    if (refused) return send(res, 401, { error: refused });
    const all = Array.from({ length: SAMPLE_COUNT }, (_, i) => sampleItem(i + 1));
    if (route === "items") {
      const q = typeof question.q === "string" ? question.q.toLowerCase() : "";
      const matching = all.filter((item) => item.title.toLowerCase().includes(q));
      const offset = /^\d+$/.test(question.cursor ?? "") ? Number(question.cursor) : 0;
      const limit = Math.min(24, question.limit ?? 24);
      return send(res, 200, { items: matching.slice(offset, offset + limit), next_cursor: offset + limit < matching.length ? String(offset + limit) : null });
    }
    const item = all.find((x) => x.id === question.item_id);
    if (!item) return send(res, 404, { error: "no such item" });
    return send(res, 200, { item, url: item.thumbnail_url });
  }

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://plugin.local");
    try {
      if (req.method === "POST" && url.pathname === "/events") return await onEvent(req, res);
      if (req.method === "GET" && url.pathname === "/actions/review") return await onReview(url, res);
      if (req.method === "GET" && url.pathname === "/views/dashboard") return await onDashboard(url, res);
      const operation = /^\/operations\/([a-z][a-z0-9_-]{0,63})$/.exec(url.pathname);
      if (req.method === "POST" && operation) return await onOperation(operation[1], req, res);
      const policy = /^\/policies\/([a-z][a-z0-9_-]{0,63})$/.exec(url.pathname);
      if (req.method === "POST" && policy) return await onPolicy(policy[1], req, res);
      const mediaSource = /^\/media-sources\/sample-images\/(items|resolve)$/.exec(url.pathname);
      if (req.method === "POST" && mediaSource) return await onMediaSource(mediaSource[1], req, res);
      const sample = /^\/media\/sample-images\/([0-9]{1,2})\.png$/.exec(url.pathname);
      if (req.method === "GET" && sample && Number(sample[1]) >= 1 && Number(sample[1]) <= SAMPLE_COUNT) {
        const png = samplePng(Number(sample[1]));
        res.writeHead(200, { "content-type": "image/png", "content-length": png.byteLength, "cache-control": "public, max-age=86400" });
        return res.end(png);
      }
      if (req.method === "GET" && url.pathname === "/") return send(res, 200, { plugin: "driftwood example plugin", events_received: events.length });
      return send(res, 404, { error: "not found" });
    } catch (error) {
      if (error instanceof ProtocolError) {
        log(`protocol refusal: ${error.message}`);
        // The service refused: say which outcome, with the protocol's status for 4xx.
        return send(res, error.status >= 400 && error.status < 500 ? error.status : 502, { error: error.outcome });
      }
      log(`error: ${error?.stack ?? error}`);
      return send(res, error?.status ?? 500, { error: String(error?.message ?? error) });
    }
  });
  // The service's runtime keeps connections to the plugin open and reuses them. Node closes an idle
  // one after 5 s by default: a request sent on it just as it closes fails as "Network connection
  // lost" (a policy question refused as unavailable). Idle connections live a minute instead, the
  // usual figure behind load balancers.
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 61_000;
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const address = server.address();
  return {
    url: `http://${host}:${address.port}`,
    events,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections?.();
      }),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { DRIFTWOOD_URL = "http://127.0.0.1:8787", PLUGIN_TOKEN, PLUGIN_EVENT_SECRET, PORT = "8789" } = process.env;
  if (!PLUGIN_TOKEN || !PLUGIN_EVENT_SECRET) {
    process.stderr.write("Set PLUGIN_TOKEN (dwp_…) and PLUGIN_EVENT_SECRET (whsec_…): `npm run seed -- --json` prints plugin_token and plugin_event_secret.\n");
    process.exit(2);
  }
  const plugin = await startPlugin({
    port: Number(PORT),
    baseUrl: DRIFTWOOD_URL,
    token: PLUGIN_TOKEN,
    eventSecret: PLUGIN_EVENT_SECRET,
    log: (line) => process.stderr.write(`${new Date().toISOString()} ${line}\n`),
  });
  process.stderr.write(`Example plugin listening on ${plugin.url} (Driftwood at ${DRIFTWOOD_URL})\n`);
  const stop = () => plugin.stop().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
