import { hasSystemPermission } from "../../auth/permissions";
import { AppError } from "../../errors";
import type { LifecycleContext } from "../lifecycle/context";

/** 403 missing_permission unless the actor holds site:infra (spec 3: generation, readiness, read tokens). */
export function requireInfra(ctx: LifecycleContext): void {
  if (!hasSystemPermission(ctx.actor.permissions, "site:infra")) {
    throw new AppError("missing_permission", "The generated backend (its archive, readiness and read tokens) needs site:infra.", { permission: "site:infra" });
  }
}
