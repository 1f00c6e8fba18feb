#!/usr/bin/env node
/**
 * Moves a site's content to another site database (docs/scale.md, "Moving a site"):
 *
 *   OPS_TOKEN=… node scripts/move-site.mjs --site <site id> --to DB_2 [--url http://admin.localhost:8787]
 *
 * Sends POST {url}/api/ops/sites/{site}/database {"binding": "<to>"} with the operators' token
 * (the deployment's OPS_TOKEN secret, read from the environment, never from the command line so it
 * stays out of shell history and process lists). The service copies the rows inside the site's
 * Durable Object, verifies them, flips the site map and deletes the source rows; this prints its
 * JSON answer. Exit 0 moved (or already there), 1 refused or failed, 2 usage.
 *
 * Node resolves no `*.localhost` name (DESIGN.md §5): for such a host it connects to 127.0.0.1 and
 * sends the Host header itself, with node:http (Node's fetch would replace the Host header).
 */
import http from "node:http";
import https from "node:https";
import { parseArgs } from "node:util";

const USAGE = "usage: OPS_TOKEN=… node scripts/move-site.mjs --site <site id> --to <binding> [--url http://admin.localhost:8787]";
/** The service answers after the copy and the cache wait; a large site takes a while. */
const TIMEOUT_MS = 15 * 60 * 1000;

function usage(message) {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

function parse() {
  try {
    return parseArgs({ options: { site: { type: "string" }, to: { type: "string" }, url: { type: "string", default: "http://admin.localhost:8787" }, help: { type: "boolean" } }, strict: true }).values;
  } catch (error) {
    return usage(error.message);
  }
}

/** POST with node:http(s); a *.localhost host is reached on 127.0.0.1 with its Host header kept. */
function post(url, headers, body) {
  const local = url.hostname === "localhost" || url.hostname.endsWith(".localhost");
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      {
        host: local ? "127.0.0.1" : url.hostname,
        port: url.port || (url.protocol === "https:" ? 443 : 80),
        path: url.pathname,
        method: "POST",
        headers: { ...headers, host: url.host, "content-length": Buffer.byteLength(body) },
        ...(local && url.protocol === "https:" ? { servername: url.hostname } : {}),
        timeout: TIMEOUT_MS,
      },
      (response) => {
        const chunks = [];
        response.on("data", (c) => chunks.push(c));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
        response.on("error", reject);
      },
    );
    request.on("timeout", () => request.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    request.on("error", reject);
    request.end(body);
  });
}

async function main() {
  const args = parse();
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (!args.site) usage("--site is required");
  if (!args.to) usage("--to is required");
  const token = process.env.OPS_TOKEN;
  if (!token) usage("OPS_TOKEN is not set: export the deployment's operators' token first");
  let base;
  try {
    base = new URL(args.url);
  } catch {
    return usage(`--url is not a URL: ${args.url}`);
  }
  if (base.protocol !== "http:" && base.protocol !== "https:") usage("--url must be http: or https:");
  const url = new URL(`${base.pathname.replace(/\/$/, "")}/api/ops/sites/${encodeURIComponent(args.site)}/database`, base);
  const answer = await post(url, { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json" }, JSON.stringify({ binding: args.to }));
  let body;
  try {
    body = JSON.parse(answer.text);
  } catch {
    body = { error: { code: "not_json", message: answer.text.slice(0, 200) } };
  }
  if (answer.status === 200) {
    process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
    process.stderr.write(body.moved ? `Moved ${body.site_id} from ${body.from} to ${body.to}.\n` : `${body.site_id} already lives in ${body.to}; nothing moved.\n`);
    return;
  }
  process.stderr.write(`Refused (${answer.status} ${body?.error?.code ?? "error"}): ${body?.error?.message ?? answer.text}\n`);
  process.exitCode = 1;
}

main().catch((error) => {
  process.stderr.write(`move-site failed: ${error.message}\n`);
  process.exitCode = 1;
});
