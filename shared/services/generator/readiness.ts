/**
 * The generation services the routes call (docs/generated-backend.md, "Getting one"): who may ask
 * (`site:infra`), the readiness lists, the content walk in pages of at most 200 items, and the
 * archive or its refusal (409 generation_refused with every problem).
 */
import { AppError } from "../../errors";
import type { LifecycleContext } from "../lifecycle";
import { identityOf, identityProblems, itemProblems } from "./content-checks";
import { archiveOf, archiveRoot, generateFiles } from "./generate";
import { loadGenerationInput, loadGeneratorModels, loadGeneratorSite, loadLinkTargets, loadPrivateMedia, loadPublishedItems, loadSavedQueries, publishedGroups } from "./load-site";
import { collectPrivateMediaIds, privateFileEntries } from "./private-files";
import { modelProblems } from "./model-checks";
import { savedQueryProblems } from "./saved-query-checks";
import { issuedReadTokens } from "./read-tokens";
import { requireInfra } from "./infra";
import type { GenerationProblem } from "./types";

/** Items (translation groups) one content readiness page walks at most. */
export const CONTENT_PAGE_ITEMS = 200;

/** Every model-level problem of the site, and the saved queries naming private fields. */
export async function generationReadiness(ctx: LifecycleContext): Promise<{ problems: GenerationProblem[] }> {
  requireInfra(ctx);
  // Model-level problems read the models (and the saved queries) only, never content.
  const [models, queries] = await Promise.all([loadGeneratorModels(ctx.db, ctx.scope), loadSavedQueries(ctx.db, ctx.scope)]);
  return { problems: [...modelProblems(models).problems, ...savedQueryProblems(models, queries)] };
}

const encodeCursor = (groupId: string): string => btoa(JSON.stringify({ after: groupId })).replace(/=+$/, "");

function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  try {
    const parsed = JSON.parse(atob(cursor)) as { after?: unknown };
    if (typeof parsed.after === "string") return parsed.after;
  } catch {
    // fall through to the refusal
  }
  throw new AppError("invalid_request", "cursor is not one this route gave.", { issues: [{ path: "cursor", message: "Unknown cursor." }] });
}

/**
 * One page of content-level problems: the items after the cursor in translation-group order, at most
 * CONTENT_PAGE_ITEMS. Whole-model problems (a duplicate, a loop) are told on the page holding the
 * item they name.
 */
export async function contentReadiness(ctx: LifecycleContext, cursor: string | undefined): Promise<{ problems: GenerationProblem[]; page: { items: number; next_cursor: string | null } }> {
  requireInfra(ctx);
  const after = decodeCursor(cursor);
  const [models, site, groups, targets] = await Promise.all([
    loadGeneratorModels(ctx.db, ctx.scope),
    loadGeneratorSite(ctx.db, ctx.scope, ctx.site),
    publishedGroups(ctx.db, ctx.scope, after, CONTENT_PAGE_ITEMS + 1),
    loadLinkTargets(ctx.db, ctx.scope),
  ]);
  const { plans } = modelProblems(models);
  const pageGroups = groups.slice(0, CONTENT_PAGE_ITEMS);
  const last = pageGroups.at(-1);
  // Bounded reads: the page's items with their values, and for whole-model facts (a duplicate, a
  // loop) the identity index of every item — slug, model-unique values and the parent link only.
  const identityFields = [...new Set(plans.flatMap((plan) => plan.fields.filter((field) => field.unique === "model" || field.hierarchy === true).map((field) => field.id)))];
  const [page, identities] = await Promise.all([
    last === undefined ? Promise.resolve([]) : loadPublishedItems(ctx.db, ctx.scope, { after, through: last }),
    loadPublishedItems(ctx.db, ctx.scope, { fieldIds: identityFields }),
  ]);
  const inPage = new Set(pageGroups);
  const problems: GenerationProblem[] = [];
  for (const plan of plans) {
    for (const item of page) if (item.model_id === plan.model.id) problems.push(...itemProblems(plan, item, site, targets));
    const claims = identities.filter((item) => item.model_id === plan.model.id).map((item) => identityOf(plan, item, site, targets));
    problems.push(...identityProblems(plan, claims).filter((problem) => problem.item !== undefined && inPage.has(problem.item)));
  }
  return { problems, page: { items: pageGroups.length, next_cursor: groups.length > pageGroups.length && last !== undefined ? encodeCursor(last) : null } };
}

/**
 * The archive, or 409 generation_refused listing every problem. `readObject` reads a media object's
 * bytes (the CMS's MEDIA bucket): the private files are copied into the archive's `private-files/`.
 */
export async function generatedBackend(ctx: LifecycleContext, readObject: (key: string) => Promise<Uint8Array | null>): Promise<{ bytes: Uint8Array; fileName: string }> {
  requireInfra(ctx);
  const loaded = await loadGenerationInput(ctx.db, ctx.scope, ctx.site, await issuedReadTokens(ctx));
  const { plans } = modelProblems(loaded.models);
  const privateMedia = await loadPrivateMedia(ctx.db, ctx.scope, collectPrivateMediaIds(plans, loaded.items));
  const input = { ...loaded, privateMedia };
  const result = generateFiles(input);
  if (!result.ok) throw new AppError("generation_refused", "The site has shapes the generated backend cannot serve; see problems.", { problems: result.problems });
  const files = [...result.files, ...(await privateFileEntries(privateMedia, readObject))].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { bytes: await archiveOf(input.site, files), fileName: `${archiveRoot(input.site)}.tar.gz` };
}
