/**
 * Generation as one pure function (docs/generated-backend.md): the site's models, published items
 * and link targets in; the problems (model and content level) or the archive's files out.
 */
import { tarBytes, gzipBytes, type ArchiveFile } from "./archive";
import { identityOf, identityProblems, itemProblems } from "./content-checks";
import { modelProblems } from "./model-checks";
import type { ModelPlan } from "./plan";
import type { PrivateMedia } from "./private-files";
import { projectFiles, type IssuedReadToken } from "./project";
import { tableRows } from "./rows";
import { savedQueryProblems, type GeneratorSavedQuery } from "./saved-query-checks";
import type { GenerationProblem, GeneratorModel, GeneratorSite, LinkTarget, PublishedItem } from "./types";

export interface GenerationInput {
  site: GeneratorSite;
  models: readonly GeneratorModel[];
  items: readonly PublishedItem[];
  /** Every entry instance a published value links to, by instance id. */
  targets: ReadonlyMap<string, LinkTarget>;
  tokens: readonly IssuedReadToken[];
  /** The site's saved queries: one naming a private field refuses generation (saved-query-checks.ts). */
  savedQueries: readonly GeneratorSavedQuery[];
  /** Media held by private fields of published values, by media id (private-files.ts). */
  privateMedia?: ReadonlyMap<string, PrivateMedia>;
}

/** Content-level problems of `items` (identity checks over all of `items`). */
export function contentProblems(plans: readonly ModelPlan[], site: GeneratorSite, items: readonly PublishedItem[], targets: ReadonlyMap<string, LinkTarget>): GenerationProblem[] {
  const problems: GenerationProblem[] = [];
  for (const plan of plans) {
    const mine = items.filter((item) => item.model_id === plan.model.id).sort((a, b) => (a.group_id < b.group_id ? -1 : 1));
    for (const item of mine) problems.push(...itemProblems(plan, item, site, targets));
    problems.push(...identityProblems(plan, mine.map((item) => identityOf(plan, item, site, targets))));
  }
  return problems;
}

export type GenerationResult = { ok: false; problems: GenerationProblem[] } | { ok: true; files: ArchiveFile[] };

/** The emitted project's files, or every problem that refuses it. */
export function generateFiles(input: GenerationInput): GenerationResult {
  const { problems: modelLevel, plans } = modelProblems(input.models);
  // Saved queries are read like models (whole definitions, no content): told together.
  const problems = [...modelLevel, ...savedQueryProblems(input.models, input.savedQueries)];
  if (problems.length > 0) return { ok: false, problems };
  const content = contentProblems(plans, input.site, input.items, input.targets);
  if (content.length > 0) return { ok: false, problems: content };
  return { ok: true, files: projectFiles(input.site, plans, tableRows(plans, input.items, input.site, input.targets, input.privateMedia ?? new Map()), input.tokens) };
}

/** The archive's root folder: `<site slug>-backend`. */
export const archiveRoot = (site: Pick<GeneratorSite, "slug">): string => `${site.slug.toLowerCase().replace(/[^a-z0-9-]/g, "-")}-backend`;

/** The .tar.gz bytes of the files (deterministic: archive.ts). */
export async function archiveOf(site: GeneratorSite, files: readonly ArchiveFile[]): Promise<Uint8Array> {
  return gzipBytes(tarBytes(archiveRoot(site), files));
}
