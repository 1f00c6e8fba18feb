import type * as v from "valibot";
import type { SavePageBody } from "../../../schema/manage-pages";
import { AppError } from "../../../shared/errors";
import { entryView } from "../../../shared/services/lifecycle/entry-view";
import { loadEntry, mayRead } from "../../../shared/services/lifecycle/load";
import { parentField, requirePageModel } from "../../../shared/services/pages/page-model";
import { draftPages } from "../../../shared/services/pages/page-tree";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";
import { commandResponse, sendCommand } from "../respond";

/** GET /pages?lang=: the live pages of one language (default: the site's), by path (docs/pages.md). */
export async function listPages(call: ManageCall): Promise<Response> {
  const model = await requirePageModel(call.ctx.db, call.ctx.scope);
  const lang = (call.query as { lang?: string }).lang ?? call.site.default_lang;
  if (!call.site.languages.includes(lang)) throw new AppError("unknown_locale", `The site has no language "${lang}".`, { lang, languages: call.site.languages });
  // Pages the caller may not read are none of its business: an empty list, as GET /entries filters.
  if (!mayRead(call.ctx, model.id, lang)) return json({ data: [] });
  return json({ data: await draftPages(call.ctx.d1, call.site.id, model, parentField(model), lang) });
}

/** GET /pages/{id}: the page's current draft with its parent and path. */
export async function getPage(call: ManageCall): Promise<Response> {
  const model = await requirePageModel(call.ctx.db, call.ctx.scope);
  const { entry, version } = await loadEntry(call.ctx, call.params.id ?? "");
  if (entry.model_id !== model.id) throw new AppError("not_found", "No such page.");
  const place = (await draftPages(call.ctx.d1, call.site.id, model, parentField(model), entry.lang)).find((p) => p.instance_id === entry.instance_id);
  return json({ ...entryView(entry, model, version, call.actor), parent_id: place?.parent_id ?? null, path: place?.path ?? null });
}

/**
 * POST /pages: the page editor's save. Spec 2: "Replays answer with `replayed: true` (page saves:
 * `created: false`)" — a replay made nothing this time, so it says so, with status 200.
 */
export async function savePage(call: ManageCall): Promise<Response> {
  const result = await sendCommand(call, "savePage", call.body as v.InferOutput<typeof SavePageBody>);
  if (!result.replayed) return commandResponse(result);
  return commandResponse({ ...result, status: 200, body: { ...result.body, created: false } });
}
