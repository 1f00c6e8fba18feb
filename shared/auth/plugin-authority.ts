import { sha256Hex } from "../crypto/digest";
import { createDb } from "../db/client";
import type { PluginInstallationsTable } from "../db/database";
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

/** The active installation the request's token belongs to; otherwise 401 plugin_unauthorized. */
export async function authenticatePlugin(d1: D1Database, request: Request, now: number): Promise<PluginInstallationsTable> {
  const token = pluginToken(request);
  if (token === null) throw refused();
  const digest = await sha256Hex(token);
  const row = await createDb(d1)
    .selectFrom("plugin_installations")
    .selectAll()
    .where((eb) =>
      eb.or([
        eb("token_digest", "=", digest),
        eb.and([eb("previous_token_digest", "=", digest), eb("previous_token_expires_at", ">", now)]),
      ]),
    )
    .executeTakeFirst();
  if (!row || row.state !== "active") throw refused();
  return row;
}
