import { contentReadiness, generatedBackend, generationReadiness } from "../../../shared/services/generator/readiness";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";

/** GET /generated-backend: the .tar.gz (docs/generated-backend.md). */
export async function getGeneratedBackend(call: ManageCall): Promise<Response> {
  const archive = await generatedBackend(call.ctx, []);
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
