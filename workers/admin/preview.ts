import * as v from "valibot";
import { PREVIEW_MINUTES } from "../../shared/public/preview";
import { createPreview } from "../../shared/services/preview";
import { json } from "../http/respond";
import type { SiteCall } from "./auth";
import { readBody } from "./body";

/** POST /api/preview body. */
const PreviewBody = v.strictObject({
  instance_id: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  minutes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(PREVIEW_MINUTES.min), v.maxValue(PREVIEW_MINUTES.max))),
});

/** POST /api/preview: a preview capability for an entry's current draft, and the path serving it. */
export async function previewEntry(call: SiteCall): Promise<Response> {
  const body = await readBody(call.request, PreviewBody);
  return json(await createPreview(call.ctx, body));
}
