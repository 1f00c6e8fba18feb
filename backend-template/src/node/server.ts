/**
 * The local server (`npm start`): the row API on node:http over the embedded SQLite file
 * (`DATABASE_FILE`, default ./data/site.db) through libsql and kysely's SqliteDialect. Refuses to
 * start without a valid ACCESS_CONFIG or without the database (run `npm run db:init`), and with a
 * PRIVATE_FILES_DIRECTORY that is not an existing absolute directory (unset: private files answer 503).
 */
import { existsSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import Database from "libsql";
import { Kysely, SqliteDialect } from "kysely";
import type { BatchRunner } from "../runtime/batch.js";
import { loadAccessConfig } from "../runtime/access.js";
import { loadRoles } from "../runtime/roles.js";
import { checkOverrides } from "../runtime/overrides.js";
import { handle } from "../runtime/router.js";
import { Sessions } from "../runtime/sessions.js";
import { directoryStore, privateFilesDirectory } from "./private-files-directory.js";
import type { OperationsConfig } from "../runtime/schema-types.js";
import { overrides } from "../overrides.js";
import { SCHEMA } from "../schema.js";

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

const file = process.env.DATABASE_FILE ?? "./data/site.db";
const port = Number(process.env.PORT ?? "8788");
let access;
try {
  access = loadAccessConfig(process.env.ACCESS_CONFIG, SCHEMA);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
try {
  checkOverrides(overrides, SCHEMA);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const filesDirectory = privateFilesDirectory(process.env.PRIVATE_FILES_DIRECTORY);
if (filesDirectory instanceof Error) fail(filesDirectory.message);
if (!existsSync(file)) fail(`No database at ${file}: run \`npm run db:init\` first.`);
const operations = JSON.parse(readFileSync(new URL("../../../access/operations.json", import.meta.url) /* dist/src/node → the project root */, "utf8")) as OperationsConfig;
const sqlite = new Database(file);
sqlite.exec("PRAGMA foreign_keys = ON; PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000;");
const db = new Kysely<Record<string, never>>({ dialect: new SqliteDialect({ database: sqlite }) });
// Sessions and roles are optional: on when AUTH_SECRET is set (docs: "Sessions and roles").
let sessions;
try {
  const rolesFile = new URL("../../../access/roles.json", import.meta.url);
  const roles = loadRoles(existsSync(rolesFile) ? (JSON.parse(readFileSync(rolesFile, "utf8")) as unknown) : undefined, SCHEMA);
  const secret = process.env.AUTH_SECRET;
  if (secret !== undefined && secret !== "") sessions = { sessions: new Sessions({ db, secret, baseURL: process.env.AUTH_URL, roles, rateLimit: process.env.AUTH_RATE_LIMIT !== "off" }), roles };
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const backend = { db, schema: SCHEMA, operations, access, serviceToken: process.env.API_BEARER_TOKEN, privateFiles: filesDirectory === undefined ? undefined : directoryStore(filesDirectory), sessions, overrides };

async function toRequest(message: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of message) {
    size += (chunk as Buffer).length;
    if (size > 1_048_576 + 1) break;
    chunks.push(chunk as Buffer);
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  const method = message.method ?? "GET";
  return new Request(`http://${message.headers.host ?? "localhost"}${message.url ?? "/"}`, {
    method,
    headers,
    ...(method === "GET" || method === "HEAD" ? {} : { body: Buffer.concat(chunks) }),
  });
}

// List relations commit as one SQLite transaction; libsql runs it synchronously, so no other request interleaves.
const batch: BatchRunner = async (statements) => {
  sqlite.transaction(() => {
    for (const statement of statements) sqlite.prepare(statement.sql).run(...(statement.parameters as unknown[]));
  })();
};

async function respond(message: IncomingMessage, out: ServerResponse): Promise<void> {
  const answer = await handle(await toRequest(message), { ...backend, batch });
  out.writeHead(answer.status, Object.fromEntries(answer.headers));
  out.end(Buffer.from(await answer.arrayBuffer()));
}

createServer((message, out) => {
  respond(message, out).catch((error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    if (!out.headersSent) out.writeHead(500, { "content-type": "application/json" });
    out.end('{"error":{"code":"internal_error","message":"Something went wrong."}}');
  });
}).listen(port, "127.0.0.1", () => process.stdout.write(`backend listening on http://127.0.0.1:${port}\n`));
