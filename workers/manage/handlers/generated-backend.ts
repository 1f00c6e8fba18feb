import { contentReadiness, generatedBackend, generationReadiness } from "../../../shared/services/generator/readiness";
import { newSecret, sha256Hex } from "../../../shared/crypto/digest";
import { listBackendReadTokens as listTokens } from "../../../shared/services/generator/read-tokens";
import { json } from "../../http/respond";
import { runCommand, sendCommand } from "../respond";
import type { ManageCall } from "../context";

/** GET /generated-backend: the .tar.gz (docs/generated-backend.md). */
export async function getGeneratedBackend(call: ManageCall): Promise<Response> {
  const archive = await generatedBackend(call.ctx, async (key) => {
    const object = await call.env.MEDIA.get(key);
    return object === null ? null : new Uint8Array(await object.arrayBuffer());
  });
  return new Response(archive.bytes, {
    headers: {
      "content-type": "application/gzip",
      "content-disposition": `attachment; filename="${archive.fileName}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}

/** GET /generation-readiness: model-level problems. */
export async function getGenerationReadiness(call: ManageCall): Promise<Response> {
  return json(await generationReadiness(call.ctx));
}

/** GET /generation-readiness/content?cursor=: content-level problems, one page. */
export async function getGenerationReadinessContent(call: ManageCall): Promise<Response> {
  const query = call.query as { cursor?: string };
  return json(await contentReadiness(call.ctx, query.cursor));
}

/**
 * POST /backend-read-tokens: the secret is made here, only its digest goes to the command, and the
 * answer shows it once; a replay answers the stored token with `token: null` (nothing stores it).
 */
export async function createBackendReadToken(call: ManageCall): Promise<Response> {
  const body = call.body as { name: string; models: string[] };
  const secret = newSecret("dwb_");
  const result = await sendCommand(call, "createBackendReadToken", { name: body.name, models: body.models, digest: await sha256Hex(secret) });
  return json({ ...result.body, token: result.replayed ? null : secret, ...(result.replayed ? { replayed: true } : {}) }, result.status);
}

/** GET /backend-read-tokens */
export async function listBackendReadTokens(call: ManageCall): Promise<Response> {
  return json({ data: await listTokens(call.ctx) });
}

/** DELETE /backend-read-tokens/{id} */
export const revokeBackendReadToken = (call: ManageCall) => runCommand(call, "revokeBackendReadToken", { id: call.params.id ?? "" });
