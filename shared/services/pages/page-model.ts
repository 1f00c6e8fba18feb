import { relationKind, type FieldDefinition } from "../../../schema/model-definition";
import { AppError } from "../../errors";
import type { Kysely } from "kysely";
import type { Database } from "../../db/database";
import type { SiteScope } from "../../db/site-scope";
import { modelRepository, type Model } from "../../repositories/model-repository";

/** The slug of the model whose entries are the site's pages (docs/pages.md, "The page model"). */
export const PAGE_MODEL_SLUG = "page";

/** How many pages of one language the tree reads (paths, lists): a website's pages, not a blog's posts. */
export const PAGE_TREE_LIMIT = 2000;

/** The deepest a page may sit (a longer parent chain is treated as broken: no path). */
export const PAGE_DEPTH_LIMIT = 16;

/** The site's page model, or 404 `page_model_missing`. */
export async function requirePageModel(db: Kysely<Database>, scope: SiteScope): Promise<Model> {
  const model = await modelRepository(db, scope).findBySlug(PAGE_MODEL_SLUG);
  if (!model || model.kind !== "collection") throw new AppError("page_model_missing", `The site has no collection model with slug "${PAGE_MODEL_SLUG}"; create one to use pages.`);
  return model;
}

/** The page model's parent link: its to-one hierarchy relation field, if it has one (pages then nest). */
export function parentField(model: Pick<Model, "fields">): FieldDefinition | undefined {
  return model.fields.find((f) => f.type === "relation" && f.hierarchy === true && (relationKind(f) === "many_to_one" || relationKind(f) === "one_to_one"));
}
