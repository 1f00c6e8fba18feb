/**
 * The local operators' token (docs/operations-api.md): `npm start` passes it to `wrangler dev` as
 * `--var OPS_TOKEN:…` and `npm run seed -- --json` prints it as `ops_token`. Generated once and kept
 * beside the local state (mode 0600), so every run uses the same one. Local only: wrangler.jsonc
 * never sets OPS_TOKEN; a deployment sets it as a secret.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export function localOpsToken(persistTo) {
  const file = path.join(persistTo, "driftwood-ops-token");
  if (existsSync(file)) {
    const kept = readFileSync(file, "utf8").trim();
    if (/^\S{16,}$/.test(kept)) return kept;
  }
  const token = `dwops_local_${randomBytes(24).toString("base64url")}`;
  mkdirSync(persistTo, { recursive: true });
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}
