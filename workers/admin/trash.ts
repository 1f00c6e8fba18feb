import { TrashListQuery } from "../../schema/admin-trash";
import { listTrash } from "../../shared/services/trash/list-trash";
import { parse } from "../../shared/services/validation/parse";
import { json } from "../http/respond";
import { queryObject } from "../manage/router";
import type { SiteCall } from "./auth";

/** GET /api/trash: one page of the site's Trash for the Trash screen (docs/admin-ui-trash.md). */
export async function trashList(call: SiteCall): Promise<Response> {
  const { limit, ...query } = parse(TrashListQuery, queryObject(new URL(call.request.url)));
  return json(await listTrash(call.ctx, { ...query, ...(limit ? { limit: Number(limit) } : {}) }));
}
