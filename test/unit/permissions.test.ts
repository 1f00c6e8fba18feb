import { describe, expect, it } from "vitest";
import * as v from "valibot";
import { SEEDED_ROLES } from "../../shared/auth/seeded-roles";
import {
  ALL_LANGUAGE_ACTIONS,
  ALL_MODEL_OPERATIONS,
  ALL_SYSTEM_PERMISSIONS,
  LANGUAGE_ACTION_FOR_OPERATION,
  decide,
  hasSystemPermission,
  intersectPermissionSets,
  isWithin,
  modelOperations,
  readableFieldIds,
  readableLanguages,
  writableFieldIds,
  type AccessQuestion,
} from "../../shared/auth/permissions";
import {
  LanguageAction,
  ModelOperation,
  PermissionSet,
  SystemPermission,
  describePermissionProblems,
} from "../../schema/permissions";

function role(slug: string): PermissionSet {
  const found = SEEDED_ROLES.find((r) => r.slug === slug);
  if (!found) throw new Error(`no seeded role ${slug}`);
  return found.permissions;
}

const FIELDS = ["title", "body", "price", "secret"];

describe("PermissionSet schema", () => {
  it("accepts a full set with limits", () => {
    const set: unknown = {
      models: { "*": ["read"], article: ["create", "update:own", "publish"] },
      system: ["media:upload", "data:export"],
      limits: {
        fields: { "*": { read: ["title"] }, article: { read: ["title", "body"], write: ["body"] } },
        languages: { read: ["en", "de"], publish: ["en"], review: [] },
      },
    };
    expect(v.safeParse(PermissionSet, set).success).toBe(true);
    expect(describePermissionProblems(set)).toEqual([]);
  });

  it("accepts the smallest set", () => {
    expect(describePermissionProblems({ models: {}, system: [] })).toEqual([]);
  });

  it("picklists hold exactly the documented names", () => {
    expect(ModelOperation.options).toEqual([
      "read", "create", "update", "update:own", "delete", "publish", "unpublish", "restore",
    ]);
    expect(SystemPermission.options).toEqual([
      "site:settings", "site:infra", "site:plugins", "model:apply", "model:delete", "media:upload",
      "media:update", "media:delete", "role:manage", "data:import", "data:export", "content:restore",
    ]);
    expect(LanguageAction.options).toEqual([
      "read", "create", "update", "delete", "restore", "review", "publish", "unpublish",
    ]);
    expect(ALL_MODEL_OPERATIONS).toEqual(ModelOperation.options);
    expect(ALL_SYSTEM_PERMISSIONS).toEqual(SystemPermission.options);
    expect(ALL_LANGUAGE_ACTIONS).toEqual(LanguageAction.options);
  });

  it("refuses unknown operation names", () => {
    const input = { models: { article: ["read", "publsh"] }, system: [] };
    expect(v.safeParse(PermissionSet, input).success).toBe(false);
    expect(describePermissionProblems(input)).toEqual(['models.article[1]: unknown model operation "publsh"']);
  });

  it("refuses unknown system permissions", () => {
    expect(describePermissionProblems({ models: {}, system: ["media:upload", "site:everything"] })).toEqual([
      'system[1]: unknown system permission "site:everything"',
    ]);
  });

  it("refuses unknown language actions", () => {
    expect(describePermissionProblems({ models: {}, system: [], limits: { languages: { approve: ["en"] } } })).toEqual([
      'limits.languages.approve: unknown language action "approve"',
    ]);
  });

  it("lists every reason at once", () => {
    const problems = describePermissionProblems({
      models: { "*": ["read", "fly"], article: "read", news: ["swim"] },
      system: ["root", 7],
      limits: {
        fields: { article: { read: "title", write: [""] }, "*": { delete: ["x"], drop: ["y"] } },
        languages: { approve: ["en"], read: "en", publish: [3] },
        roles: {},
      },
      extra: true,
      more: 1,
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        'models["*"][1]: unknown model operation "fly"',
        'models.article: expected a list of model operations, received "read"',
        'models.news[0]: unknown model operation "swim"',
        'system[0]: unknown system permission "root"',
        "system[1]: expected a system permission name, received 7",
        'limits.fields.article.read: expected a list of field ids, received "title"',
        "limits.fields.article.write[0]: field id must not be empty",
        'limits.fields["*"].delete: unknown key "delete" (allowed: read, write)',
        'limits.fields["*"].drop: unknown key "drop" (allowed: read, write)',
        'limits.languages.approve: unknown language action "approve"',
        'limits.languages.read: expected a list of language codes, received "en"',
        "limits.languages.publish[0]: expected a language code (string), received 3",
        'limits.roles: unknown key "roles" (allowed: fields, languages)',
        'extra: unknown key "extra" (allowed: models, system, limits)',
        'more: unknown key "more" (allowed: models, system, limits)',
      ]),
    );
    expect(problems).toHaveLength(15);
  });

  it("refuses wrong shapes, naming the path", () => {
    expect(describePermissionProblems(null)).toEqual([
      "expected a permission set object ({ models, system, limits? }), received null",
    ]);
    expect(describePermissionProblems({})).toEqual([
      'models: missing required key "models"',
      'system: missing required key "system"',
    ]);
    expect(describePermissionProblems({ models: [], system: "media:upload", limits: [] })).toEqual([
      "models: expected an object of model id → operations, received an array",
      'system: expected a list of system permissions, received "media:upload"',
      "limits: expected a limits object ({ fields?, languages? }), received an array",
    ]);
    expect(
      describePermissionProblems({ models: { "": ["read"] }, system: [], limits: { fields: { a: [] }, languages: 5 } }),
    ).toEqual([
      'models[""]: model id must not be empty',
      "limits.fields.a: expected a field limit object ({ read?, write? }), received an array",
      "limits.languages: expected an object of language action → language codes, received 5",
    ]);
  });
});

describe("seeded roles", () => {
  it("each validates against the schema", () => {
    expect(SEEDED_ROLES.map((r) => r.slug)).toEqual(["admin", "editor", "author", "viewer"]);
    for (const seeded of SEEDED_ROLES) {
      expect(describePermissionProblems(seeded.permissions)).toEqual([]);
      expect(v.parse(PermissionSet, seeded.permissions)).toEqual(seeded.permissions);
      expect(seeded.name.length).toBeGreaterThan(0);
      expect(seeded.description.length).toBeGreaterThan(0);
    }
  });

  it("grant what the brief says", () => {
    expect(modelOperations(role("admin"), "anything")).toEqual([...ALL_MODEL_OPERATIONS]);
    expect(role("admin").system).toEqual([...ALL_SYSTEM_PERMISSIONS]);
    expect(modelOperations(role("editor"), "article")).toEqual([
      "read", "create", "update", "delete", "publish", "unpublish", "restore",
    ]);
    expect(role("editor").system).toEqual(["media:upload", "media:update", "media:delete", "content:restore", "data:export"]);
    expect(modelOperations(role("author"), "article")).toEqual(["read", "create", "update:own"]);
    expect(role("author").system).toEqual(["media:upload"]);
    expect(modelOperations(role("viewer"), "article")).toEqual(["read"]);
    expect(role("viewer").system).toEqual([]);
  });

  it("nest: viewer ⊂ author, editor ⊂ admin, author ⊄ editor only by update:own being covered", () => {
    expect(isWithin(role("viewer"), role("author")).within).toBe(true);
    expect(isWithin(role("author"), role("editor")).within).toBe(true);
    expect(isWithin(role("editor"), role("admin")).within).toBe(true);
    expect(isWithin(role("admin"), role("editor")).within).toBe(false);
  });

  it("are frozen", () => {
    expect(() => role("viewer").system.push("site:infra")).toThrow();
  });
});

describe("decide: model operations", () => {
  const set: PermissionSet = { models: { "*": ["read"], article: ["create", "publish"] }, system: [] };

  it("allows an operation held on the model", () => {
    expect(decide(set, { operation: "create", modelId: "article" })).toEqual({ allowed: true });
  });

  it("allows an operation held on '*' for any model (union with the model's own)", () => {
    expect(decide(set, { operation: "read", modelId: "article" })).toEqual({ allowed: true });
    expect(decide(set, { operation: "read", modelId: "news" })).toEqual({ allowed: true });
    expect(modelOperations(set, "article")).toEqual(["read", "create", "publish"]);
    expect(modelOperations(set, "news")).toEqual(["read"]);
  });

  it("refuses with missing_permission when neither the model nor '*' holds it", () => {
    const answer = decide(set, { operation: "publish", modelId: "news" });
    expect(answer).toMatchObject({ allowed: false, code: "missing_permission" });
    if (!answer.allowed) expect(answer.message).toContain("publish");
    expect(decide(set, { operation: "delete", modelId: "article" })).toMatchObject({ code: "missing_permission" });
  });

  it("every operation is refused by an empty set and allowed by admin", () => {
    const empty: PermissionSet = { models: {}, system: [] };
    for (const operation of ALL_MODEL_OPERATIONS) {
      expect(decide(empty, { operation, modelId: "m" })).toMatchObject({ allowed: false, code: "missing_permission" });
      expect(decide(role("admin"), { operation, modelId: "m", ownerId: "x", actorId: "y" })).toEqual({ allowed: true });
    }
  });
});

describe("decide: update and update:own", () => {
  const own: PermissionSet = { models: { "*": ["update:own"] }, system: [] };
  const full: PermissionSet = { models: { "*": ["update"] }, system: [] };

  it("update:own allows updating an owned entry", () => {
    expect(decide(own, { operation: "update", modelId: "a", ownerId: "per_1", actorId: "per_1" })).toEqual({
      allowed: true,
    });
    expect(decide(own, { operation: "update:own", modelId: "a", ownerId: "per_1", actorId: "per_1" })).toEqual({
      allowed: true,
    });
  });

  it("update:own refuses someone else's entry with not_owner", () => {
    expect(decide(own, { operation: "update", modelId: "a", ownerId: "per_2", actorId: "per_1" })).toMatchObject({
      allowed: false,
      code: "not_owner",
    });
  });

  it("update:own refuses when there is no owner or no actor", () => {
    expect(decide(own, { operation: "update", modelId: "a", ownerId: null, actorId: "per_1" })).toMatchObject({
      code: "not_owner",
    });
    expect(decide(own, { operation: "update", modelId: "a", ownerId: "per_1" })).toMatchObject({ code: "not_owner" });
    expect(decide(own, { operation: "update", modelId: "a" })).toMatchObject({ code: "not_owner" });
  });

  it("update allows any entry regardless of owner", () => {
    expect(decide(full, { operation: "update", modelId: "a", ownerId: "per_2", actorId: "per_1" })).toEqual({
      allowed: true,
    });
    expect(decide(full, { operation: "update:own", modelId: "a", ownerId: null })).toEqual({ allowed: true });
  });

  it("neither held is missing_permission, not not_owner", () => {
    const readOnly: PermissionSet = { models: { "*": ["read"] }, system: [] };
    expect(decide(readOnly, { operation: "update", modelId: "a", ownerId: "p", actorId: "p" })).toMatchObject({
      code: "missing_permission",
    });
  });

  it("update:own on '*' with update on one model: update there, own-only elsewhere", () => {
    const mixed: PermissionSet = { models: { "*": ["update:own"], article: ["update"] }, system: [] };
    expect(decide(mixed, { operation: "update", modelId: "article", ownerId: "x", actorId: "y" })).toEqual({
      allowed: true,
    });
    expect(decide(mixed, { operation: "update", modelId: "news", ownerId: "x", actorId: "y" })).toMatchObject({
      code: "not_owner",
    });
  });

  it("the author role updates only its own entries", () => {
    const author = role("author");
    expect(decide(author, { operation: "update", modelId: "a", ownerId: "me", actorId: "me" })).toEqual({ allowed: true });
    expect(decide(author, { operation: "update", modelId: "a", ownerId: "you", actorId: "me" })).toMatchObject({
      code: "not_owner",
    });
    expect(decide(author, { operation: "delete", modelId: "a", ownerId: "me", actorId: "me" })).toMatchObject({
      code: "missing_permission",
    });
  });
});

describe("decide: language limits", () => {
  const base: PermissionSet = {
    models: { "*": [...ALL_MODEL_OPERATIONS] },
    system: [],
    limits: {
      languages: {
        read: ["en", "de"],
        create: ["en"],
        update: ["de"],
        delete: ["fr"],
        restore: ["en"],
        publish: ["en"],
        unpublish: ["nl"],
      },
    },
  };

  it("maps every operation to its language action", () => {
    expect(LANGUAGE_ACTION_FOR_OPERATION).toEqual({
      read: "read",
      create: "create",
      update: "update",
      "update:own": "update",
      delete: "delete",
      publish: "publish",
      unpublish: "unpublish",
      restore: "restore",
    });
  });

  const cases: [ModelOperation, string, string][] = [
    ["read", "de", "fr"],
    ["create", "en", "de"],
    ["update", "de", "en"],
    ["update:own", "de", "en"],
    ["delete", "fr", "en"],
    ["restore", "en", "de"],
    ["publish", "en", "de"],
    ["unpublish", "nl", "en"],
  ];
  for (const [operation, allowedLang, deniedLang] of cases) {
    it(`${operation}: allows ${allowedLang}, refuses ${deniedLang} with locale_denied`, () => {
      const q: AccessQuestion = { operation, modelId: "m", ownerId: "p", actorId: "p" };
      expect(decide(base, { ...q, lang: allowedLang })).toEqual({ allowed: true });
      const answer = decide(base, { ...q, lang: deniedLang });
      expect(answer).toMatchObject({ allowed: false, code: "locale_denied", lang: deniedLang });
      if (!answer.allowed) expect(answer.message).toContain(deniedLang);
    });
  }

  it("an action without a limit is unlimited", () => {
    const set: PermissionSet = { models: { "*": ["read", "create"] }, system: [], limits: { languages: { read: ["en"] } } };
    expect(decide(set, { operation: "create", modelId: "m", lang: "ja" })).toEqual({ allowed: true });
    expect(decide(set, { operation: "read", modelId: "m", lang: "ja" })).toMatchObject({ code: "locale_denied" });
  });

  it("no lang in the question means no language check", () => {
    expect(decide(base, { operation: "read", modelId: "m" })).toEqual({ allowed: true });
  });

  it("an empty list allows no language", () => {
    const set: PermissionSet = { models: { "*": ["read"] }, system: [], limits: { languages: { read: [] } } };
    expect(decide(set, { operation: "read", modelId: "m", lang: "en" })).toMatchObject({ code: "locale_denied" });
  });

  it("readableLanguages filters by the read limit, keeping order", () => {
    expect(readableLanguages(base, ["fr", "de", "en"])).toEqual(["de", "en"]);
    expect(readableLanguages(role("viewer"), ["fr", "de"])).toEqual(["fr", "de"]);
  });
});

describe("decide: field limits", () => {
  const set: PermissionSet = {
    models: { "*": ["read", "create", "update", "publish"] },
    system: [],
    limits: {
      fields: {
        "*": { read: ["title", "body"], write: ["title"] },
        product: { read: ["title", "price"] },
      },
    },
  };

  it("read uses the read list of '*' for a model without its own entry", () => {
    expect(decide(set, { operation: "read", modelId: "article", fieldIds: ["title", "body"] })).toEqual({ allowed: true });
    const answer = decide(set, { operation: "read", modelId: "article", fieldIds: ["title", "price", "secret"] });
    expect(answer).toMatchObject({ allowed: false, code: "field_denied", fields: ["price", "secret"] });
    if (!answer.allowed) expect(answer.message).toContain("price");
  });

  it("write (create/update) uses the write list", () => {
    expect(decide(set, { operation: "create", modelId: "article", fieldIds: ["title"] })).toEqual({ allowed: true });
    expect(decide(set, { operation: "update", modelId: "article", fieldIds: ["title", "body", "body"] })).toMatchObject({
      code: "field_denied",
      fields: ["body"],
    });
  });

  it("a model's own entry overrides '*' entirely", () => {
    expect(decide(set, { operation: "read", modelId: "product", fieldIds: ["price"] })).toEqual({ allowed: true });
    expect(decide(set, { operation: "read", modelId: "product", fieldIds: ["body"] })).toMatchObject({
      code: "field_denied",
      fields: ["body"],
    });
    // product's entry has no write list: writing is unlimited there, although "*" limits it.
    expect(decide(set, { operation: "update", modelId: "product", fieldIds: ["secret"] })).toEqual({ allowed: true });
  });

  it("access overrides the default read/write choice", () => {
    expect(decide(set, { operation: "publish", modelId: "article", fieldIds: ["body"] })).toMatchObject({
      code: "field_denied",
    });
    expect(decide(set, { operation: "publish", modelId: "article", fieldIds: ["body"], access: "read" })).toEqual({
      allowed: true,
    });
    expect(decide(set, { operation: "read", modelId: "article", fieldIds: ["body"], access: "write" })).toMatchObject({
      code: "field_denied",
    });
  });

  it("no field limits, or no fields in the question, means no field check", () => {
    expect(decide(role("editor"), { operation: "update", modelId: "a", fieldIds: ["anything"] })).toEqual({
      allowed: true,
    });
    expect(decide(set, { operation: "update", modelId: "article", fieldIds: [] })).toEqual({ allowed: true });
    expect(decide(set, { operation: "update", modelId: "article" })).toEqual({ allowed: true });
  });

  it("readableFieldIds / writableFieldIds keep the model's field order", () => {
    expect(readableFieldIds(set, "article", FIELDS)).toEqual(["title", "body"]);
    expect(writableFieldIds(set, "article", FIELDS)).toEqual(["title"]);
    expect(readableFieldIds(set, "product", FIELDS)).toEqual(["title", "price"]);
    expect(writableFieldIds(set, "product", FIELDS)).toEqual(FIELDS);
    expect(readableFieldIds(role("viewer"), "article", FIELDS)).toEqual(FIELDS);
  });
});

describe("decide: check order", () => {
  const set: PermissionSet = {
    models: { "*": ["update:own", "read"] },
    system: [],
    limits: { languages: { update: ["en"], read: ["en"] }, fields: { "*": { write: ["title"], read: ["title"] } } },
  };
  const everythingWrong = { modelId: "m", ownerId: "x", actorId: "y", lang: "de", fieldIds: ["secret"] };

  it("missing_permission before everything", () => {
    expect(decide(set, { ...everythingWrong, operation: "delete" })).toMatchObject({ code: "missing_permission" });
  });
  it("then not_owner", () => {
    expect(decide(set, { ...everythingWrong, operation: "update" })).toMatchObject({ code: "not_owner" });
  });
  it("then locale_denied", () => {
    expect(decide(set, { ...everythingWrong, operation: "update", actorId: "x" })).toMatchObject({
      code: "locale_denied",
      lang: "de",
    });
  });
  it("then field_denied", () => {
    expect(decide(set, { ...everythingWrong, operation: "update", actorId: "x", lang: "en" })).toMatchObject({
      code: "field_denied",
      fields: ["secret"],
    });
  });
  it("and allowed when all pass", () => {
    expect(
      decide(set, { ...everythingWrong, operation: "update", actorId: "x", lang: "en", fieldIds: ["title"] }),
    ).toEqual({ allowed: true });
  });
});

describe("hasSystemPermission", () => {
  it("is true only for held permissions", () => {
    expect(hasSystemPermission(role("editor"), "media:upload")).toBe(true);
    expect(hasSystemPermission(role("editor"), "role:manage")).toBe(false);
    for (const permission of ALL_SYSTEM_PERMISSIONS) expect(hasSystemPermission(role("admin"), permission)).toBe(true);
  });
});

/** Every question over some models, operations, languages and fields, for "never wider" checks. */
function* questions(): Generator<AccessQuestion> {
  for (const modelId of ["article", "product", "news"]) {
    for (const operation of ALL_MODEL_OPERATIONS) {
      for (const lang of ["en", "de", "fr"]) {
        for (const owned of [true, false]) {
          for (const fieldIds of [["title"], ["body"], ["price"], ["secret"]]) {
            yield { operation, modelId, lang, fieldIds, ownerId: "p1", actorId: owned ? "p1" : "p2" };
            yield { operation, modelId, lang, fieldIds, ownerId: "p1", actorId: owned ? "p1" : "p2", access: "read" };
          }
        }
      }
    }
  }
}

describe("intersectPermissionSets", () => {
  const a: PermissionSet = {
    models: { "*": ["read", "update"], article: ["create", "publish"], product: ["delete"] },
    system: ["media:upload", "data:export", "role:manage"],
    limits: {
      fields: { "*": { read: ["title", "body", "price"] }, article: { write: ["title", "body"] } },
      languages: { read: ["en", "de"], publish: ["en"] },
    },
  };
  const b: PermissionSet = {
    models: { article: ["read", "create", "update:own", "delete"], news: ["read", "publish"] },
    system: ["media:upload", "data:export", "site:infra"],
    limits: {
      fields: { "*": { write: ["title", "price"] }, product: { read: ["price", "secret"] } },
      languages: { read: ["de", "fr"], update: ["de"] },
    },
  };
  const r = intersectPermissionSets(a, b);

  it("is a valid permission set", () => {
    expect(describePermissionProblems(r)).toEqual([]);
  });

  it("intersects model operations per model id, applying '*' to ids named on the other side", () => {
    expect(r.models).toEqual({
      article: ["read", "create", "update:own"],
      news: ["read"],
    });
    expect(r.models["*"]).toBeUndefined();
  });

  it("keeps '*' only when both sides have it", () => {
    const both = intersectPermissionSets(
      { models: { "*": ["read", "create"] }, system: [] },
      { models: { "*": ["read", "delete"], article: ["create"] }, system: [] },
    );
    expect(both.models).toEqual({ "*": ["read"], article: ["create"] });
    expect(modelOperations(both, "article")).toEqual(["read", "create"]);
  });

  it("update against update:own gives update:own", () => {
    const res = intersectPermissionSets(role("editor"), role("author"));
    expect(res.models).toEqual({ "*": ["read", "create", "update:own"] });
    expect(res.system).toEqual(["media:upload"]);
  });

  it("intersects system permissions", () => {
    expect(r.system).toEqual(["media:upload", "data:export"]);
  });

  it("combines language limits so that neither side is widened", () => {
    expect(r.limits?.languages).toEqual({ read: ["de"], update: ["de"], publish: ["en"] });
  });

  it("combines field limits per model as each side resolves them", () => {
    expect(r.limits?.fields).toEqual({
      "*": { read: ["title", "body", "price"], write: ["title", "price"] },
      // a's own article entry leaves read unlimited there; b's product entry leaves write unlimited.
      article: { write: ["title"] },
      product: { read: ["price"] },
    });
  });

  it("with itself is itself", () => {
    for (const seeded of SEEDED_ROLES) {
      expect(intersectPermissionSets(seeded.permissions, seeded.permissions)).toEqual(seeded.permissions);
    }
    expect(intersectPermissionSets(a, a)).toEqual(a);
  });

  it("is within both sides", () => {
    expect(isWithin(r, a)).toEqual({ within: true, reasons: [] });
    expect(isWithin(r, b)).toEqual({ within: true, reasons: [] });
  });

  it("never allows what either side refuses (exhaustively over questions)", () => {
    const pairs: [PermissionSet, PermissionSet][] = [
      [a, b],
      [b, a],
      [role("admin"), b],
      [role("author"), a],
      [role("editor"), role("author")],
    ];
    for (const [x, y] of pairs) {
      const both = intersectPermissionSets(x, y);
      for (const q of questions()) {
        const answer = decide(both, q);
        const expected = decide(x, q).allowed && decide(y, q).allowed;
        expect({ q, allowed: answer.allowed }).toEqual({ q, allowed: expected });
      }
    }
  });

  it("with admin is the other side's grants", () => {
    const res = intersectPermissionSets(role("admin"), role("author"));
    expect(res).toEqual(role("author"));
  });
});

describe("isWithin", () => {
  it("holds for a narrower set", () => {
    const outer: PermissionSet = { models: { "*": ["read", "update"] }, system: ["media:upload"] };
    const inner: PermissionSet = { models: { article: ["read", "update:own"] }, system: [] };
    expect(isWithin(inner, outer)).toEqual({ within: true, reasons: [] });
  });

  it("names each model operation not held", () => {
    const outer: PermissionSet = { models: { article: ["read"], "*": ["create"] }, system: [] };
    const inner: PermissionSet = { models: { article: ["read", "publish"], "*": ["create", "read"] }, system: [] };
    expect(isWithin(inner, outer)).toEqual({
      within: false,
      reasons: [
        'operation "publish" on model "article" is not held',
        'operation "read" on every model ("*") is not held',
      ],
    });
  });

  it("update is not within update:own", () => {
    expect(isWithin(role("editor"), role("author")).reasons).toEqual(
      expect.arrayContaining(['operation "update" on every model ("*") is not held']),
    );
  });

  it("names each system permission not held", () => {
    expect(isWithin(role("editor"), role("viewer")).reasons).toEqual(
      expect.arrayContaining([
        'system permission "media:upload" is not held',
        'system permission "data:export" is not held',
      ]),
    );
  });

  it("names loosened field and language limits", () => {
    const outer: PermissionSet = {
      models: { "*": ["read"] },
      system: [],
      limits: {
        fields: { "*": { read: ["title"] }, article: { read: ["title", "body"], write: ["body"] } },
        languages: { read: ["en"], publish: ["en"] },
      },
    };
    const inner: PermissionSet = {
      models: { "*": ["read"] },
      system: [],
      limits: {
        fields: { "*": { read: ["title", "secret"] }, article: { read: ["body"] } },
        languages: { read: ["en", "de"] },
      },
    };
    expect(isWithin(inner, outer)).toEqual({
      within: false,
      reasons: [
        'field limit loosened: read of "secret" on every model ("*") is not held',
        'field limit loosened: write on model "article" is unlimited but limited to ["body"]',
        'language limit loosened: "read" in "de" is not held',
        'language limit loosened: "publish" is unlimited but limited to ["en"]',
      ],
    });
  });

  it("the seeded roles are within admin and admin is within nothing smaller", () => {
    for (const seeded of SEEDED_ROLES) expect(isWithin(seeded.permissions, role("admin")).within).toBe(true);
    const reasons = isWithin(role("admin"), role("viewer")).reasons;
    expect(reasons).toHaveLength(ALL_MODEL_OPERATIONS.length - 1 + ALL_SYSTEM_PERMISSIONS.length);
  });
});
