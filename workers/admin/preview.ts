import { PreviewBody } from "../../schema/admin-bodies";
import { createPreview } from "../../shared/services/preview/entry-preview";
import { json } from "../http/respond";
import type { SiteCall } from "./auth";
import { readBody } from "./body";

/** POST /api/preview: a preview capability for an entry's current draft, and the path serving it. */
export async function previewEntry(call: SiteCall): Promise<Response> {
  const body = await readBody(call.request, PreviewBody);
  return json(await createPreview(call.ctx, body));
}
