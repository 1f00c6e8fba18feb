import type { FieldDefinition } from "../../../../schema/model-definition";
import { AppError } from "../../../errors";
import { modelRepository, type Model } from "../../../repositories/model-repository";
import type { LifecycleContext } from "../../lifecycle/context";

/** What a WordPress file's content goes into: one model per kind, or null to leave that kind out. */
export interface WordPressMapping {
  post: string | null;
  page: string | null;
  category: string | null;
  tag: string | null;
}

export const MAPPED_KINDS = ["post", "page", "category", "tag"] as const;
export type MappedKind = (typeof MAPPED_KINDS)[number];

/** The model slugs the review proposes for each kind, first found wins (docs/imports.md, "Mapping"). */
const PROPOSED_SLUGS: Readonly<Record<MappedKind, readonly string[]>> = {
  post: ["post", "posts", "article", "articles", "blog-post", "blog"],
  page: ["page", "pages"],
  category: ["category", "categories"],
  tag: ["tag", "tags"],
};

/** The review's proposal: models found by slug, else null (the kind is left out unless chosen). */
export function proposedMapping(models: readonly Model[]): WordPressMapping {
  const find = (kind: MappedKind) => {
    for (const slug of PROPOSED_SLUGS[kind]) {
      const model = models.find((m) => m.slug === slug && m.kind === "collection");
      if (model) return model.id;
    }
    return null;
  };
  return { post: find("post"), page: find("page"), category: find("category"), tag: find("tag") };
}

/** Which field of a mapped model receives what (field keys), read from its definition. */
export interface FieldPlan {
  model_id: string;
  title: string | null;
  body: string | null;
  excerpt: string | null;
  categories: string | null;
  tags: string | null;
  parent: string | null;
  date: string | null;
  /** A single media field for the featured image (`_thumbnail_id`). */
  image: string | null;
}

const byKey = (fields: readonly FieldDefinition[], keys: readonly string[], types: readonly string[]) =>
  keys.map((k) => fields.find((f) => f.key === k && types.includes(f.type))).find((f) => f !== undefined);

function relationTo(fields: readonly FieldDefinition[], target: string | null): string | null {
  if (!target) return null;
  const found = fields.find((f) => f.type === "relation" && f.hierarchy !== true && (f.targets ?? []).includes(target));
  return found?.key ?? null;
}

/** Where each WordPress value goes in `model` (docs/imports.md, "Mapping"): by field flags, types and usual keys. */
export function fieldPlan(model: Model, mapping: WordPressMapping): FieldPlan {
  const fields = model.fields;
  const title = fields.find((f) => f.title === true && (f.type === "text" || f.type === "long_text")) ?? byKey(fields, ["title", "name", "label"], ["text", "long_text"]);
  const body = byKey(fields, ["body", "content", "text"], ["rich_text"]) ?? fields.find((f) => f.type === "rich_text");
  const excerpt = byKey(fields, ["excerpt", "summary", "description", "intro"], ["text", "long_text"]);
  const parent = fields.find((f) => f.type === "relation" && f.hierarchy === true);
  const date = byKey(fields, ["date", "published_on", "post_date"], ["date", "datetime"]);
  const image = byKey(fields, ["featured_image", "image", "cover", "thumbnail"], ["media"]) ?? fields.find((f) => f.type === "media" && f.multiple !== true);
  return {
    model_id: model.id,
    title: title?.key ?? null,
    body: body?.key ?? null,
    excerpt: excerpt && excerpt.key !== title?.key ? excerpt.key : null,
    categories: relationTo(fields, mapping.category),
    tags: relationTo(fields, mapping.tag),
    parent: parent?.key ?? null,
    date: date?.key ?? null,
    image: image && image.multiple !== true ? image.key : null,
  };
}

/** The mapping's models, checked: each exists, is a collection, and has a field for the title. */
export async function mappedModels(ctx: Pick<LifecycleContext, "db" | "scope">, mapping: WordPressMapping): Promise<Map<MappedKind, { model: Model; plan: FieldPlan }>> {
  const repo = modelRepository(ctx.db, ctx.scope);
  const ids = MAPPED_KINDS.map((k) => mapping[k]).filter((id): id is string => id !== null);
  const models = new Map((await repo.findMany(ids)).map((m) => [m.id, m]));
  const out = new Map<MappedKind, { model: Model; plan: FieldPlan }>();
  const problems: { kind: MappedKind; model_id: string; problem: string }[] = [];
  for (const kind of MAPPED_KINDS) {
    const id = mapping[kind];
    if (id === null) continue;
    const model = models.get(id);
    if (!model) problems.push({ kind, model_id: id, problem: "no such model" });
    else if (model.kind !== "collection") problems.push({ kind, model_id: id, problem: "a single-entry model holds one item" });
    else {
      const plan = fieldPlan(model, mapping);
      if (!plan.title) problems.push({ kind, model_id: id, problem: "no text field for the title" });
      else out.set(kind, { model, plan });
    }
  }
  if (problems.length > 0) throw new AppError("import_mapping_invalid", "Some chosen models cannot hold this content.", { problems });
  return out;
}
