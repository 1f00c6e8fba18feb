import { sql, type Compilable, type Expression, type Kysely } from "kysely";
import * as v from "valibot";
import { Scope } from "../../schema/scopes";
import { sha256Hex } from "../crypto/digest";
import { systemClock, type Clock } from "../clock";
import { createDb } from "../db/client";
import { compiledOnce } from "../db/compiled-once";
import type { Database } from "../db/database";
import { siteScope } from "../db/site-scope";
import { AppError } from "../errors";
import { assertNotSuspended, toSite, type Site } from "../repositories/site-repository";
import { readTogether } from "../db/read-together";
import type { Actor, LifecycleContext } from "../services/lifecycle/context";
import { intersectPermissionSets } from "./permissions";
import { authorityFrom, authorityQuery, type AuthorityRow } from "./person-authority";
import { scopeCeiling } from "./scope-ceiling";

/**
 * Authority of a management credential (`Authorization: Bearer dwm_…`), re-read on every request:
 * the credential row (not revoked), then its creator's role on the credential's site now,
 * intersected with the credential's scope ceiling. Nothing is cached, so a revocation, a
 * deactivation, a lost membership or a lowered role holds on the very next request.
 * See docs/management-credentials.md.
 */

/** The credential as the management API knows it: never the secret or its digest. */
export interface ManagementCredential {
  /**
   * `management_credential`: a `dwm_` secret (id `mcr_…`); `oauth_connection`: an app connected
   * through OAuth, presenting a `dwo_` access token (id `con_…`, docs/oauth.md).
   */
  kind: "management_credential" | "oauth_connection";
  id: string;
  name: string;
  /** Stored scopes: always with `content:read`, canonical order. */
  scopes: Scope[];
  /** The models it may touch, or `null` for every model of the site. */
  model_ids: string[] | null;
}

/** An authenticated management request. */
export interface ManagementAuth {
  credential: ManagementCredential;
  /** The credential's site: the only site the request may touch. */
  site: Site;
  /**
   * `kind: "management_credential"`, `id`: the creator, `credentialId`: the credential;
   * `permissions`: the creator's role now ∩ the scope ceiling.
   */
  actor: Actor;
}

/** `dwm_` followed by 43 base64url characters (32 random bytes). */
const SECRET = /^dwm_[A-Za-z0-9_-]{43}$/;
/** An OAuth access token: `dwo_` followed by 43 base64url characters. */
const ACCESS_TOKEN = /^dwo_[A-Za-z0-9_-]{43}$/;

const StoredScopes = v.array(Scope);
const StoredModelIds = v.nullable(v.array(v.string()));

/** The one refusal for a missing, malformed, unknown, expired or revoked credential or access token. */
function unauthorized(): AppError {
  return new AppError("unauthorized", "Send a valid management credential (Bearer dwm_…) or OAuth access token (Bearer dwo_…).");
}

/** The bearer value of the request's Authorization header, or null. */
function bearerOf(request: Request): string | null {
  const header = request.headers.get("authorization");
  if (header === null) return null;
  const match = /^(\S+) +(\S+)$/.exec(header.trim());
  if (!match || match[1]?.toLowerCase() !== "bearer") return null;
  return match[2] ?? "";
}

/** The `dwm_` secret of the request's Authorization header, or null when there is none or it is malformed. */
export function managementSecretOf(request: Request): string | null {
  const secret = bearerOf(request);
  return secret !== null && SECRET.test(secret) ? secret : null;
}

function parseStored<S extends v.GenericSchema>(schema: S, credentialId: string, column: string, text: string | null): v.InferOutput<S> {
  const result = v.safeParse(schema, text === null ? null : JSON.parse(text));
  // A stored credential that does not parse is a fault, never a reason to grant anything.
  if (!result.success) throw new Error(`management credential ${credentialId} holds invalid ${column}`);
  return result.output;
}

/**
 * Authenticates a management request and returns what it may do now: the one authentication of
 * the management API and the remote MCP endpoint, for `dwm_` credentials and `dwo_` OAuth access
 * tokens alike.
 *
 * - 401 `unauthorized` (one answer): no `Authorization`, neither `Bearer dwm_<43 base64url>` nor
 *   `Bearer dwo_<43 base64url>`, unknown digest, revoked credential or connection, expired access
 *   token (or the site gone).
 * - 403 `creator_unauthorized`: the creator (the connecting person) is deactivated (or gone) or holds no active membership on
 *   the credential's site. A superadmin creator gets no bypass.
 *
 * The site comes from the credential only.
 */
export async function authenticateManagement(d1: D1Database, request: Request, clock: Clock = systemClock): Promise<ManagementAuth> {
  const db = createDb(d1);
  const secret = bearerOf(request);
  if (secret === null) throw unauthorized();
  let kind: ManagementCredential["kind"];
  let found: CredentialFound;
  if (SECRET.test(secret)) {
    kind = "management_credential";
    found = await readCredential(d1, managementCredentialReads(db, { digest: await sha256Hex(secret) }));
  } else if (ACCESS_TOKEN.test(secret)) {
    // An OAuth connection acts like a credential its person created with the kept scopes, for
    // every model (docs/oauth.md). An expired access token, or one of a revoked connection, is
    // the same 401 as an unknown credential.
    kind = "oauth_connection";
    found = await readCredential(d1, oauthConnectionReads(db, { digest: await sha256Hex(secret), now: clock.now() }));
  } else {
    throw unauthorized();
  }
  const { credential: row, site } = found;
  if (!row || !site) throw unauthorized();
  // A suspended site (docs/operations-api.md): the credential is valid, the site takes nothing.
  assertNotSuspended(site);

  const authority = await authorityFrom(db, row.created_by, found.authority);
  if (!authority.ok) {
    const what = kind === "oauth_connection" ? "connected this app" : "created this credential";
    throw new AppError(
      "creator_unauthorized",
      authority.reason === "person_inactive" ? `The person who ${what} is deactivated.` : `The person who ${what} no longer has access to its site.`,
    );
  }

  const scopes = parseStored(StoredScopes, row.id, "scopes", row.scopes);
  const modelIds = parseStored(StoredModelIds, row.id, "model_ids", row.model_ids);
  const permissions = intersectPermissionSets(authority.actor.permissions, scopeCeiling(scopes, modelIds));
  return {
    credential: { kind, id: row.id, name: row.name ?? "OAuth app", scopes, model_ids: modelIds },
    site,
    actor: { kind: "management_credential", id: row.created_by, credentialId: row.id, scopes, permissions },
  };
}

interface CredentialRow {
  id: string;
  site_id: string;
  name: string | null;
  scopes: string;
  model_ids: string | null;
  created_by: string;
}

interface CredentialFound {
  credential: CredentialRow | undefined;
  site: Site | undefined;
  authority: AuthorityRow | undefined;
}

/**
 * The live credential, its site and its creator's membership there, in one D1 batch (one round
 * trip, one snapshot): the site and membership queries find their keys through subqueries on
 * the credential, so all three are keyed by the presented secret's digest alone. Compiled once
 * per isolate (compiled-once.ts): every management request sends the same three statements.
 */
function credentialReads(
  db: Kysely<Database>,
  credential: Compilable<CredentialRow>,
  siteIdOf: Expression<{ site_id: string }>,
  creatorOf: Expression<{ created_by: string } | { person_id: string }>,
) {
  const siteId = sql<string>`(${siteIdOf})`;
  return [
    credential.compile(),
    db.selectFrom("sites").selectAll().where("id", "=", siteId).compile(),
    authorityQuery(db, sql<string>`(${creatorOf})`, siteId).compile(),
  ] as const;
}

/** The reads of a `dwm_` management credential, by the secret's digest. */
const managementCredentialReads = compiledOnce(["digest"], (db, param) => {
  const live = db.selectFrom("management_credentials").where("digest", "=", param("digest")).where("revoked_at", "is", null);
  return credentialReads(db, live.select(["id", "site_id", "name", "scopes", "model_ids", "created_by"]), live.select("site_id"), live.select("created_by"));
});

/** The reads of a `dwo_` OAuth access token (live at `now`, of a connection not revoked), by the token's digest. */
const oauthConnectionReads = compiledOnce(["digest", "now"], (db, param) => {
  const live = db
    .selectFrom("oauth_tokens as t")
    .innerJoin("oauth_connections as c", "c.id", "t.connection_id")
    .innerJoin("oauth_clients as k", "k.id", "c.client_id")
    .where("t.digest", "=", param("digest"))
    .where("t.kind", "=", "access")
    .where("t.expires_at", ">", sql<number>`${param("now")}`)
    .where("c.revoked_at", "is", null);
  return credentialReads(
    db,
    live.select(["c.id as id", "c.site_id as site_id", "k.client_name as name", "c.scopes as scopes", sql<null>`NULL`.as("model_ids"), "c.person_id as created_by"]),
    live.select("c.site_id"),
    live.select("c.person_id"),
  );
});

async function readCredential(d1: D1Database, reads: ReturnType<typeof managementCredentialReads>): Promise<CredentialFound> {
  const [credentials, sites, authorities] = await readTogether(d1, reads);
  const site = sites[0];
  return { credential: credentials[0], site: site ? toSite(site) : undefined, authority: authorities[0] };
}

/** Whether the credential holds a scope (commands check this before their own permission check). */
export function hasScope(auth: Pick<ManagementAuth, "credential">, scope: Scope): boolean {
  return auth.credential.scopes.includes(scope);
}

/** A lifecycle context for an authenticated management request: its site, its narrowed actor. */
export function managementContext(d1: D1Database, auth: ManagementAuth, clock: Clock = systemClock): LifecycleContext {
  return { db: createDb(d1), d1, scope: siteScope(auth.site.id), site: auth.site, actor: auth.actor, clock };
}
