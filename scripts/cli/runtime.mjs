#!/usr/bin/env node
// @@HEADER@@
/**
 * The Driftwood command line (docs/cli.md: manage.mjs; docs/ops-cli.md: ops.mjs). One file, Node 18 or newer,
 * no dependency: only Node built-ins and the global `fetch`, `FormData` and `Blob`.
 *
 *   SERVICE_MANAGEMENT_TOKEN=dwm_… node manage.mjs get-site --url https://example.com
 *   OPS_TOKEN=… node ops.mjs list-sites --url https://admin.example.com
 *   node <file> --help            every command
 *   node <file> <command> --help  one command's flags
 *
 * Exit codes: 0 success; 1 the service refused (its answer is printed on stdout); 2 usage, network
 * or credential problem (a message on stderr).
 */
import { spawn } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";

const SERVICE = "@@SERVICE@@";
const BASE_PATH = "@@BASE_PATH@@";
/** The file's own name in messages (`manage.mjs`, `ops.mjs`). */
const PROGRAM = "@@PROGRAM@@";
/** The environment variable holding the credential. */
const TOKEN_ENV = "@@TOKEN_ENV@@";
/** Whether the tool has the saved OAuth login (`login`, `status`, `logout`) and `mcp`: manage.mjs only. */
const LOGINS = /*@@LOGINS@@*/ true;
/** While a request runs longer than this, a progress line on stderr says it still does (a move waits, a copy works). */
const PROGRESS_EVERY_MS = 5000;
/** One command per management operation (generated from the route table). */
const COMMANDS = /*@@COMMANDS@@*/ [];

/** Most attempts of one request when the service asks to wait (429, 409 idempotency_in_progress). */
const MAX_ATTEMPTS = 5;
/** Longest wait the command honours from one Retry-After, in seconds. */
const MAX_WAIT_SECONDS = 120;
const KEY_PATTERN = /^[\x21-\x7E]{1,128}$/;
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
/** Names under `.localhost` are loopback (RFC 6761 §6.3): they are always connected to 127.0.0.1. */
const isLocalhostName = (hostname) => hostname === "localhost" || hostname.endsWith(".localhost");
/** How long `login` waits for the browser's callback. */
const LOGIN_TIMEOUT_MS = 5 * 60 * 1000;
/** A lock older than this is left over by a crashed command and is cleared. */
const STALE_LOCK_MS = 2 * 60 * 1000;
const EXIT_OK = 0;
const EXIT_REFUSED = 1;
const EXIT_USAGE = 2;

class UsageError extends Error {}

const out = (text) => process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
const err = (text) => process.stderr.write(text.endsWith("\n") ? text : `${text}\n`);

function usageFail(message, command) {
  err(`${SERVICE}: ${message}`);
  err(command ? `Run: node ${PROGRAM} ${command.command} --help` : `Run: node ${PROGRAM} --help`);
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
    `Usage: node ${PROGRAM} <command> [flags]`,
    ``,
    LOGINS ? `The ${SERVICE} management API from a terminal: one command per operation (docs/cli.md).` : `The ${SERVICE} operators' API from a terminal: one command per operation (docs/ops-cli.md).`,
    ``,
    `Global flags:`,
    `  --url <origin>     the service's origin (else SERVICE_URL); https, or http on localhost, *.localhost, 127.0.0.1, [::1]`,
    `  --json             compact JSON output (the default when stdout is not a terminal)`,
    `  --key <key>        Idempotency-Key of a write (generated when absent, printed on stderr)`,
    `  --body <json|@file|->  the request body (flags for its fields are merged in; a field given both ways is refused)`,
    `  --help             this text, or a command's flags`,
    ``,
    ...(LOGINS
      ? [
          `Credential: ${TOKEN_ENV}, else the saved login for the origin.`,
          ``,
          `Login:`,
          `  login [--scope "<scope> …"] [--no-open]   connect in a browser (OAuth) and save the login for the origin`,
          `  status                                     the saved login and whether ${TOKEN_ENV} is set`,
          `  logout                                     revoke the saved login, then delete it`,
          `  mcp                                        an MCP server over stdio: the remote MCP server's tools, relayed`,
          ``,
        ]
      : [`Credential: ${TOKEN_ENV}. A command answered 202 (copy, delete) is sent again with the same key until done, with progress on stderr.`, ``]),
    `Exit codes: 0 success; 1 the service refused (answer on stdout); 2 usage, network or credential problem.`,
    ``,
    `Commands:`,
    ...COMMANDS.map((c) => `  ${c.command.padEnd(width)}  ${c.summary}`),
  ];
  return lines.join("\n");
}

function commandHelp(command) {
  const lines = [`Usage: node ${PROGRAM} ${command.command} [flags]`, ``, `${command.summary}.`, `${command.method} ${BASE_PATH}${command.path}${command.scope ? ` (scope ${command.scope})` : ""}`];
  if (command.destructive) lines.push(`Removes or overwrites what it cannot give back by itself.`);
  lines.push(``, `Flags:`);
  const rows = command.flags.map((f) => [`--${f.flag} <${typeLabel(f)}>`, `${f.required ? "required" : "optional"}, ${f.in}${f.description ? `: ${f.description}` : ""}`]);
  if (command.file) rows.push([`--file <path>`, `required, the uploaded file (multipart part "${command.file}")`]);
  if (command.binary) rows.push([`--out <path>`, "required, the file the binary answer is written to (never the terminal)"]);
  if (command.hasBody && !command.file) rows.push([`--body <json|@file|->`, `the body as JSON${command.bodyOnly.length ? `; carries ${command.bodyOnly.join(", ")}` : ""}`]);
  if (command.keyed) rows.push([`--key <key>`, `Idempotency-Key (1–128 visible ASCII characters); generated when absent`]);
  rows.push(...(HELPER_FLAGS[command.command] ?? []));
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
  if (url.protocol === "http:" && (LOOPBACK_HOSTS.has(url.hostname) || isLocalhostName(url.hostname))) return url.origin;
  throw new UsageError("--url must be https (http only on localhost, *.localhost, 127.0.0.1 or [::1])");
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
  let bytes;
  try {
    bytes = value === "-" ? readFileSync(0) : value.startsWith("@") ? readFileSync(value.slice(1)) : null;
  } catch (e) {
    throw new UsageError(`cannot read --body: ${e.message}`);
  }
  let text = value;
  // Decoded fatally, as the service decodes bodies: a Latin-1 file would otherwise be sent (and
  // stored) with U+FFFD in place of its accents (probe finding, session 17).
  if (bytes !== null) {
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      throw new UsageError("--body is not valid UTF-8 (save the file as UTF-8)");
    }
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
  if (command.binary) known.add("out");
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
    // "." and ".." (also as %2e) survive encodeURIComponent and a URL resolves them as dot segments,
    // which would reach another operation (`/versions/../restore`): never a path parameter.
    if (flag.in === "path" && /^(?:\.|%2e){1,2}$/i.test(String(value))) throw new UsageError(`--${flag.flag} may not be "." or ".."`);
    // An empty one would send another path (`/entries/`, `/models//entries`) and answer a misleading 404.
    if (flag.in === "path" && String(value) === "") throw new UsageError(`--${flag.flag} may not be empty`);
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
  // A binary answer goes to a file, never to a terminal or a pipe (docs/cli.md, "Binary answers").
  let outFile;
  if (command.binary) {
    outFile = flags.get("out");
    if (outFile === undefined || outFile === true || outFile === "") throw new UsageError("--out <path> is required: the answer is binary");
  }
  return { url, key, makeBody, json: command.hasBody && !command.file, outFile };
}

/** The environment token, else an access token renewed from the saved login (which is rewritten). */
async function credential(origin) {
  const token = process.env[TOKEN_ENV];
  // A header cannot carry it: a credential problem, not a network one (the token is never printed).
  if (token && !/^[\x21-\x7e]+$/.test(token)) throw new UsageError(`${TOKEN_ENV} holds characters a credential never has (spaces or control characters)`);
  if (token) return token;
  if (!LOGINS) throw new UsageError(`no credential: set ${TOKEN_ENV}`);
  const file = loginFile(origin);
  if (readSaved(file) === null) throw new UsageError(`no credential: set ${TOKEN_ENV}, or run: node ${PROGRAM} login --url ${origin}`);
  return withLock(file, async () => {
    const saved = readSaved(file);
    if (saved === null) throw new UsageError(`no saved login for ${origin}: run login`);
    const answer = await send(saved.token_endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: saved.refresh_token, client_id: saved.client_id }).toString(),
    });
    const tokens = parseJson(answer.text);
    if (answer.status !== 200 || typeof tokens?.access_token !== "string" || typeof tokens?.refresh_token !== "string") {
      throw new UsageError(`the saved login for ${origin} is no longer accepted (${tokens?.error ?? answer.status}): run login again`);
    }
    writeSaved(file, { ...saved, refresh_token: tokens.refresh_token, scopes: typeof tokens.scope === "string" ? tokens.scope.split(" ") : saved.scopes });
    return tokens.access_token;
  });
}

function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * One HTTP request. https goes through `fetch`; http (loopback only, by the origin rule) through
 * node:http, connected to 127.0.0.1 for `localhost` and `*.localhost` whatever the resolver says.
 */
async function send(url, { method, headers, body }) {
  const target = new URL(url);
  let payload = body;
  const allHeaders = { ...headers };
  if (body instanceof FormData) {
    const encoded = new Response(body);
    allHeaders["content-type"] = encoded.headers.get("content-type");
    payload = Buffer.from(await encoded.arrayBuffer());
  }
  if (target.protocol === "https:") {
    const response = await fetch(url, { method, headers: allHeaders, body: payload, redirect: "manual" });
    const bytes = Buffer.from(await response.arrayBuffer());
    return { status: response.status, headers: response.headers, text: bytes.toString("utf8"), bytes };
  }
  if (target.protocol !== "http:" || !(LOOPBACK_HOSTS.has(target.hostname) || isLocalhostName(target.hostname))) throw new Error(`refusing plain http to ${target.host}`);
  const lookup = isLocalhostName(target.hostname) ? (_host, options, done) => (options?.all ? done(null, [{ address: "127.0.0.1", family: 4 }]) : done(null, "127.0.0.1", 4)) : undefined;
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: allHeaders, lookup }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => {
        const answer = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) answer.set(name, Array.isArray(value) ? value.join(", ") : value);
        const bytes = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: answer, text: bytes.toString("utf8"), bytes });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(payload);
  });
}

/** The operating system's config directory for this tool (created on write, mode 0700). */
function configDir() {
  if (process.platform === "win32") return path.join(process.env.APPDATA || path.join(os.homedir(), "AppData", "Roaming"), SERVICE);
  if (process.platform === "darwin") return path.join(os.homedir(), "Library", "Application Support", SERVICE);
  return path.join(process.env.XDG_CONFIG_HOME || path.join(os.homedir(), ".config"), SERVICE);
}

/** One saved login per origin: a readable name plus a digest, so two origins never share a file. */
function loginFile(origin) {
  const readable = origin.replace(/^https?:\/\//, "").replace(/[^a-zA-Z0-9.-]/g, "_");
  return path.join(configDir(), `login-${readable}-${createHash("sha256").update(origin).digest("hex").slice(0, 12)}.json`);
}

function readSaved(file) {
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    if (e.code === "ENOENT") return null;
    throw new UsageError(`cannot read the saved login ${file}: ${e.message}`);
  }
  const saved = parseJson(text);
  if (typeof saved?.refresh_token !== "string" || typeof saved?.client_id !== "string" || typeof saved?.token_endpoint !== "string") throw new UsageError(`the saved login ${file} is damaged: run login again`);
  return saved;
}

/** Temp file (0600) and rename: a reader sees the old file or the new one, never half of one. */
function writeSaved(file, saved) {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  chmodSync(path.dirname(file), 0o700);
  const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(temp, `${JSON.stringify(saved, null, 2)}\n`, { mode: 0o600, flag: "wx" });
  renameSync(temp, file);
}

/** Runs `work` holding `<file>.lock` (exclusive create); a lock older than 2 minutes is cleared. */
async function withLock(file, work) {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const lock = `${file}.lock`;
  const deadline = Date.now() + STALE_LOCK_MS + 10_000;
  for (;;) {
    try {
      closeSync(openSync(lock, "wx", 0o600));
      break;
    } catch (e) {
      if (e.code !== "EEXIST") throw e;
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) unlinkSync(lock);
      } catch {
        // gone in between
      }
      if (Date.now() > deadline) throw new UsageError(`the saved login is locked (${lock})`);
      await sleep(100);
    }
  }
  try {
    return await work();
  } finally {
    try {
      unlinkSync(lock);
    } catch {
      // already gone
    }
  }
}

const base64url = (bytes) => Buffer.from(bytes).toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** The authorization-server metadata: the issuer must be the origin, the endpoints on it. */
async function discover(origin) {
  const answer = await send(`${origin}/.well-known/oauth-authorization-server`, { method: "GET", headers: { accept: "application/json" } });
  const meta = parseJson(answer.text);
  if (answer.status !== 200 || typeof meta !== "object" || meta === null) throw new UsageError(`${origin} publishes no OAuth metadata (${answer.status})`);
  if (meta.issuer !== origin) throw new UsageError(`the issuer ${JSON.stringify(meta.issuer)} is not ${origin}`);
  for (const name of ["authorization_endpoint", "token_endpoint", "registration_endpoint", "revocation_endpoint"]) {
    if (typeof meta[name] !== "string" || !meta[name].startsWith(`${origin}/`)) throw new UsageError(`the ${name} is not on ${origin}`);
  }
  if (!Array.isArray(meta.code_challenge_methods_supported) || !meta.code_challenge_methods_supported.includes("S256")) throw new UsageError("the service does not offer PKCE S256");
  return meta;
}

async function revoke(saved) {
  const answer = await send(saved.revocation_endpoint, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: new URLSearchParams({ token: saved.refresh_token, token_type_hint: "refresh_token", client_id: saved.client_id }).toString(),
  });
  return answer.status === 200;
}

function openBrowser(address) {
  // Windows: rundll32 takes the address as one argument (cmd's `start` would split it at each `&`).
  const [program, args] = process.platform === "darwin" ? ["open", [address]] : process.platform === "win32" ? ["rundll32", ["url.dll,FileProtocolHandler", address]] : ["xdg-open", [address]];
  try {
    const child = spawn(program, args, { stdio: "ignore", detached: true });
    child.on("error", () => undefined);
    child.unref();
  } catch {
    // the address is printed anyway
  }
}

class LoginEnd extends Error {
  constructor(code, message) {
    super(message);
    this.exit = code;
  }
}

/** `login`: OAuth with PKCE S256 through a loopback listener; nothing is written unless it all works. */
async function login(flags) {
  for (const name of flags.keys()) if (!["url", "scope", "no-open", "json"].includes(name)) throw new UsageError(`unknown flag --${name} for login`);
  const origin = originOf(flags);
  const scope = flags.get("scope");
  if (scope === true || (scope !== undefined && !/^[a-z:_ -]+$/.test(scope))) throw new UsageError('--scope takes scope names separated by spaces ("content:read content:write")');
  const meta = await discover(origin);
  const server = http.createServer();
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const redirectUri = `http://127.0.0.1:${server.address().port}/callback`;
  try {
    const registered = await send(meta.registration_endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ redirect_uris: [redirectUri], client_name: "manage.mjs", token_endpoint_auth_method: "none" }),
    });
    const client = parseJson(registered.text);
    if (registered.status !== 201 || typeof client?.client_id !== "string") throw new LoginEnd(EXIT_REFUSED, `registration refused: ${registered.status} ${registered.text}`);
    const verifier = base64url(randomBytes(32));
    const state = base64url(randomBytes(24));
    const address = new URL(meta.authorization_endpoint);
    address.search = new URLSearchParams({
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: redirectUri,
      state,
      code_challenge: base64url(createHash("sha256").update(verifier).digest()),
      code_challenge_method: "S256",
      ...(scope ? { scope: scope.trim().split(/\s+/).join(" ") } : {}),
    }).toString();
    err(`Open this address to connect (it waits 5 minutes):\n${address}`);
    if (!flags.has("no-open")) openBrowser(address.toString());
    const code = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new LoginEnd(EXIT_USAGE, "no answer from the browser within 5 minutes")), LOGIN_TIMEOUT_MS);
      const page = (res, status, text) => {
        res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
        res.end(text);
      };
      server.on("request", (req, res) => {
        const url = new URL(req.url ?? "/", "http://127.0.0.1");
        if (req.method !== "GET" || url.pathname !== "/callback") return page(res, 404, "Not found.");
        const q = url.searchParams;
        // Another state (a stray or forged request): refused, and the login keeps waiting.
        if (q.getAll("state").length !== 1 || q.get("state") !== state) return page(res, 400, "This answer is not for this login.");
        clearTimeout(timer);
        if (q.getAll("iss").length !== 1 || q.get("iss") !== meta.issuer) {
          page(res, 400, "The answer names another issuer.");
          return reject(new LoginEnd(EXIT_USAGE, `the answer's issuer ${JSON.stringify(q.get("iss"))} is not ${meta.issuer}`));
        }
        if (q.has("error")) {
          page(res, 200, "Not connected. You can close this tab.");
          return reject(new LoginEnd(EXIT_REFUSED, q.get("error") === "access_denied" ? "login cancelled in the browser" : `login refused: ${q.get("error")} ${q.get("error_description") ?? ""}`));
        }
        if (q.getAll("code").length !== 1 || !q.get("code")) {
          page(res, 400, "The answer holds no single code.");
          return reject(new LoginEnd(EXIT_USAGE, "the answer holds no single code"));
        }
        page(res, 200, "Connected. You can close this tab and go back to the terminal.");
        resolve(q.get("code"));
      });
    });
    const exchanged = await send(meta.token_endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectUri, client_id: client.client_id, code_verifier: verifier }).toString(),
    });
    const tokens = parseJson(exchanged.text);
    if (exchanged.status !== 200 || typeof tokens?.access_token !== "string" || typeof tokens?.refresh_token !== "string") throw new LoginEnd(EXIT_REFUSED, `the code was refused: ${exchanged.status} ${exchanged.text}`);
    const siteAnswer = await send(`${origin}${BASE_PATH}/site`, { method: "GET", headers: { authorization: `Bearer ${tokens.access_token}`, accept: "application/json" } });
    const site = parseJson(siteAnswer.text);
    if (siteAnswer.status !== 200) throw new LoginEnd(EXIT_REFUSED, `the new connection cannot read its site: ${siteAnswer.status}`);
    const file = loginFile(origin);
    const saved = {
      origin,
      client_id: client.client_id,
      site: { id: site?.id ?? site?.site?.id ?? null, name: site?.name ?? site?.site?.name ?? null },
      scopes: typeof tokens.scope === "string" ? tokens.scope.split(" ") : [],
      refresh_token: tokens.refresh_token,
      token_endpoint: meta.token_endpoint,
      revocation_endpoint: meta.revocation_endpoint,
    };
    await withLock(file, async () => {
      let previous = null;
      try {
        previous = readSaved(file);
      } catch {
        previous = null;
      }
      writeSaved(file, saved);
      // A new login replaces the old one and ends its connection (best effort: the new one is saved).
      if (previous !== null && !(await revoke(previous).catch(() => false))) err(`${SERVICE}: the previous connection could not be revoked`);
    });
    err(`Logged in to ${origin} (site ${saved.site.name ?? saved.site.id}); saved in ${file}`);
    const { refresh_token: _secret, token_endpoint: _t, revocation_endpoint: _r, ...shown } = saved;
    out(JSON.stringify(shown, null, flags.has("json") || !process.stdout.isTTY ? undefined : 2));
    return EXIT_OK;
  } finally {
    server.close();
    server.closeAllConnections?.();
  }
}

/** Where the remote MCP server answers (docs/mcp.md). */
const MCP_PATH = "/api/manage/mcp";

/**
 * The stdio side of the upload tools (docs/mcp.md, "Upload tools"): the remote server takes the
 * file as `content_base64` + `file_name`; over stdio a tool takes `file_path` (a local file, read
 * here) and an optional `file_name` (default: the path's base name). Listed schemas are rewritten
 * accordingly; the call is relayed with the bytes, so checks and answers are the remote ones.
 */
function stdioUploadSchemas(body) {
  for (const tool of body?.result?.tools ?? []) {
    const schema = tool.inputSchema;
    if (!schema?.properties?.content_base64) continue;
    const { content_base64: _bytes, ...properties } = schema.properties;
    schema.properties = { file_path: { type: "string", minLength: 1, description: "Path of the local file to upload (read by manage.mjs; at most 8 MiB)" }, ...properties };
    schema.required = ["file_path", ...(schema.required ?? []).filter((name) => name !== "content_base64" && name !== "file_name")];
  }
  return body;
}

/** A tools/call with `file_path`: the file read into `content_base64` (and `file_name`); null when unreadable. */
function stdioUploadCall(message) {
  const args = message?.method === "tools/call" ? message.params?.arguments : undefined;
  if (!args || typeof args.file_path !== "string") return { message };
  let bytes;
  try {
    bytes = readFileSync(args.file_path);
  } catch (e) {
    return { error: `cannot read file_path: ${e.code ?? e.message}` };
  }
  const { file_path: filePath, ...rest } = args;
  return { message: { ...message, params: { ...message.params, arguments: { ...rest, content_base64: bytes.toString("base64"), file_name: rest.file_name ?? path.basename(filePath) } } } };
}

/**
 * `mcp`: an MCP server over stdio (newline-delimited JSON-RPC). Each message is relayed, in order,
 * to the service's remote MCP server with the credential, and its answer written back as one line:
 * the tools, names, schemas, results and refusals are the remote server's own, so the two
 * transports cannot disagree. Logs go to stderr only.
 */
async function mcp(flags) {
  for (const name of flags.keys()) if (!["url"].includes(name)) throw new UsageError(`unknown flag --${name} for mcp`);
  const origin = originOf(flags);
  const saved = !process.env[TOKEN_ENV];
  let token = await credential(origin);
  let protocolVersion;
  const relay = async (line) => {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      message = undefined;
    }
    const id = message && typeof message === "object" && !Array.isArray(message) && "id" in message ? message.id : undefined;
    const upload = stdioUploadCall(message);
    if (upload.error) {
      if (id !== undefined) out(JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32602, message: upload.error } }));
      return;
    }
    if (upload.message !== message) line = JSON.stringify(upload.message);
    for (let attempt = 1; ; attempt++) {
      const headers = { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" };
      if (protocolVersion) headers["mcp-protocol-version"] = protocolVersion;
      let answer;
      try {
        answer = await send(`${origin}${MCP_PATH}`, { method: "POST", headers, body: line });
      } catch (e) {
        err(`${SERVICE}: network problem: ${e.cause?.code ?? e.code ?? e.message}`);
        if (id !== undefined) out(JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32603, message: "The service could not be reached." } }));
        return;
      }
      // An access token from the saved login lasts minutes: renew once on 401.
      if (answer.status === 401 && saved && attempt === 1) {
        try {
          token = await credential(origin);
          continue;
        } catch (e) {
          err(`${SERVICE}: ${e.message}`);
        }
      }
      if (answer.status === 202 || answer.text === "") return;
      const body = parseJson(answer.text);
      if (body && typeof body === "object" && body.jsonrpc === "2.0") {
        if (message?.method === "initialize" && typeof body.result?.protocolVersion === "string") protocolVersion = body.result.protocolVersion;
        out(JSON.stringify(message?.method === "tools/list" ? stdioUploadSchemas(body) : body));
        return;
      }
      // A refusal of the HTTP layer ({ error: { code } }): a JSON-RPC error for a request, nothing for a notification.
      const code = body?.error?.code;
      err(`${SERVICE}: the service answered ${answer.status}${code ? ` ${code}` : ""}`);
      if (id !== undefined) out(JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32603, message: `The service answered ${answer.status}${code ? ` ${code}` : ""}.`, data: { status: answer.status, body: body ?? answer.text } } }));
      return;
    }
  };
  let chain = Promise.resolve();
  let buffered = "";
  process.stdin.setEncoding("utf8");
  await new Promise((resolve) => {
    process.stdin.on("data", (chunk) => {
      buffered += chunk;
      let newline;
      while ((newline = buffered.indexOf("\n")) !== -1) {
        const line = buffered.slice(0, newline).replace(/\r$/, "");
        buffered = buffered.slice(newline + 1);
        if (line.trim() !== "") chain = chain.then(() => relay(line));
      }
    });
    process.stdin.on("end", resolve);
  });
  await chain;
  return EXIT_OK;
}

function status(flags) {
  for (const name of flags.keys()) if (!["url", "json"].includes(name)) throw new UsageError(`unknown flag --${name} for status`);
  const origin = originOf(flags);
  const file = loginFile(origin);
  const saved = readSaved(file);
  const environment = Boolean(process.env[TOKEN_ENV]);
  const shown = {
    origin,
    site: saved?.site ?? null,
    scopes: saved?.scopes ?? null,
    client_id_saved: typeof saved?.client_id === "string",
    environment_token_set: environment,
    file: saved ? file : null,
  };
  out(JSON.stringify(shown, null, flags.has("json") || !process.stdout.isTTY ? undefined : 2));
  if (!saved && !environment) {
    err(`${SERVICE}: no credential for ${origin}: run login, or set ${TOKEN_ENV}`);
    return EXIT_USAGE;
  }
  return EXIT_OK;
}

async function logout(flags) {
  for (const name of flags.keys()) if (!["url"].includes(name)) throw new UsageError(`unknown flag --${name} for logout`);
  const origin = originOf(flags);
  const file = loginFile(origin);
  // Nothing saved: say so without creating the config folder (a lock would).
  if (readSaved(file) === null) {
    err(`${SERVICE}: no saved login for ${origin}`);
    return EXIT_USAGE;
  }
  return withLock(file, async () => {
    const saved = readSaved(file);
    if (saved === null) {
      err(`${SERVICE}: no saved login for ${origin}`);
      return EXIT_USAGE;
    }
    if (!(await revoke(saved))) {
      err(`${SERVICE}: the service did not revoke the connection; the saved login is kept (${file})`);
      return EXIT_REFUSED;
    }
    unlinkSync(file);
    err(`Logged out of ${origin}`);
    return EXIT_OK;
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** An IMF-fixdate (RFC 9110 §5.6.7), the HTTP date a server sends: `Sun, 06 Nov 1994 08:49:37 GMT`. */
const HTTP_DATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** Seconds of a Retry-After header (delta-seconds or an HTTP date), or null for anything else (`-1`, `0.5`). */
function retryAfterSeconds(value) {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  if (!HTTP_DATE.test(trimmed)) return null;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** Calls of one resumable operation at most (each does a bounded share of the work). */
const MAX_ROUNDS = 10_000;

/** One line of a resumable operation's progress: its state, and the rows and objects so far. */
function progressLine(body) {
  const figures = body?.copied ?? body ?? {};
  const rows = figures.rows && typeof figures.rows === "object" ? Object.values(figures.rows).reduce((sum, n) => sum + (typeof n === "number" ? n : 0), 0) : 0;
  return `${body?.state ?? "?"}: ${rows} rows, ${figures.objects ?? 0} objects (${figures.bytes ?? 0} bytes)`;
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

// ── Imports and exports: commands that send several requests (docs/cli.md, "Imports and exports") ──

/** The largest part of an import file (spec 2, Limits: CLI upload-import parts). */
const IMPORT_PART_BYTES = 5 * 1024 * 1024;
/** Bytes one export read asks for. */
const EXPORT_READ_BYTES = 1024 * 1024;
const sha256Hex = (bytes) => createHash("sha256").update(bytes).digest("hex");

/** One request of a helper, waiting and retrying with the same key as a single command does. */
async function helperRequest(origin, token, method, pathname, { body, key, query } = {}) {
  const search = query ? `?${new URLSearchParams(query).toString()}` : "";
  for (let attempt = 1; ; attempt++) {
    const headers = { authorization: `Bearer ${token}`, accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (key !== undefined) headers["idempotency-key"] = key;
    const response = await send(`${origin}${BASE_PATH}${pathname}${search}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = parseJson(response.text);
    const code = json?.error?.code;
    const wait = retryAfterSeconds(response.headers.get("retry-after"));
    const waitable = response.status === 429 || (response.status === 409 && code === "idempotency_in_progress");
    if (waitable && wait !== null && wait <= MAX_WAIT_SECONDS && attempt < MAX_ATTEMPTS) {
      err(`${SERVICE}: ${response.status} ${code ?? ""}: retrying in ${wait} s with the same key`);
      await sleep(wait * 1000);
      continue;
    }
    return { status: response.status, text: response.text, json, code };
  }
}

/** A helper's refusal: the answer on stdout, the status on stderr, exit 1 (2 for a 401). */
function helperRefused(answer, compact) {
  printAnswer(answer.text, "application/json", compact);
  err(`${SERVICE}: refused: ${answer.status}${answer.code ? ` ${answer.code}` : ""}`);
  return answer.status === 401 ? EXIT_USAGE : EXIT_REFUSED;
}

function requiredFlag(flags, name) {
  const value = flags.get(name);
  if (value === undefined || value === true) throw new UsageError(`--${name} <value> is required`);
  return String(value);
}

/**
 * `upload-import-part --id <job> --file <path> [--part <n>]`: the file in 5 MiB parts, each under a
 * key derived from its bytes (a re-run resends nothing new and replays what was sent), then the
 * completion with the whole file's SHA-256; `--part <n>` sends that part only.
 */
async function uploadImportFile(origin, token, flags, compact) {
  const id = requiredFlag(flags, "id");
  const file = requiredFlag(flags, "file");
  let bytes;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    throw new UsageError(`cannot read --file: ${e.message}`);
  }
  // Nothing to import: say so here rather than send an empty part the service refuses (exit 1).
  if (bytes.length === 0) throw new UsageError("--file is empty");
  const count = Math.max(1, Math.ceil(bytes.length / IMPORT_PART_BYTES));
  const only = flags.has("part") ? Number(flags.get("part")) : null;
  if (only !== null && (!Number.isSafeInteger(only) || only < 1 || only > count)) throw new UsageError(`--part is 1 to ${count} for this file`);
  // Run again after the upload completed (its answer lost, say): the job holds this very file, so
  // there is nothing to send — say so and answer the job, rather than a refused part.
  const current = await helperRequest(origin, token, "GET", `/imports/${encodeURIComponent(id)}`);
  if (current.status !== 200) return helperRefused(current, compact);
  const held = current.json?.import;
  if (held && held.state !== "awaiting_upload" && held.file?.sha256 === sha256Hex(bytes)) {
    err(`the import already holds this file (SHA-256 ${held.file.sha256}); nothing sent`);
    printAnswer(current.text, "application/json", compact);
    return EXIT_OK;
  }
  for (let part = 1; part <= count; part++) {
    if (only !== null && part !== only) continue;
    const slice = bytes.subarray((part - 1) * IMPORT_PART_BYTES, part * IMPORT_PART_BYTES);
    const key = `part-${id}-${part}-${sha256Hex(slice).slice(0, 32)}`.slice(0, 128);
    const answer = await helperRequest(origin, token, "PUT", `/imports/${encodeURIComponent(id)}/parts/${part}`, { body: { content_base64: Buffer.from(slice).toString("base64") }, key });
    if (answer.status !== 200) return helperRefused(answer, compact);
    err(`part ${part}/${count}: ${slice.length} bytes`);
  }
  if (only !== null) return EXIT_OK;
  const digest = sha256Hex(bytes);
  const answer = await helperRequest(origin, token, "POST", `/imports/${encodeURIComponent(id)}/complete`, { body: { sha256: digest }, key: `complete-${id}-${digest.slice(0, 32)}`.slice(0, 128) });
  if (answer.status !== 200) return helperRefused(answer, compact);
  printAnswer(answer.text, "application/json", compact);
  return EXIT_OK;
}

/** States in which `advance-import --follow` keeps advancing (an undo has its own: `advance-import-undo --follow`). */
const ADVANCING = new Set(["uploaded", "parsing", "review", "writing"]);

/**
 * `advance-import --id <job> --follow`: one step after another (a new key each), a progress line per
 * step on stderr, until a decision is needed (the review), the end, or a refusal.
 */
async function followImport(origin, token, flags, compact) {
  const id = requiredFlag(flags, "id");
  for (;;) {
    const answer = await helperRequest(origin, token, "POST", `/imports/${encodeURIComponent(id)}/advance`, { body: {}, key: randomUUID() });
    if (answer.status === 409 && answer.code === "import_review_pending") {
      // A Driftwood job's review names the models still to choose (docs/imports.md, "Models the site
      // already has"); the WordPress review commands refuse such a job (probe finding, session 17).
      const models = answer.json?.error?.models;
      err(
        Array.isArray(models)
          ? `the review waits for a choice on models the site already has (${models.join(", ")}): get-import-mapping, then put-import-mapping --body '{"models":{"<slug>":"existing"|"refuse"}}'`
          : "the review waits for a decision: get-word-press-review, then decide-word-press-review",
      );
      printAnswer(answer.text, "application/json", compact);
      return EXIT_OK;
    }
    if (answer.status !== 200) return helperRefused(answer, compact);
    const job = answer.json.import;
    err(`${job.state}: ${job.progress.items_done}/${job.progress.items_total} items, ${job.progress.findings} findings`);
    if (!ADVANCING.has(job.state)) {
      printAnswer(answer.text, "application/json", compact);
      return EXIT_OK;
    }
  }
}

/**
 * `advance-import-undo --id <job> --follow`: one undo step after another (a new key each, as
 * `advance-import --follow`), a progress line per step on stderr, until the job leaves `undoing`
 * (undone) or a step is refused.
 */
async function followUndo(origin, token, flags, compact) {
  const id = requiredFlag(flags, "id");
  for (let step = 1; ; step++) {
    const answer = await helperRequest(origin, token, "POST", `/imports/${encodeURIComponent(id)}/undo`, { body: {}, key: randomUUID() });
    if (answer.status !== 200) return helperRefused(answer, compact);
    const job = answer.json.import;
    err(`${job.state}: undo step ${step}, ${job.progress.findings} findings`);
    if (job.state !== "undoing") {
      printAnswer(answer.text, "application/json", compact);
      return EXIT_OK;
    }
  }
}

/**
 * `read-export-chunk --id <export> --out <path> [--finish]`: (with `--finish`, the export advanced
 * until finished under keys derived from its position) read chunk by chunk, the SHA-256 checked,
 * and only then the file written (by a temporary file and a rename).
 */
async function saveExport(origin, token, flags, compact) {
  const id = requiredFlag(flags, "id");
  const outFile = requiredFlag(flags, "out");
  if (flags.has("finish")) {
    for (;;) {
      const current = await helperRequest(origin, token, "GET", `/exports/${encodeURIComponent(id)}`);
      if (current.status !== 200) return helperRefused(current, compact);
      const job = current.json.export;
      if (job.state !== "building") break;
      const step = await helperRequest(origin, token, "POST", `/exports/${encodeURIComponent(id)}/advance`, { body: {}, key: `export-${id}-at-${job.position}`.slice(0, 128) });
      if (step.status !== 200) return helperRefused(step, compact);
      err(`export: ${step.json.export.section}, ${step.json.export.pages} pages, ${step.json.export.total_bytes} bytes`);
    }
  }
  if (flags.has("page")) return saveExportPage(origin, token, id, outFile, flags, compact);
  const parts = [];
  let offset = 0;
  let expected;
  while (offset !== null) {
    const chunk = await helperRequest(origin, token, "GET", `/exports/${encodeURIComponent(id)}/file`, { query: { offset: String(offset), length: String(EXPORT_READ_BYTES) } });
    if (chunk.status !== 200) return helperRefused(chunk, compact);
    parts.push(Buffer.from(chunk.json.content_base64, "base64"));
    expected = chunk.json.sha256;
    offset = chunk.json.next_offset;
  }
  const bytes = Buffer.concat(parts);
  if (sha256Hex(bytes) !== expected) {
    err(`${SERVICE}: the export read does not match its SHA-256 ${expected}; nothing written`);
    return EXIT_REFUSED;
  }
  const temp = `${outFile}.${process.pid}.part`;
  writeFileSync(temp, bytes);
  renameSync(temp, outFile);
  err(`wrote ${outFile}: ${bytes.length} bytes, SHA-256 ${expected}`);
  return EXIT_OK;
}

/**
 * `read-export-chunk --id <export> --out <path> --page <n>`: one kept page of a finished export, read
 * chunk by chunk (`page=<n>`: the service starts at its first byte and stops at its last), then
 * checked against the page's own SHA-256 (`page_sha256`), and only then written by a temporary
 * file and a rename.
 */
async function saveExportPage(origin, token, id, outFile, flags, compact) {
  const page = Number(flags.get("page"));
  if (!Number.isSafeInteger(page) || page < 1) throw new UsageError("--page is a page number from 1");
  const parts = [];
  let offset;
  let digest;
  let pageDigest;
  for (;;) {
    const query = { page: String(page), length: String(EXPORT_READ_BYTES), ...(offset === undefined ? {} : { offset: String(offset) }) };
    const chunk = await helperRequest(origin, token, "GET", `/exports/${encodeURIComponent(id)}/file`, { query });
    if (chunk.status !== 200) return helperRefused(chunk, compact);
    if (digest !== undefined && chunk.json.sha256 !== digest) {
      err(`${SERVICE}: the export changed while page ${page} was read; nothing written`);
      return EXIT_REFUSED;
    }
    digest = chunk.json.sha256;
    pageDigest = chunk.json.page_sha256;
    parts.push(Buffer.from(chunk.json.content_base64, "base64"));
    offset = chunk.json.next_offset;
    if (offset === null || chunk.json.next_page !== page) break;
  }
  const bytes = Buffer.concat(parts);
  if (sha256Hex(bytes) !== pageDigest) {
    err(`${SERVICE}: page ${page} does not match its SHA-256 ${pageDigest}; nothing written`);
    return EXIT_REFUSED;
  }
  const temp = `${outFile}.${process.pid}.part`;
  writeFileSync(temp, bytes);
  renameSync(temp, outFile);
  err(`wrote ${outFile}: page ${page}, ${bytes.length} bytes, SHA-256 ${pageDigest}`);
  return EXIT_OK;
}

/**
 * `read-import-artifact --id <import> --name receipt|problems --out <path>`: the receipt or the
 * problem file read chunk by chunk, the SHA-256 checked, only then written (temporary file, rename).
 */
async function saveImportArtifact(origin, token, flags, compact) {
  const id = requiredFlag(flags, "id");
  const name = requiredFlag(flags, "name");
  const outFile = requiredFlag(flags, "out");
  const parts = [];
  let offset = 0;
  let expected;
  while (offset !== null) {
    const chunk = await helperRequest(origin, token, "GET", `/imports/${encodeURIComponent(id)}/artifacts/${encodeURIComponent(name)}`, { query: { offset: String(offset), length: String(EXPORT_READ_BYTES) } });
    if (chunk.status !== 200) return helperRefused(chunk, compact);
    parts.push(Buffer.from(chunk.json.content_base64, "base64"));
    expected = chunk.json.sha256;
    offset = chunk.json.next_offset;
  }
  const bytes = Buffer.concat(parts);
  if (sha256Hex(bytes) !== expected) {
    err(`${SERVICE}: the ${name} read does not match its SHA-256 ${expected}; nothing written`);
    return EXIT_REFUSED;
  }
  const temp = `${outFile}.${process.pid}.part`;
  writeFileSync(temp, bytes);
  renameSync(temp, outFile);
  err(`wrote ${outFile}: ${bytes.length} bytes, SHA-256 ${expected}`);
  return EXIT_OK;
}

/** The helpers' flags, as each command's `--help` lists them (after the schema's own flags). */
const ALL_FLAG = [`--all`, "every page (following next_cursor), joined into one answer"];
const HELPER_FLAGS = {
  "upload-import-part": [
    [`--file <path>`, "the whole file: 5 MiB parts (each under a key derived from its bytes), then the completion with its SHA-256 (instead of --part and --content-base64)"],
    [`--part <n>`, "with --file: send that part of the file only (no completion)"],
  ],
  "advance-import": [[`--follow`, "advance step by step (a new key each), a progress line per step on stderr, until a decision, the end or a refusal"]],
  "advance-import-undo": [[`--follow`, "undo step by step (a new key each), a progress line per step on stderr, until undone or a refusal"]],
  "read-export-chunk": [
    [`--out <path>`, "read the whole export chunk by chunk, check its SHA-256, only then write the file"],
    [`--finish`, "with --out: first advance the export until finished (keys derived from its position)"],
    [`--page <n>`, "with --out: save one kept page, checked against its own SHA-256"],
  ],
  "read-import-artifact": [[`--out <path>`, "read the whole file chunk by chunk, check its SHA-256, only then write it"]],
  "get-import-findings": [ALL_FLAG],
  "get-import-mapping": [ALL_FLAG],
  "get-word-press-review": [ALL_FLAG],
  "get-history-assignments": [ALL_FLAG],
  "get-import-principals": [ALL_FLAG],
};

/** Paged reads `--all` follows: the route and the array its pages carry (none: one answer, no pages). */
const ALL_PAGES = {
  "get-import-findings": { path: (id) => `/imports/${encodeURIComponent(id)}/findings`, list: "findings" },
  "get-word-press-review": { path: (id) => `/imports/${encodeURIComponent(id)}/wordpress/review`, list: "conflicts" },
  "get-import-principals": { path: (id) => `/imports/${encodeURIComponent(id)}/principals`, list: "principals" },
  "get-history-assignments": { path: (id) => `/imports/${encodeURIComponent(id)}/history-assignments`, list: "assignments" },
  "get-import-mapping": { path: (id) => `/imports/${encodeURIComponent(id)}/mapping`, list: null },
};

/** `--all`: every page (following `next_cursor`), their lists joined into the first page's answer. */
async function readAllPages(origin, token, flags, compact, name) {
  const id = requiredFlag(flags, "id");
  const spec = ALL_PAGES[name];
  let merged;
  let cursor = null;
  do {
    const page = await helperRequest(origin, token, "GET", spec.path(id), cursor ? { query: { cursor } } : {});
    if (page.status !== 200) return helperRefused(page, compact);
    if (merged === undefined) merged = page.json;
    else merged[spec.list].push(...page.json[spec.list]);
    cursor = page.json.next_cursor;
  } while (cursor);
  if (spec.list !== null) merged.next_cursor = null;
  out(compact ? JSON.stringify(merged) : JSON.stringify(merged, null, 2));
  return EXIT_OK;
}

/** The helper a command's flags ask for, if any. */
function helperFor(name, flags) {
  if (ALL_PAGES[name] && flags.has("all")) return { run: (origin, token, f, compact) => readAllPages(origin, token, f, compact, name), flags: ["id", "all"] };
  if (name === "upload-import-part" && flags.has("file")) return { run: uploadImportFile, flags: ["id", "file", "part"] };
  if (name === "advance-import" && flags.has("follow")) return { run: followImport, flags: ["id", "follow"] };
  if (name === "advance-import-undo" && flags.has("follow")) return { run: followUndo, flags: ["id", "follow"] };
  if (name === "read-export-chunk" && flags.has("out")) return { run: saveExport, flags: ["id", "out", "finish", "page"] };
  if (name === "read-import-artifact" && flags.has("out")) return { run: saveImportArtifact, flags: ["id", "name", "out"] };
  return null;
}

async function runHelper(helper, command, flags) {
  const known = new Set(["url", "json", "help", ...helper.flags]);
  for (const name of flags.keys()) if (!known.has(name)) return usageFail(`unknown flag --${name} for ${command.command} --${helper.flags[1]}`, command);
  let origin;
  let token;
  try {
    origin = originOf(flags);
    token = await credential(origin);
    return await helper.run(origin, token, flags, flags.has("json") || !process.stdout.isTTY);
  } catch (e) {
    if (e instanceof UsageError) return usageFail(e.message, command);
    err(`${SERVICE}: network problem: ${e.cause?.code ?? e.code ?? e.message}`);
    return EXIT_USAGE;
  }
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
  const own = LOGINS ? { login, status, logout, mcp }[name] : undefined;
  if (own) {
    if (flags.has("help")) {
      out(toolHelp());
      return EXIT_OK;
    }
    try {
      return await own(flags);
    } catch (e) {
      if (e instanceof UsageError) return usageFail(e.message);
      if (e instanceof LoginEnd) {
        err(`${SERVICE}: ${e.message}`);
        return e.exit;
      }
      err(`${SERVICE}: network problem: ${e.cause?.code ?? e.code ?? e.message}`);
      return EXIT_USAGE;
    }
  }
  const command = COMMANDS.find((c) => c.command === name);
  if (!command) return usageFail(`unknown command ${name}`);
  if (flags.has("help")) {
    out(commandHelp(command));
    return EXIT_OK;
  }
  const helper = helperFor(name, flags);
  if (helper) return runHelper(helper, command, flags);
  let origin;
  let request;
  let token;
  try {
    origin = originOf(flags);
    request = buildRequest(command, flags, origin);
  } catch (e) {
    if (e instanceof UsageError) return usageFail(e.message, command);
    throw e;
  }
  try {
    token = await credential(origin);
  } catch (e) {
    if (e instanceof UsageError) {
      err(`${SERVICE}: ${e.message}`);
      return EXIT_USAGE;
    }
    err(`${SERVICE}: network problem: ${e.cause?.code ?? e.code ?? e.message}`);
    return EXIT_USAGE;
  }
  const compact = flags.has("json") || !process.stdout.isTTY;
  if (request.key !== undefined) err(`Idempotency-Key: ${request.key}`);
  let rounds = 0;
  for (let attempt = 1; ; attempt++) {
    const headers = { authorization: `Bearer ${token}`, accept: "application/json" };
    if (request.json) headers["content-type"] = "application/json";
    if (request.key !== undefined) headers["idempotency-key"] = request.key;
    let response;
    let text;
    const started = Date.now();
    const ticking = setInterval(() => err(`${command.command}: still working (${Math.round((Date.now() - started) / 1000)} s)`), PROGRESS_EVERY_MS);
    try {
      response = await send(request.url, { method: command.method, headers, body: request.makeBody?.() });
      text = response.text;
    } catch (e) {
      err(`${SERVICE}: network problem: ${e.cause?.code ?? e.code ?? e.cause?.message ?? e.message}`);
      return EXIT_USAGE;
    } finally {
      clearInterval(ticking);
    }
    const contentType = response.headers.get("content-type") ?? "";
    // A resumable operation (a site copy or deletion) answers 202 while work remains: the same request
    // again, with the same key, goes on where it stopped (docs/ops-cli.md).
    if (response.status === 202 && command.resumable && rounds < MAX_ROUNDS) {
      rounds++;
      err(`${command.command}: ${progressLine(parseJson(text))} (call ${rounds}; continuing with the same key)`);
      attempt = 0;
      continue;
    }
    if (response.status >= 200 && response.status < 300) {
      if (request.outFile !== undefined) {
        try {
          writeFileSync(request.outFile, response.bytes);
        } catch (e) {
          err(`${SERVICE}: cannot write --out: ${e.message}`);
          return EXIT_USAGE;
        }
        err(`${SERVICE}: wrote ${response.bytes.length} bytes (${contentType || "no type"}) to ${request.outFile}`);
        return EXIT_OK;
      }
      if (command.resumable && rounds > 0) err(`${command.command}: ${progressLine(parseJson(text))}`);
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
