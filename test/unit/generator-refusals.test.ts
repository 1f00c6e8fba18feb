/**
 * Every generation refusal of spec 3 from a model (or published content) built to trigger it
 * (docs/generated-backend.md, "Refusals"), and the determinism of the archive.
 */
import { describe, expect, it } from "vitest";
import { contentProblems, generateFiles, archiveOf } from "../../shared/services/generator/generate";
import { modelProblems } from "../../shared/services/generator/model-checks";
import { savedQueryProblems } from "../../shared/services/generator/saved-query-checks";
import type { GeneratorModel, GeneratorSite, LinkTarget, PublishedItem } from "../../shared/services/generator/types";

const site: GeneratorSite = { id: "site1", slug: "demo", name: "Demo", default_lang: "en", languages: ["en", "fr"], media_origin: "https://demo.test" };

function model(id: string, fields: unknown[], extra: Partial<GeneratorModel> = {}): GeneratorModel {
  return { id, slug: id, name: id.charAt(0).toUpperCase() + id.slice(1), kind: "collection", is_public: true, i18n: false, fields, unique_combinations: [], ...extra };
}
const text = (key: string, extra: Record<string, unknown> = {}) => ({ id: key, key, label: key, type: "text", ...extra });

function codes(models: GeneratorModel[]): string[] {
  return modelProblems(models).problems.map((p) => p.code);
}

describe("model-level refusals", () => {
  it("a valid model has none", () => {
    expect(codes([model("article", [text("title", { required: true })])])).toEqual([]);
  });
  it("unsupported_field_type", () => {
    const problems = modelProblems([model("article", [text("title"), { id: "x", key: "x", label: "x", type: "hologram" }])]).problems;
    expect(problems).toEqual([expect.objectContaining({ code: "unsupported_field_type", model: "article", field: "x" })]);
  });
  it("invalid_field_config", () => {
    expect(codes([model("article", [{ id: "s", key: "s", label: "s", type: "select" }])])).toEqual(["invalid_field_config"]);
  });
  it("unsupported_text_validation", () => {
    expect(codes([model("article", [text("title", { validation: { custom: "value.length > 2" } })])])).toEqual(["unsupported_text_validation"]);
  });
  it("invalid_field_validation (a pattern RE2 refuses, a minimum above its maximum)", () => {
    expect(codes([model("article", [text("title", { validation: { pattern: "(a)\\1" } }), text("b", { validation: { min_length: 5, max_length: 2 } })])])).toEqual(["invalid_field_validation", "invalid_field_validation"]);
  });
  it("empty_model", () => {
    expect(codes([model("article", [])])).toEqual(["empty_model"]);
  });
  it("column_name_collision (media columns, case, system columns)", () => {
    const problems = modelProblems([model("article", [{ id: "cover", key: "cover", label: "c", type: "media" }, text("cover_id"), text("myField"), text("myfield"), text("created_at")])]).problems;
    expect(problems.map((p) => [p.code, p.field])).toEqual([
      ["column_name_collision", "cover_id"],
      ["column_name_collision", "myfield"],
      ["column_name_collision", "created_at"],
    ]);
  });
  it("model_name_collision (one API name; a reserved name)", () => {
    expect(codes([model("a", [text("t")], { name: "Blog post" }), model("b", [text("t")], { name: "Blogpost" })])).toEqual(["model_name_collision"]);
    expect(codes([model("a", [text("t")], { name: "2024" })])).toEqual(["model_name_collision"]);
    // /api/auth/ is the sessions' (docs/generated-backend.md, "Sessions and roles").
    expect(codes([model("a", [text("t")], { name: "Auth" })])).toEqual(["model_name_collision"]);
  });
  it("relation_target_absent", () => {
    expect(codes([model("article", [{ id: "r", key: "author", label: "a", type: "relation", targets: ["ghost"] }])])).toEqual(["relation_target_absent"]);
  });
  it("relation_type_unsupported (a per-language list on an untranslated model)", () => {
    expect(codes([model("article", [{ id: "r", key: "rel", label: "r", type: "relation", relation: "many_to_many", multiple: true, targets: ["article"], localized_membership: true }])])).toEqual(["relation_type_unsupported"]);
  });
  it("relation_bounds_unsatisfiable", () => {
    expect(codes([model("article", [{ id: "r", key: "rel", label: "r", type: "relation", relation: "many_to_many", multiple: true, targets: ["article"], required: true, validation: { max_items: 0 } }])])).toEqual(["relation_bounds_unsatisfiable"]);
  });
  it("relation_required_cycle (A needs B needs A)", () => {
    const a = model("a", [{ id: "b", key: "b", label: "b", type: "relation", targets: ["b"], required: true }]);
    const b = model("b", [{ id: "a", key: "a", label: "a", type: "relation", targets: ["a"], required: true }]);
    expect(codes([a, b])).toEqual(["relation_required_cycle", "relation_required_cycle"]);
  });
  it("ambiguous_relation (two lists whose join tables are one name)", () => {
    const list = (key: string) => ({ id: key, key, label: key, type: "relation", relation: "many_to_many", multiple: true, targets: ["tag"] });
    const article = model("article", [list("tags"), list("tAGS")]);
    const tag = model("tag", [text("name")]);
    expect(modelProblems([article, tag]).problems).toEqual([expect.objectContaining({ code: "ambiguous_relation", model: "article", field: "tAGS" })]);
  });
  it("ambiguous_component (nested keys differing only in case)", () => {
    expect(codes([model("article", [{ id: "seo", key: "seo", label: "s", type: "component", fields: [text("aB"), text("ab")] }])])).toEqual(["ambiguous_component"]);
  });
  it("invalid_reference (a condition naming an absent field)", () => {
    expect(codes([model("article", [text("title", { condition: { field: "ghost", op: "equals", value: "x" } })])])).toEqual(["invalid_reference"]);
  });
});

function item(group: string, modelId: string, values: Record<string, unknown>, extra: Partial<PublishedItem> = {}, slug: string | null = group): PublishedItem {
  return { group_id: group, model_id: modelId, first_published_at: "2026-01-01T00:00:00.000Z", languages: [{ instance_id: `${group}-en`, lang: "en", slug, published_at: "2026-01-01T00:00:00.000Z", values, media: {} }], ...extra };
}
const target = (group: string, modelId: string, published = true): [string, LinkTarget] => [`${group}-en`, { group_id: group, model_id: modelId, published }];

function contentCodes(models: GeneratorModel[], items: PublishedItem[], targets: [string, LinkTarget][] = []): string[] {
  const { plans, problems } = modelProblems(models);
  expect(problems).toEqual([]);
  return contentProblems(plans, site, items, new Map(targets)).map((p) => p.code);
}

describe("saved-query refusal", () => {
  const rel = { id: "tags", key: "tags", label: "Tags", type: "relation", multiple: true, targets: ["tag"] };
  const article = model("article", [text("title"), text("note", { private: true }), { ...rel, private: true }]);
  it("saved_query_private_field: a private field filtered on or selected, named per query and field; the order names none", () => {
    const queries = [
      { name: "wide", model_id: "article", definition: { filters: [{ kind: "tag" as const, field: "tags", value: "x" }], order: "asc" as const, fields: ["title", "note", "tags"], limit: 5 } },
      { name: "narrow", model_id: "article", definition: { filters: [], order: "manual" as const, fields: ["title"], limit: 5 } },
      { name: "all-fields", model_id: "article", definition: { filters: [], order: "desc" as const, limit: 5 } },
    ];
    const tag = model("tag", [text("name")]);
    const problems = savedQueryProblems([article, tag], queries);
    expect(problems.map((p) => [p.code, p.model, p.field, p.query])).toEqual([
      ["saved_query_private_field", "article", "tags", "wide"],
      ["saved_query_private_field", "article", "note", "wide"],
    ]);
    expect(problems[0]?.detail).toContain("filters on it and selects it");
    // generateFiles refuses with it beside model-level problems.
    const refused = generateFiles({ site, models: [article, tag], items: [], targets: new Map(), tokens: [], savedQueries: queries });
    expect(refused.ok ? [] : refused.problems.map((p) => p.code)).toEqual(["saved_query_private_field", "saved_query_private_field"]);
    expect(generateFiles({ site, models: [article, tag], items: [], targets: new Map(), tokens: [], savedQueries: queries.slice(1) }).ok).toBe(true);
  });
});

describe("content-level refusals", () => {
  const author = model("author", [text("name")]);
  const article = model("article", [text("title", { required: true }), { id: "author", key: "author", label: "a", type: "relation", targets: ["author"] }, { id: "n", key: "n", label: "n", type: "integer" }]);
  const category = model("category", [text("title"), { id: "parent", key: "parent", label: "p", type: "relation", relation: "many_to_one", hierarchy: true, targets: ["category"] }]);

  it("relation_arity_unsupported", () => {
    expect(contentCodes([author, article], [item("a1", "article", { title: "x", author: ["u1-en", "u2-en"] }), item("u1", "author", {}), item("u2", "author", {})], [target("u1", "author"), target("u2", "author")])).toEqual(["relation_arity_unsupported"]);
  });
  it("relation_target_model_mismatch (a parent of another model)", () => {
    expect(contentCodes([author, category], [item("c1", "category", { title: "c", parent: "u1-en" }), item("u1", "author", {})], [target("u1", "author")])).toEqual(["relation_target_model_mismatch"]);
  });
  it("invalid_reference (a link to a model the field does not allow)", () => {
    expect(contentCodes([author, article, category], [item("a1", "article", { title: "x", author: "c1-en" }), item("c1", "category", { title: "c" })], [target("c1", "category")])).toEqual(["invalid_reference"]);
  });
  it("duplicate_row_identity (one slug in two languages' base rows)", () => {
    const fr = (group: string): PublishedItem => ({ ...item(group, "author", {}), languages: [{ instance_id: `${group}-fr`, lang: "fr", slug: "same", published_at: "2026-01-01T00:00:00.000Z", values: {}, media: {} }] });
    expect(contentCodes([author], [item("u1", "author", {}, {}, "same"), fr("u2")])).toEqual(["duplicate_row_identity"]);
  });
  it("required_value_missing", () => {
    expect(contentCodes([author, article], [item("a1", "article", { title: "" })])).toEqual(["required_value_missing"]);
  });
  it("unsupported_value_type", () => {
    expect(contentCodes([author, article], [item("a1", "article", { title: "x", n: "many" })])).toEqual(["unsupported_value_type"]);
  });
  it("unpublished_reference", () => {
    expect(contentCodes([author, article], [item("a1", "article", { title: "x", author: "u9-en" })], [target("u9", "author", false)])).toEqual(["unpublished_reference"]);
  });
  it("relation_hierarchy_cycle", () => {
    expect(contentCodes([category], [item("c1", "category", { title: "a", parent: "c2-en" }), item("c2", "category", { title: "b", parent: "c1-en" })], [target("c1", "category"), target("c2", "category")])).toEqual(["relation_hierarchy_cycle"]);
  });
});

describe("generation", () => {
  it("refuses with the problems, and builds the same archive twice", async () => {
    const author = model("author", [text("name", { required: true, unique: "model" })]);
    const refused = generateFiles({ site, models: [model("x", [])], items: [], targets: new Map(), tokens: [], savedQueries: [] });
    expect(refused).toEqual({ ok: false, problems: [expect.objectContaining({ code: "empty_model" })] });
    const input = { site, models: [author], items: [item("u1", "author", { name: "Ada" })], targets: new Map<string, LinkTarget>(), tokens: [], savedQueries: [] };
    const result = generateFiles(input);
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(result.files.map((f) => f.path)).toEqual(expect.arrayContaining(["package.json", "migrations/0001_schema.sql", "data/author.json", "src/schema.ts", "openapi.json", "access/read-tokens.json", "src/access-config-rules.js", "src/media-original.ts"]));
    expect(JSON.parse(result.files.find((f) => f.path === "data/author.json")?.content as string)).toEqual([
      { id: "u1", slug: "u1", name: "Ada", published_at: "2026-01-01T00:00:00.000Z", created_at: "2026-01-01T00:00:00.000Z", updated_at: "2026-01-01T00:00:00.000Z" },
    ]);
    const first = await archiveOf(site, result.files);
    const second = await archiveOf(site, (generateFiles(input) as { files: typeof result.files }).files);
    expect(first[0]).toBe(0x1f);
    expect([...first]).toEqual([...second]);
  });

  it("describes each relation field's storage and rules in src/schema.ts, and the migration re-creates the relation triggers", () => {
    const rel = (key: string, extra: Record<string, unknown>) => ({ id: key, key, label: key, type: "relation", ...extra });
    const models = [
      model("author", [text("name")]),
      model("book", [text("title")]),
      model("shelf", [
        text("name"),
        rel("books", { relation: "one_to_many", multiple: true, targets: ["book"], validation: { min_items: 1, max_items: 3 } }),
        rel("pick", { relation: "many_to_one", targets: ["book", "author"] }),
        rel("keeper", { relation: "many_to_one", targets: ["author"], required: true }),
        rel("up", { relation: "many_to_one", hierarchy: true, targets: ["shelf"] }),
      ]),
    ];
    const result = generateFiles({ site, models, items: [], targets: new Map(), tokens: [], savedQueries: [] });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const schema = JSON.parse(result.files.find((f) => f.path === "schema.json")?.content as string) as { models: { api: string; relations: unknown[] }[] };
    expect(schema.models.find((m) => m.api === "shelf")?.relations).toEqual([
      { field: "books", toOne: false, hierarchy: false, oneOwner: true, localized: false, private: false, minItems: 1, maxItems: 3, targets: [{ model: "book", table: "shelf_books" }] },
      { field: "pick", toOne: true, hierarchy: false, oneOwner: false, localized: false, private: false, minItems: 0, maxItems: 1, targets: [{ model: "book", table: "shelf_pick_book" }, { model: "author", table: "shelf_pick_author" }] },
      { field: "keeper", column: "keeper_id", toOne: true, hierarchy: false, oneOwner: false, localized: false, private: false, minItems: 1, maxItems: 1, targets: [{ model: "author" }] },
      { field: "up", column: "up_id", toOne: true, hierarchy: true, oneOwner: false, localized: false, private: false, minItems: 0, maxItems: 1, targets: [{ model: "shelf" }] },
    ]);
    const migration = result.files.find((f) => f.path === "migrations/0001_schema.sql")?.content as string;
    const dropped = migration.indexOf('DROP VIEW IF EXISTS "_driftwood_guard"');
    expect(dropped).toBeGreaterThan(-1);
    expect(dropped).toBeLessThan(migration.indexOf("CREATE TABLE"));
    for (const trigger of ["shelf_books_one_order", "shelf_pick_book_one_order", "shelf_pick_author_one_order", "_driftwood_guard_relation_changed_concurrently", "shelf_up_id_no_cycle_update"]) {
      expect(migration).toContain(`CREATE TRIGGER "${trigger}"`);
    }
    expect(migration.indexOf('DROP TRIGGER IF EXISTS "shelf_books_one_order"')).toBeLessThan(migration.indexOf("CREATE TABLE"));
  });
});
