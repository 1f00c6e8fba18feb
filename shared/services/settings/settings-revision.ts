import type { CompiledQuery } from "kysely";
import { hasSystemPermission } from "../../auth/permissions";
import { isoAt } from "../../clock";
import type { SiteSettings } from "../../content/site-settings";
import { AppError } from "../../errors";
import type { LifecycleContext } from "../lifecycle/context";

/**
 * The one revision every site-settings write shares (general settings, Site Chrome, SEO, robots,
 * comments, CORS, access rules): a write names the revision it read (`expected_revision`, else
 * last writer wins) and its update only applies while the row still holds it, so two writers of
 * different settings never undo each other (409 `settings_changed`).
 */

/** The site's settings may be changed only with `site:settings` (`what` names them in the refusal). */
export function requireSettings(ctx: LifecycleContext, what: string): void {
  if (!hasSystemPermission(ctx.actor.permissions, "site:settings")) throw new AppError("missing_permission", `Changing ${what} needs site:settings.`, { permission: "site:settings" });
}

/** 409 `settings_changed` (with the current revision) when the writer read an older revision. */
export function checkRevision(ctx: LifecycleContext, expected: number | undefined): void {
  if (expected !== undefined && expected !== ctx.site.settings_revision) {
    throw new AppError("settings_changed", "The settings changed since you read them.", { current_revision: ctx.site.settings_revision });
  }
}

/**
 * The update that stores `after` as the next revision, guarded by the revision read, so it can
 * never overwrite a revision its checks did not see. `extra` columns of the site row change with
 * it (the languages, for general settings).
 */
export function settingsUpdate(ctx: LifecycleContext, after: SiteSettings, extra: { languages?: string } = {}): CompiledQuery {
  const site = ctx.site;
  return ctx.db
    .updateTable("sites")
    .set({ settings: JSON.stringify(after), settings_revision: site.settings_revision + 1, updated_at: isoAt(ctx.clock.now()), ...extra })
    .where("id", "=", site.id)
    .where("settings_revision", "=", site.settings_revision)
    .compile();
}
