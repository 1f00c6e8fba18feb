/**
 * Who sees private columns (docs/generated-backend.md, "The query language"): the service caller
 * and a read token whose scope covers the model. A read token outside its scope may still run a
 * model's `anonymous` reads — as the anonymous reader it then is, without private values.
 */
import type { Caller } from "./access.js";

export function seesPrivate(caller: Caller, model: string): boolean {
  if (caller.kind === "service") return true;
  return caller.kind === "reader" && (caller.models.includes("*") || caller.models.includes(model));
}
