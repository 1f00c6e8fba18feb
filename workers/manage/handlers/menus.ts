import type * as v from "valibot";
import type { PutMenuBody } from "../../../schema/manage-menus";
import { AppError } from "../../../shared/errors";
import { listMenus as readMenus, menuView, readMenu } from "../../../shared/services/menus/menus";
import { json } from "../../http/respond";
import type { ManageCall } from "../context";
import { runCommand } from "../respond";

const name = (call: ManageCall) => call.params.name ?? "";

/** GET /menus */
export async function listMenus(call: ManageCall): Promise<Response> {
  return json({ data: await readMenus(call.ctx) });
}

/** GET /menus/{name} */
export async function getMenu(call: ManageCall): Promise<Response> {
  const row = await readMenu(call.ctx.d1, call.site.id, name(call));
  if (!row) throw new AppError("menu_not_found", "No such menu.");
  return json(menuView(row));
}

export const putMenu = (call: ManageCall) => runCommand(call, "putMenu", { name: name(call), ...(call.body as v.InferOutput<typeof PutMenuBody>) });
export const deleteMenu = (call: ManageCall) => runCommand(call, "deleteMenu", { name: name(call) });
