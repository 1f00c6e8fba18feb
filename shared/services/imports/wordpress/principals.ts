import { commit } from "../../../db/batch";
import { AppError } from "../../../errors";
import type { LifecycleContext } from "../../lifecycle/context";
import type { StepAnswer, StepContext } from "../job-step";
import { importJobView, loadImportJob, movedJob, moveJob, requireImportPermission, requireState, type ImportJobRow, type ImportJobView } from "../jobs";
import { rows, statement } from "../statements";
import { decisionsOf, type WordPressDecisions } from "./review";
import { proposedMapping } from "./mapping";
import { modelRepository } from "../../../repositories/model-repository";
import type { WxrAuthor } from "./wxr-items";

/** Principals (authors of the file) a page answers at most. */
export const PRINCIPALS_PAGE = 100;

/** A WordPress author of the file, as getImportPrincipals answers it. */
export interface ImportPrincipal {
  item_seq: number;
  login: string;
  display_name: string;
  email: string;
  /** Posts, pages and attachments of the file whose `dc:creator` is this login. */
  items: number;
  /** The site member the history is assigned to (putHistoryAssignments), or null: the name is kept. */
  person_id: string | null;
  /** An active member of the site with the author's e-mail address, proposed (never applied by itself). */
  proposed_person_id: string | null;
}

function requireWordPress(job: ImportJobRow): void {
  if (job.kind !== "wordpress") throw new AppError("import_state_conflict", "Principals and history assignments are those of a WordPress import.", { state: job.state });
}

async function authorPage(ctx: Pick<LifecycleContext, "d1" | "site">, job: ImportJobRow, after: number) {
  const found = await rows<{ seq: number; payload: string }>(ctx.d1, "SELECT seq, payload FROM import_items WHERE site_id = ? AND job_id = ? AND kind = 'author' AND seq > ? ORDER BY seq LIMIT ?", [
    ctx.site.id,
    job.id,
    after,
    PRINCIPALS_PAGE + 1,
  ]);
  const page = found.slice(0, PRINCIPALS_PAGE);
  return { authors: page.map((r) => ({ seq: r.seq, author: JSON.parse(r.payload) as WxrAuthor })), next_cursor: found.length > PRINCIPALS_PAGE ? String(page[page.length - 1]?.seq ?? after) : null };
}

/**
 * getImportPrincipals: the file's authors (one page, `after` an item seq), each with how many items
 * it wrote, the person its history is assigned to, and the member proposed by e-mail address.
 */
export async function importPrincipals(ctx: LifecycleContext, jobId: string, after: number): Promise<{ principals: ImportPrincipal[]; next_cursor: string | null }> {
  requireImportPermission(ctx);
  const job = await loadImportJob(ctx, jobId);
  requireWordPress(job);
  const { authors, next_cursor } = await authorPage(ctx, job, after);
  const logins = authors.map((a) => a.author.login);
  const counts = new Map<string, number>();
  const emails = new Map<string, string>();
  if (logins.length > 0) {
    const marks = logins.map(() => "?").join(",");
    for (const c of await rows<{ login: string; n: number }>(
      ctx.d1,
      `SELECT json_extract(payload, '$.creator') AS login, count(*) AS n FROM import_items WHERE site_id = ? AND job_id = ? AND kind IN ('post', 'page', 'attachment') AND json_extract(payload, '$.creator') IN (${marks}) GROUP BY login`,
      [ctx.site.id, job.id, ...logins],
    )) {
      counts.set(c.login, c.n);
    }
    const wanted = authors.map((a) => a.author.email.toLowerCase()).filter((e) => e !== "");
    if (wanted.length > 0) {
      for (const m of await rows<{ id: string; email: string }>(
        ctx.d1,
        `SELECT p.id, p.email FROM memberships m JOIN persons p ON p.id = m.person_id WHERE m.site_id = ? AND m.active = 1 AND p.active = 1 AND p.email IN (${wanted.map(() => "?").join(",")})`,
        [ctx.site.id, ...wanted],
      )) {
        emails.set(m.email, m.id);
      }
    }
  }
  const assigned = decisionsOf(job)?.principals ?? {};
  return {
    principals: authors.map(({ seq, author }) => ({
      item_seq: seq,
      login: author.login,
      display_name: author.display_name,
      email: author.email,
      items: counts.get(author.login) ?? 0,
      // Own keys only: a login such as `toString` is no key of the prototype here.
      person_id: (Object.hasOwn(assigned, author.login) ? assigned[author.login] : null) ?? null,
      proposed_person_id: emails.get(author.email.toLowerCase()) ?? null,
    })),
    next_cursor,
  };
}

/** getHistoryAssignments: who each principal's history is assigned to (one page of principals). */
export async function historyAssignments(ctx: LifecycleContext, jobId: string, after: number) {
  const { principals, next_cursor } = await importPrincipals(ctx, jobId, after);
  return {
    assignments: principals.map((p) => ({ login: p.login, display_name: p.display_name, person_id: p.person_id, kept_as: p.person_id === null ? ("name" as const) : ("person" as const) })),
    next_cursor,
  };
}

export interface PutHistoryAssignmentsInput {
  job_id: string;
  /** Login → person id (an active member of the site), or null to keep the WordPress name only. */
  assignments: Record<string, string | null>;
}

/**
 * putHistoryAssignments (a job step, rule 5 `always`): records, before the write steps, to whom each
 * WordPress author's items are attributed in their version history. Every login must be a
 * principal of the file and every person an active member of the site (422 `import_mapping_invalid`
 * naming each problem, nothing recorded). Assignments sent again replace those named.
 */
export async function putHistoryAssignments(ctx: StepContext, input: PutHistoryAssignmentsInput): Promise<StepAnswer<{ import: ImportJobView; assignments: Record<string, string | null> }>> {
  requireImportPermission(ctx);
  const job = await loadImportJob(ctx, input.job_id);
  requireWordPress(job);
  requireState(job, ["parsing", "review"], "Assigning history");
  const logins = Object.keys(input.assignments);
  const problems: { login: string; problem: string }[] = [];
  if (logins.length > 0) {
    const known = new Set(
      (await rows<{ login: string }>(ctx.d1, `SELECT source_key AS login FROM import_items WHERE site_id = ? AND job_id = ? AND kind = 'author' AND source_key IN (${logins.map(() => "?").join(",")})`, [ctx.site.id, job.id, ...logins])).map((r) => r.login),
    );
    const people = [...new Set(Object.values(input.assignments).filter((p): p is string => p !== null))];
    const members = new Set(
      people.length === 0
        ? []
        : (await rows<{ id: string }>(ctx.d1, `SELECT p.id FROM memberships m JOIN persons p ON p.id = m.person_id WHERE m.site_id = ? AND m.active = 1 AND p.active = 1 AND p.id IN (${people.map(() => "?").join(",")})`, [ctx.site.id, ...people])).map((r) => r.id),
    );
    for (const [login, person] of Object.entries(input.assignments)) {
      if (!known.has(login)) problems.push({ login, problem: "no such author in the file" });
      else if (person !== null && !members.has(person)) problems.push({ login, problem: "not an active member of this site" });
    }
  }
  if (problems.length > 0) throw new AppError("import_mapping_invalid", "Some history assignments cannot be made.", { problems });
  const before = decisionsOf(job);
  const base: WordPressDecisions = before ?? { mapping: proposedMapping(await modelRepository(ctx.db, ctx.scope).list()), renames: {}, approved: false };
  const decisions: WordPressDecisions = { ...base, principals: { ...(base.principals ?? {}), ...input.assignments } };
  const set = { decisions: JSON.stringify(decisions) };
  await commit(ctx.d1, moveJob(ctx, job, set));
  return { body: { import: importJobView(movedJob(ctx, job, set)), assignments: decisions.principals ?? {} }, purgeTags: [] };
}

/**
 * The statement that attributes an imported version to the person its WordPress author is assigned
 * to (versions.created_by, which the history shows); none when the author keeps its name only (the
 * version then names whoever advanced the job, and the receipt names the WordPress author).
 */
export function historyStatement(ctx: Pick<LifecycleContext, "site">, decisions: WordPressDecisions, creator: string, versionId: string | null) {
  const principals = decisions.principals ?? {};
  const person = Object.hasOwn(principals, creator) ? principals[creator] : undefined;
  if (!person || !versionId) return [];
  return [statement("UPDATE versions SET created_by = ? WHERE site_id = ? AND id = ?", [person, ctx.site.id, versionId])];
}
