import { MemberNamesQuery } from "../../schema/admin-bodies";
import { findMemberNames } from "../../shared/repositories/member-name-repository";
import { parse } from "../../shared/services/validation/parse";
import { json } from "../http/respond";
import { queryObject } from "../manage/router";
import type { SiteCall } from "./auth";

/**
 * GET /api/member-names?ids=per_a,per_b: the names of the site's members among those ids, for the
 * admin UI to say who holds an editing lease and who wrote a version (the lease and version views
 * carry person ids only). Any member may read them: knowing who edits beside you is part of editing.
 */
export async function listMemberNames(call: SiteCall): Promise<Response> {
  // A repeated `ids` is two values (400), not the last one silently, as on the management API.
  const { ids } = parse(MemberNamesQuery, queryObject(new URL(call.request.url)));
  const wanted = [...new Set(ids.split(",").map((id) => id.trim()).filter(Boolean))];
  return json({ data: await findMemberNames(call.ctx.db, call.ctx.scope, wanted) });
}
