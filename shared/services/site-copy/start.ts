import { isoAt, type Clock } from "../../clock";
import { createDb } from "../../db/client";
import { anchorStatement } from "../../db/site-anchor";
import { controlDatabase, databaseByBinding, DEFAULT_SITE_DATABASE, type DatabaseBindings } from "../../db/site-databases";
import { AppError, type ErrorCode } from "../../errors";
import { newId } from "../../ids";
import { IdRemap } from "./id-remap";
import { newTargetDatabase, planCopy, type CopyInput } from "./plan";
import { readCopy, type SiteCopyRow } from "./progress";

type Env = DatabaseBindings & { ADMIN_HOST?: string };

/**
 * The first call of a copy (docs/site-copy.md): refuses it when anything blocks (the first blocker's
 * code, every blocker in `details.blocked_by`, nothing written), else writes, in one control-database
 * batch, the new site (suspended until the copy is done, so no half-copied site is ever served; its
 * settings the template's) with its hosts and map row, an audit row and the copy's `site_copies` row.
 * Later calls with the same key find the row and go on; the same key with another request is
 * `idempotency_key_reused`.
 */
export async function startCopy(env: Env, clock: Clock, key: string, fingerprint: string, templateRef: string, input: CopyInput): Promise<SiteCopyRow> {
  const control = controlDatabase(env);
  const known = await readCopy(control, key);
  if (known) {
    if (known.fingerprint !== fingerprint) throw new AppError("idempotency_key_reused", "This Idempotency-Key was used for another request.");
    return known;
  }
  const plan = await planCopy(env, templateRef, input);
  const first = plan.blockers[0];
  if (first) throw new AppError(first.code as ErrorCode, first.message, { ...(first.details ?? {}), blocked_by: plan.blockers });
  const at = isoAt(clock.now());
  const copyId = newId("key");
  const db = createDb(control);
  const statements: D1PreparedStatement[] = [];
  let targetId: string;
  if (plan.target) {
    targetId = plan.target.id;
  } else {
    const to = input.to;
    if (!to) throw new AppError("invalid_request", "A copy needs its target.");
    targetId = newId("site");
    const template = plan.template;
    const templateLanguages = JSON.parse(template.languages) as string[];
    const defaultLang = to.default_lang ?? template.default_lang;
    const languages = [...new Set([defaultLang, ...(to.languages ?? templateLanguages)])];
    const database = newTargetDatabase(to);
    const remap = new IdRemap(copyId, { from: template.id, to: targetId });
    await remap.learn([template.settings]);
    const prepare = (compiled: { sql: string; parameters: readonly unknown[] }) => control.prepare(compiled.sql).bind(...(compiled.parameters as unknown[]));
    statements.push(
      prepare(
        db
          .insertInto("sites")
          .values({ id: targetId, slug: to.slug, name: to.name, default_lang: defaultLang, languages: JSON.stringify(languages), settings: remap.text(template.settings), settings_revision: 0, created_at: at, updated_at: at, suspended_at: at })
          .compile(),
      ),
      ...[...new Set(to.hosts)].map((host) => prepare(db.insertInto("site_hosts").values({ host, site_id: targetId }).compile())),
      prepare(db.insertInto("site_databases").values({ site_id: targetId, binding: database, created_at: at, moved_at: null }).compile()),
    );
    if (database !== DEFAULT_SITE_DATABASE) await anchorStatement(databaseByBinding(env, database, targetId), { id: targetId, default_lang: defaultLang }, at).run();
  }
  statements.push(
    control
      .prepare("INSERT INTO audit_log (id, site_id, at, actor_kind, actor_id, credential_id, action, target_kind, target_id, details) VALUES (?, ?, ?, 'system', 'operators', NULL, 'site.copy', 'site', ?, ?)")
      .bind(newId("aud"), targetId, at, targetId, JSON.stringify({ template_id: plan.template.id, content: input.content, media: input.media || input.content, created: plan.target === null })),
    control
      .prepare(
        "INSERT INTO site_copies (key, fingerprint, id, template_id, target_id, created_target, content, media, step, cursor, copied, objects, bytes, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, NULL, '{}', 0, 0, 'running', ?, ?)",
      )
      .bind(key, fingerprint, copyId, plan.template.id, targetId, plan.target === null ? 1 : 0, input.content ? 1 : 0, input.media || input.content ? 1 : 0, at, at),
  );
  try {
    await control.batch(statements);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (message.includes("sites.slug")) throw new AppError("slug_taken", "Another site already uses this slug.");
    if (message.includes("site_hosts.host")) throw new AppError("host_taken", "One of the hosts was taken meanwhile.");
    if (message.includes("site_copies.key")) return startCopy(env, clock, key, fingerprint, templateRef, input);
    throw error;
  }
  const row = await readCopy(control, key);
  if (!row) throw new Error("site copy row vanished");
  return row;
}
