import { sql, type CompiledQuery, type Expression, type Kysely } from "kysely";
import { sha256Hex } from "../crypto/digest";
import { createDb } from "../db/client";
import type { Database, PluginInstallationsTable } from "../db/database";
import { readTogether } from "../db/read-together";
import { AppError } from "../errors";

/**
 * The plugin protocol's authentication (docs/plugins.md): `Authorization: Bearer dwp_…` → the
 * installation. The token must be the installation's current one, or the one replaced by its last
 * rotation while `now` is before `previous_token_expires_at`. Only an `active` installation is
 * accepted. Every refusal (no header, malformed, unknown, expired previous token, pending,
 * disabled, revoked, uninstalled) is the same 401 plugin_unauthorized, so a caller learns nothing
 * about which tokens exist.
 */

const TOKEN_PATTERN = /^dwp_[A-Za-z0-9_-]{43}$/;

function refused(): AppError {
  return new AppError("plugin_unauthorized", "The installation token is missing, unknown, disabled or revoked.");
}

/** The bearer token of a request, or null. */
export function pluginToken(request: Request): string | null {
  const header = request.headers.get("authorization");
  if (header === null) return null;
  const match = /^Bearer ([^\s]+)$/i.exec(header.trim());
  const token = match?.[1];
  return token !== undefined && TOKEN_PATTERN.test(token) ? token : null;
}

/** The installation rows a token digest names: the current token, or the previous one within its grace. */
function installationsByDigest(db: Kysely<Database>, digest: string, now: number) {
  return db
    .selectFrom("plugin_installations")
    .where((eb) =>
      eb.or([
        eb("token_digest", "=", digest),
        eb.and([eb("previous_token_digest", "=", digest), eb("previous_token_expires_at", ">", now)]),
      ]),
    );
}

/** The installation's id and site, as subqueries on the presented token's digest. */
export interface InstallationKeys {
  installationId: Expression<string>;
  siteId: Expression<string>;
}

/** Reads that go in the installation's batch, keyed by its id and site through subqueries. */
export type ReadsWithInstallation = (db: Kysely<Database>, keys: InstallationKeys) => readonly CompiledQuery<unknown>[];

/** The active installation the request's token belongs to; otherwise 401 plugin_unauthorized. */
export async function authenticatePlugin(d1: D1Database, request: Request, now: number): Promise<PluginInstallationsTable> {
  return (await authenticatePluginWith(d1, request, now)).installation;
}

/**
 * `authenticatePlugin`, with further reads in the same D1 batch (one round trip): `withReads`
 * keys them by the installation's id and site as subqueries on the token's digest, and their
 * answers come back in order. They are answers to look at only once the installation is accepted.
 */
export async function authenticatePluginWith(
  d1: D1Database,
  request: Request,
  now: number,
  withReads?: ReadsWithInstallation,
): Promise<{ installation: PluginInstallationsTable; answers: unknown[][] }> {
  const token = pluginToken(request);
  if (token === null) throw refused();
  const db = createDb(d1);
  const live = installationsByDigest(db, await sha256Hex(token), now);
  const keys: InstallationKeys = { installationId: sql<string>`(${live.select("id")})`, siteId: sql<string>`(${live.select("site_id")})` };
  const [installations, ...answers] = await readTogether(d1, [live.selectAll().compile(), ...(withReads ? withReads(db, keys) : [])]);
  const row = installations?.[0] as PluginInstallationsTable | undefined;
  if (!row || row.state !== "active") throw refused();
  return { installation: row, answers };
}
