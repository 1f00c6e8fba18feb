#!/usr/bin/env node
/**
 * An example Driftwood plugin: plain Node (ESM), no dependencies, written from docs/plugins.md.
 *
 *   POST /events                      a signed event delivery: verified, recorded, answered 204
 *   GET  /actions/review?code=dwl_…   content action: exchange the launch code, read the entry and
 *                                     the context, publish the entry for the person who launched it
 *   GET  /views/dashboard?code=dwl_…  manage view: exchange the code, list the granted models' content
 *
 * As a module: `const plugin = await startPlugin({ port, baseUrl, token, eventSecret })` answers
 * `{ url, events, stop() }` (`events`: every verified delivery received, oldest first).
 *
 * As a CLI (the seeded `demo-helper` plugin points at http://127.0.0.1:8790):
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
import { pathToFileURL } from "node:url";

/** Deliveries whose timestamp is further than this from now are refused (docs/events.md). */
const MAX_SIGNATURE_AGE_SECONDS = 300;
/** Larger event bodies are refused (events carry ids only, never content). */
const MAX_EVENT_BYTES = 1024 * 1024;
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
export async function startPlugin({ port = 8790, host = "127.0.0.1", baseUrl, token, eventSecret, log = () => {} }) {
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

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://plugin.local");
    try {
      if (req.method === "POST" && url.pathname === "/events") return await onEvent(req, res);
      if (req.method === "GET" && url.pathname === "/actions/review") return await onReview(url, res);
      if (req.method === "GET" && url.pathname === "/views/dashboard") return await onDashboard(url, res);
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
  const { DRIFTWOOD_URL = "http://127.0.0.1:8787", PLUGIN_TOKEN, PLUGIN_EVENT_SECRET, PORT = "8790" } = process.env;
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
