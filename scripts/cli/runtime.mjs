#!/usr/bin/env node
// @@HEADER@@
/**
 * manage.mjs — the Driftwood management command line (docs/cli.md). One file, Node 18 or newer,
 * no dependency: only Node built-ins and the global `fetch`, `FormData` and `Blob`.
 *
 *   SERVICE_MANAGEMENT_TOKEN=dwm_… node manage.mjs get-site --url https://example.com
 *   node manage.mjs --help            every command
 *   node manage.mjs <command> --help  one command's flags
 *
 * Exit codes: 0 success; 1 the service refused (its answer is printed on stdout); 2 usage, network
 * or credential problem (a message on stderr).
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";

const SERVICE = "@@SERVICE@@";
const BASE_PATH = "@@BASE_PATH@@";
/** One command per management operation (generated from the route table). */
const COMMANDS = /*@@COMMANDS@@*/ [];

/** Most attempts of one request when the service asks to wait (429, 409 idempotency_in_progress). */
const MAX_ATTEMPTS = 5;
/** Longest wait the command honours from one Retry-After, in seconds. */
const MAX_WAIT_SECONDS = 120;
const KEY_PATTERN = /^[\x21-\x7E]{1,128}$/;
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
const EXIT_OK = 0;
const EXIT_REFUSED = 1;
const EXIT_USAGE = 2;

class UsageError extends Error {}

const out = (text) => process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
const err = (text) => process.stderr.write(text.endsWith("\n") ? text : `${text}\n`);

function usageFail(message, command) {
  err(`${SERVICE}: ${message}`);
  err(command ? `Run: node manage.mjs ${command.command} --help` : "Run: node manage.mjs --help");
  return EXIT_USAGE;
}

/** `--name value`, `--name=value`, bare `--flag` (true); positional words are refused. */
function parseArgs(argv) {
  const flags = new Map();
  const positional = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") throw new UsageError("unexpected --");
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new UsageError(`bad flag ${arg}`);
    if (flags.has(name)) throw new UsageError(`--${name} given twice`);
    if (eq !== -1) flags.set(name, arg.slice(eq + 1));
    else if (i + 1 < argv.length && !argv[i + 1].startsWith("--")) flags.set(name, argv[++i]);
    else flags.set(name, true);
  }
  return { flags, positional };
}

function typeLabel(flag) {
  const base = flag.enum ? flag.enum.join("|") : flag.type;
  return flag.nullable ? `${base}|null` : base;
}

function toolHelp() {
  const width = Math.max(...COMMANDS.map((c) => c.command.length));
  const lines = [
    `Usage: node manage.mjs <command> [flags]`,
    ``,
    `The ${SERVICE} management API from a terminal: one command per operation (docs/cli.md).`,
    ``,
    `Global flags:`,
    `  --url <origin>     the service's origin (else SERVICE_URL); https, or http on localhost, 127.0.0.1, [::1]`,
    `  --json             compact JSON output (the default when stdout is not a terminal)`,
    `  --key <key>        Idempotency-Key of a write (generated when absent, printed on stderr)`,
    `  --body <json|@file|->  the request body (flags for its fields are merged in; a field given both ways is refused)`,
    `  --help             this text, or a command's flags`,
    ``,
    `Credential: SERVICE_MANAGEMENT_TOKEN.`,
    `Exit codes: 0 success; 1 the service refused (answer on stdout); 2 usage, network or credential problem.`,
    ``,
    `Commands:`,
    ...COMMANDS.map((c) => `  ${c.command.padEnd(width)}  ${c.summary}`),
  ];
  return lines.join("\n");
}

function commandHelp(command) {
  const lines = [`Usage: node manage.mjs ${command.command} [flags]`, ``, `${command.summary}.`, `${command.method} ${BASE_PATH}${command.path}${command.scope ? ` (scope ${command.scope})` : ""}`];
  if (command.destructive) lines.push(`Removes or overwrites what it cannot give back by itself.`);
  lines.push(``, `Flags:`);
  const rows = command.flags.map((f) => [`--${f.flag} <${typeLabel(f)}>`, `${f.required ? "required" : "optional"}, ${f.in}${f.description ? `: ${f.description}` : ""}`]);
  if (command.file) rows.push([`--file <path>`, `required, the uploaded file (multipart part "${command.file}")`]);
  if (command.hasBody && !command.file) rows.push([`--body <json|@file|->`, `the body as JSON${command.bodyOnly.length ? `; carries ${command.bodyOnly.join(", ")}` : ""}`]);
  if (command.keyed) rows.push([`--key <key>`, `Idempotency-Key (1–128 visible ASCII characters); generated when absent`]);
  rows.push([`--url <origin>`, `the service's origin (else SERVICE_URL)`], [`--json`, `compact JSON output`]);
  const width = Math.max(...rows.map((r) => r[0].length));
  for (const [left, right] of rows) lines.push(`  ${left.padEnd(width)}  ${right}`);
  return lines.join("\n");
}

/** The origin from --url or SERVICE_URL: https, or http on a loopback name only. */
function originOf(flags) {
  const given = flags.get("url") ?? process.env.SERVICE_URL;
  if (given === undefined || given === "" || given === true) throw new UsageError("no service origin: give --url <origin> or set SERVICE_URL");
  let url;
  try {
    url = new URL(given);
  } catch {
    throw new UsageError(`--url is not a URL: ${given}`);
  }
  if (url.username || url.password || url.search || url.hash || (url.pathname !== "/" && url.pathname !== "")) throw new UsageError("--url must be an origin only (scheme, host and port)");
  if (url.protocol === "https:") return url.origin;
  if (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname)) return url.origin;
  throw new UsageError("--url must be https (http only on localhost, 127.0.0.1 or [::1])");
}

function convert(flag, raw) {
  if (raw === true) {
    if (flag.type === "boolean") return true;
    throw new UsageError(`--${flag.flag} needs a value (${typeLabel(flag)})`);
  }
  if (flag.nullable && raw === "null") return null;
  switch (flag.type) {
    case "boolean":
      if (raw === "true") return true;
      if (raw === "false") return false;
      throw new UsageError(`--${flag.flag} must be true or false`);
    case "integer":
      if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw new UsageError(`--${flag.flag} must be an integer`);
      return Number(raw);
    case "number":
      if (raw.trim() === "" || !Number.isFinite(Number(raw))) throw new UsageError(`--${flag.flag} must be a number`);
      return Number(raw);
    default:
      if (flag.enum && !flag.enum.includes(raw)) throw new UsageError(`--${flag.flag} must be one of ${flag.enum.join(", ")}`);
      return raw;
  }
}

/** `--body`: inline JSON, `@file`, or `-` (stdin); it must be a JSON object. */
function readBody(value) {
  if (value === true) throw new UsageError("--body needs a value: JSON, @file or -");
  let text;
  try {
    text = value === "-" ? readFileSync(0, "utf8") : value.startsWith("@") ? readFileSync(value.slice(1), "utf8") : value;
  } catch (e) {
    throw new UsageError(`cannot read --body: ${e.message}`);
  }
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError("--body is not valid JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new UsageError("--body must be a JSON object");
  return parsed;
}

const CONTENT_TYPES = { ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".png": "image/png", ".gif": "image/gif", ".webp": "image/webp", ".avif": "image/avif", ".svg": "image/svg+xml", ".pdf": "application/pdf", ".mp4": "video/mp4", ".mp3": "audio/mpeg", ".txt": "text/plain" };

/** The request a command's flags make (throws UsageError on a bad or missing flag). */
function buildRequest(command, flags, origin) {
  const known = new Set(["url", "json", "help", ...command.flags.map((f) => f.flag)]);
  if (command.keyed) known.add("key");
  if (command.hasBody && !command.file) known.add("body");
  if (command.file) known.add("file");
  for (const name of flags.keys()) if (!known.has(name)) throw new UsageError(`unknown flag --${name} for ${command.command}`);
  if (flags.get("json") !== undefined && flags.get("json") !== true) throw new UsageError("--json takes no value");
  let pathname = command.path;
  const query = new URLSearchParams();
  const body = flags.has("body") ? readBody(flags.get("body")) : {};
  for (const flag of command.flags) {
    const raw = flags.get(flag.flag);
    if (raw === undefined) {
      if (flag.required && (flag.in !== "body" || !(flag.name in body))) throw new UsageError(`--${flag.flag} is required`);
      continue;
    }
    const value = convert(flag, raw);
    if (flag.in === "path") pathname = pathname.replace(`{${flag.name}}`, encodeURIComponent(String(value)));
    else if (flag.in === "query") query.set(flag.name, String(value));
    else {
      if (flag.name in body) throw new UsageError(`${flag.name} is given both in --body and as --${flag.flag}`);
      body[flag.name] = value;
    }
  }
  let key;
  if (command.keyed) {
    key = flags.get("key") ?? randomUUID();
    if (key === true || !KEY_PATTERN.test(key)) throw new UsageError("--key must be 1 to 128 visible ASCII characters");
  }
  const search = query.toString();
  const url = `${origin}${BASE_PATH}${pathname}${search ? `?${search}` : ""}`;
  let makeBody;
  if (command.file) {
    const file = flags.get("file");
    if (file === undefined || file === true) throw new UsageError("--file <path> is required");
    let bytes;
    try {
      bytes = readFileSync(file);
    } catch (e) {
      throw new UsageError(`cannot read --file: ${e.message}`);
    }
    const type = CONTENT_TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream";
    makeBody = () => {
      const form = new FormData();
      for (const [name, value] of Object.entries(body)) form.append(name, value === null ? "" : String(value));
      form.append(command.file, new Blob([bytes], { type }), path.basename(file));
      return form;
    };
  } else if (command.hasBody) {
    const json = JSON.stringify(body);
    makeBody = () => json;
  }
  return { url, key, makeBody, json: command.hasBody && !command.file };
}

function credential() {
  const token = process.env.SERVICE_MANAGEMENT_TOKEN;
  if (token) return token;
  throw new UsageError("no credential: set SERVICE_MANAGEMENT_TOKEN");
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Seconds of a Retry-After header (delta-seconds or an HTTP date), or null. */
function retryAfterSeconds(value) {
  if (value === null) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

function printAnswer(text, contentType, compact) {
  if (text === "") return;
  if (contentType.includes("json")) {
    try {
      const value = JSON.parse(text);
      out(compact ? JSON.stringify(value) : JSON.stringify(value, null, 2));
      return;
    } catch {
      // not JSON after all: printed as it came
    }
  }
  out(text);
}

async function run(argv) {
  let parsed;
  try {
    parsed = parseArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) return usageFail(e.message);
    throw e;
  }
  const { flags, positional } = parsed;
  if (positional.length === 0) {
    if (flags.has("help")) {
      out(toolHelp());
      return EXIT_OK;
    }
    return usageFail("no command given");
  }
  if (positional.length > 1) return usageFail(`unexpected argument ${positional[1]}`);
  const name = positional[0];
  if (name === "help") {
    out(toolHelp());
    return EXIT_OK;
  }
  const command = COMMANDS.find((c) => c.command === name);
  if (!command) return usageFail(`unknown command ${name}`);
  if (flags.has("help")) {
    out(commandHelp(command));
    return EXIT_OK;
  }
  let origin;
  let request;
  let token;
  try {
    origin = originOf(flags);
    request = buildRequest(command, flags, origin);
    token = credential();
  } catch (e) {
    if (e instanceof UsageError) return usageFail(e.message, command);
    throw e;
  }
  const compact = flags.has("json") || !process.stdout.isTTY;
  if (request.key !== undefined) err(`Idempotency-Key: ${request.key}`);
  for (let attempt = 1; ; attempt++) {
    const headers = { authorization: `Bearer ${token}`, accept: "application/json" };
    if (request.json) headers["content-type"] = "application/json";
    if (request.key !== undefined) headers["idempotency-key"] = request.key;
    let response;
    let text;
    try {
      response = await fetch(request.url, { method: command.method, headers, body: request.makeBody?.(), redirect: "manual" });
      text = await response.text();
    } catch (e) {
      err(`${SERVICE}: network problem: ${e.cause?.code ?? e.cause?.message ?? e.message}`);
      return EXIT_USAGE;
    }
    const contentType = response.headers.get("content-type") ?? "";
    if (response.ok) {
      printAnswer(text, contentType, compact);
      return EXIT_OK;
    }
    let code;
    try {
      code = JSON.parse(text)?.error?.code;
    } catch {
      code = undefined;
    }
    const wait = retryAfterSeconds(response.headers.get("retry-after"));
    const waitable = response.status === 429 || (response.status === 409 && code === "idempotency_in_progress");
    if (waitable && wait !== null && wait <= MAX_WAIT_SECONDS && attempt < MAX_ATTEMPTS) {
      err(`${SERVICE}: ${response.status}${code ? ` ${code}` : ""}: retrying in ${wait} s with the same key (attempt ${attempt + 1} of ${MAX_ATTEMPTS})`);
      await sleep(wait * 1000);
      continue;
    }
    printAnswer(text, contentType, compact);
    if (response.status === 401) {
      err(`${SERVICE}: the credential was not accepted (401${code ? ` ${code}` : ""})`);
      return EXIT_USAGE;
    }
    err(`${SERVICE}: refused: ${response.status}${code ? ` ${code}` : ""}`);
    return EXIT_REFUSED;
  }
}

process.exitCode = await run(process.argv.slice(2)).catch((e) => {
  err(`${SERVICE}: ${e?.stack ?? e}`);
  return EXIT_USAGE;
});
