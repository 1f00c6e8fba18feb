/**
 * Who sees private columns (docs/generated-backend.md, "The query language"): the service caller
 * and a read token whose scope covers the model. A read token outside its scope may still run a
 * model's `anonymous` reads — as the anonymous reader it then is, without private values. A
 * signed-in account (runtime/sessions.ts) sees them where its role edits the model.
 */
import type { Caller } from "./access.js";
import { roleEdits } from "./roles.js";

export function seesPrivate(caller: Caller, model: string): boolean {
  if (caller.kind === "service") return true;
  if (caller.kind === "session") return roleEdits(caller.roles, caller.role, model);
  return caller.kind === "reader" && (caller.models.includes("*") || caller.models.includes(model));
}
