/**
 * Translation tables of the generated backend (spec 3 "Rules of locale rows", issue #25 item 3),
 * run by test/node/generated-backend.test.mjs on both runtimes: the demo's i18n models (`article`
 * with en + fr published, `category`), their `<model>translation` routes, every locale rule, and
 * the inheritance of `<Model>.update` / `<Model>.delete` (the harness disables `Article.delete`);
 * and a per-language list (`tour.stops`, `localized_membership`) through the relation routes
 * (`locale` on GET/PUT, language → ids in with-relations).
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { createModel } from "./cms.mjs";

/** What the seed made: the tour's group id and the targets' group ids in the order given. */
export const tour = { group: "", targets: [] };

/**
 * The CMS side (before generation): a translated `tour` whose `stops` list is per language
 * (`localized_membership`), published in English with [A, B] and in French with [B].
 * `targets`: two published entries `{ instance_id, group_id }` of a model the list may hold.
 */
export async function seedLocalizedList(manage, targets, targetModelSlug) {
  const models = (await manage("GET", "/models")).body.data;
  const target = models.find((m) => m.slug === targetModelSlug);
  const model = await createModel(manage, { name: "Tour", slug: "tour", is_public: true, enableI18n: true }, [
    { key: "title", label: "Title", type: "text", required: true, title: true },
    { key: "stops", label: "Stops", type: "relation", relation: "many_to_many", multiple: true, targets: [target.id], localized_membership: true },
  ]);
  const [a, b] = targets;
  const english = await manage("POST", "/entries", { model_id: model.model_id, lang: "en", slug: "tour-one", fields: { title: "Tour", stops: [a.instance_id, b.instance_id] } });
  assert.equal(english.status, 201, JSON.stringify(english.body));
  assert.equal((await manage("POST", `/entries/${english.body.instance_id}/publish`, {})).status, 200);
  const french = await manage("POST", `/entries/${english.body.instance_id}/languages`, { lang: "fr", slug: "visite-une", fields: { title: "Visite", stops: [b.instance_id] } });
  assert.equal(french.status, 201, JSON.stringify(french.body));
  const published = await manage("POST", `/entries/${french.body.instance_id}/publish`, {});
  assert.equal(published.status, 200, JSON.stringify(published.body));
  tour.group = english.body.translation_group_id;
  tour.targets = [a.group_id, b.group_id];
}

/** `dataRows(table)`: the emitted project's `data/<table>.json`. */
export function translationTests({ call, token, dataRows }) {
  const q = (args) => "?" + Object.entries(args).map(([k, v]) => `${k}=${encodeURIComponent(JSON.stringify(v))}`).join("&");

  it("localized membership: each language keeps its own ordered list; join rows carry the locale", async () => {
    const rows = dataRows("tour_stops").filter((row) => row.owner_id === tour.group);
    const [a, b] = tour.targets;
    assert.deepEqual(
      rows.map((row) => [row.lang, row.target_id, row.position]).sort(),
      [["en", a, 0], ["en", b, 1], ["fr", b, 0]].sort(),
    );
    const french = await call("GET", "/api/tourtranslation" + q({ where: { tour_id: tour.group } }), { token });
    assert.deepEqual(french.body.map((row) => [row.lang, row.title]), [["fr", "Visite"]]);
    assert.equal("stops" in french.body[0], false, "a list is no column: it lives in the join table");
  });

  it("per-language lists: GET and PUT relations name the language; each language's list is written and checked on its own", async () => {
    const [a, b] = tour.targets;
    const stops = (...ids) => ids.map((id) => ({ model: "dossier", id }));
    const get = (locale, id = tour.group) => call("GET", `/api/tour/relations/stops?id=${encodeURIComponent(id)}${locale ? `&locale=${locale}` : ""}`, { token });
    const put = (body) => call("PUT", "/api/tour/relations/stops", { token, body: { where: { id: tour.group }, ...body } });
    const refusedWith = (answer, status, code) => {
      assert.equal(answer.status, status, JSON.stringify(answer.body));
      assert.equal(answer.body.error.code, code, JSON.stringify(answer.body));
      return answer.body.error;
    };
    assert.deepEqual((await get("en")).body, stops(a, b));
    assert.deepEqual((await get("fr")).body, stops(b));
    assert.equal(refusedWith(await get(undefined), 400, "invalid_request").path, "locale");
    refusedWith(await get("de"), 422, "unknown_locale");
    // A write names one language and changes that language's list only.
    assert.deepEqual((await put({ locale: "fr", connect: [a] })).body, stops(b, a));
    assert.deepEqual((await get("en")).body, stops(a, b));
    assert.deepEqual((await put({ locale: "en", disconnect: [b] })).body, stops(a));
    assert.deepEqual((await get("fr")).body, stops(b, a), "the same target in two languages is no duplicate");
    // Every rule is checked on the named language's resulting list; a refusal writes nothing.
    assert.deepEqual(refusedWith(await put({ locale: "fr", set: [a, a] }), 422, "relation_duplicate_target").targets, [a]);
    assert.deepEqual(refusedWith(await put({ locale: "fr", set: [a, "no-such-dossier"] }), 422, "relation_target_missing").targets, ["no-such-dossier"]);
    assert.equal(refusedWith(await put({ set: [a] }), 400, "invalid_request").path, "locale");
    refusedWith(await put({ locale: "de", set: [a] }), 422, "unknown_locale");
    assert.deepEqual((await get("fr")).body, stops(b, a));
    // Join rows carry the locale, each language in its own order.
    const rows = await call("GET", "/api/tour_stops" + q({ where: { owner_id: tour.group } }), { token });
    assert.equal(rows.status, 200, JSON.stringify(rows.body));
    assert.deepEqual(rows.body.map((row) => [row.lang, row.target_id, row.position]), [["en", a, 0], ["fr", b, 0], ["fr", a, 1]]);
    // with-relations: a per-language list is language → ids; only the named languages are written.
    const created = await call("POST", "/api/tour/with-relations", { token, body: { data: { title: "Second tour" }, relations: { stops: { en: [b], fr: [a, b] } } } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(created.body.stops, { en: [b], fr: [a, b] });
    assert.deepEqual((await get("fr", created.body.id)).body, stops(a, b));
    assert.deepEqual((await get("en", created.body.id)).body, stops(b));
    assert.deepEqual((await call("GET", "/api/tourtranslation" + q({ where: { tour_id: created.body.id } }), { token })).body, [], "with-relations writes no locale rows");
    refusedWith(await call("POST", "/api/tour/with-relations", { token, body: { data: { title: "x" }, relations: { stops: { de: [a] } } } }), 422, "unknown_locale");
    refusedWith(await call("POST", "/api/tour/with-relations", { token, body: { data: { title: "x" }, relations: { stops: [a] } } }), 400, "invalid_request");
    refusedWith(await call("POST", "/api/tour/with-relations", { token, body: { data: { title: "x" }, relations: { stops: { fr: [b, b] } } } }), 422, "relation_duplicate_target");
    assert.deepEqual((await call("GET", "/api/tour" + q({ where: { title: "x" } }), { token })).body, [], "refused creates wrote nothing");
  });

  it("translations: the generated locale rows are served, one per published non-base language", async () => {
    const generated = dataRows("articletranslation");
    assert.ok(generated.length >= 1, "the demo publishes French articles");
    const french = await call("GET", "/api/articletranslation" + q({ where: { lang: "fr" }, orderBy: { id: "asc" } }), { token });
    assert.equal(french.status, 200, JSON.stringify(french.body));
    assert.deepEqual(french.body.map((row) => row.id), generated.filter((row) => row.lang === "fr").map((row) => row.id).sort());
    const base = await call("GET", "/api/article/unique" + q({ where: { id: french.body[0].article_id } }), { token });
    assert.equal(base.status, 200);
    assert.notEqual(base.body, null, "every locale row has its base row");
    // Reads inherit the model's: Article's reads are anonymous, and private columns stay hidden.
    const anonymous = await call("GET", "/api/articletranslation" + q({ where: { id: french.body[0].id } }));
    assert.equal(anonymous.status, 200);
    assert.equal("seo" in anonymous.body[0], false);
    assert.equal("seo" in french.body[0], true);
  });

  it("translations: create with unknown_locale, translation_row_missing, locale_exists; closed bodies", async () => {
    const base = await call("POST", "/api/article", { token, body: { data: { id: "tr-base", slug: "tr-base", title: "Hello" } } });
    assert.equal(base.status, 201, JSON.stringify(base.body));
    const created = await call("POST", "/api/articletranslation", { token, body: { data: { article_id: "tr-base", lang: "fr", slug: "tr-bonjour", title: "Bonjour", seo: { title: "S", review_note: "privé" } } } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.article_id, "tr-base");
    assert.equal(created.body.lang, "fr");
    assert.equal(created.body.title, "Bonjour");
    assert.equal("seo" in created.body, false, "a write answer omits private fields");
    const again = await call("POST", "/api/articletranslation", { token, body: { data: { article_id: "tr-base", lang: "fr", title: "Encore" } } });
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, "locale_exists");
    const unknown = await call("POST", "/api/articletranslation", { token, body: { data: { article_id: "tr-base", lang: "de", title: "Hallo" } } });
    assert.equal(unknown.status, 422);
    assert.equal(unknown.body.error.code, "unknown_locale");
    const orphan = await call("POST", "/api/articletranslation", { token, body: { data: { article_id: "tr-none", lang: "fr", title: "Personne" } } });
    assert.equal(orphan.status, 422);
    assert.equal(orphan.body.error.code, "translation_row_missing");
    for (const data of [{ article_id: "tr-base", lang: "fr", id: "mine" }, { article_id: "tr-base", lang: "fr", author_id: "x" }, { lang: "fr", title: "x" }]) {
      const refused = await call("POST", "/api/articletranslation", { token, body: { data } });
      assert.equal(refused.status, 400, JSON.stringify(data));
      assert.equal(refused.body.error.code, "invalid_request");
    }
    const stored = await call("GET", "/api/articletranslation" + q({ where: { article_id: "tr-base" } }), { token });
    assert.deepEqual(stored.body.map((row) => [row.lang, row.title]), [["fr", "Bonjour"]], "refusals wrote nothing");
  });

  it("translations: updates change translated values only, by id or by base id and language", async () => {
    const byPair = await call("PUT", "/api/articletranslation", { token, body: { where: { article_id_lang: { article_id: "tr-base", lang: "fr" } }, data: { title: "Salut" } } });
    assert.equal(byPair.status, 200, JSON.stringify(byPair.body));
    assert.equal(byPair.body.title, "Salut");
    const byId = await call("PUT", "/api/articletranslation", { token, body: { where: { id: byPair.body.id }, data: { summary: "Résumé" } } });
    assert.equal(byId.body.summary, "Résumé");
    assert.equal(byId.body.title, "Salut");
    for (const data of [{ lang: "en" }, { article_id: "tr-base" }]) {
      const refused = await call("PUT", "/api/articletranslation", { token, body: { where: { id: byPair.body.id }, data } });
      assert.equal(refused.status, 400, JSON.stringify(data));
    }
    const missing = await call("PUT", "/api/articletranslation", { token, body: { where: { article_id_lang: { article_id: "tr-base", lang: "en" } }, data: { title: "x" } } });
    assert.equal(missing.status, 404);
  });

  it("translations: writes inherit <Model>.update, deletes <Model>.delete; a deleted base row takes its locale rows", async () => {
    assert.equal((await call("POST", "/api/articletranslation", { body: { data: { article_id: "tr-base", lang: "fr", title: "x" } } })).status, 401);
    // Article.delete is disabled: so is deleting its locale rows (the path stays for GET, POST, PUT).
    const disabled = await call("DELETE", "/api/articletranslation", { token, body: { where: { article_id_lang: { article_id: "tr-base", lang: "fr" } } } });
    assert.equal(disabled.status, 405);
    assert.equal(disabled.headers.get("allow"), "GET, POST, PUT");
    const category = await call("POST", "/api/category", { token, body: { data: { id: "tr-cat", title: "Travel" } } });
    assert.equal(category.status, 201, JSON.stringify(category.body));
    // Locale rows never carry the parent link.
    const withParent = await call("POST", "/api/categorytranslation", { token, body: { data: { category_id: "tr-cat", lang: "fr", title: "Voyage", parent_id: null } } });
    assert.equal(withParent.status, 400);
    const french = await call("POST", "/api/categorytranslation", { token, body: { data: { category_id: "tr-cat", lang: "fr", title: "Voyage" } } });
    assert.equal(french.status, 201, JSON.stringify(french.body));
    const removed = await call("DELETE", "/api/categorytranslation", { token, body: { where: { id: french.body.id } } });
    assert.equal(removed.status, 200);
    assert.equal(removed.body.title, "Voyage");
    assert.equal((await call("GET", "/api/categorytranslation/unique" + q({ where: { id: french.body.id } }), { token })).body, null);
    const again = await call("POST", "/api/categorytranslation", { token, body: { data: { category_id: "tr-cat", lang: "fr", title: "Voyages" } } });
    assert.equal(again.status, 201);
    assert.equal((await call("DELETE", "/api/category", { token, body: { where: { id: "tr-cat" } } })).status, 200);
    assert.deepEqual((await call("GET", "/api/categorytranslation" + q({ where: { category_id: "tr-cat" } }), { token })).body, []);
    const openapi = await call("GET", "/api/openapi.json", { token });
    assert.equal(openapi.body.paths["/api/articletranslation"].post.operationId, "ArticleTranslation.create");
    assert.equal(openapi.body.paths["/api/articletranslation"].delete, undefined);
    assert.equal(openapi.body.paths["/api/categorytranslation"].delete.operationId, "CategoryTranslation.delete");
    assert.deepEqual(openapi.body.paths["/api/articletranslation"].post.requestBody.content["application/json"].schema.properties.data.required.slice(0, 2), ["article_id", "lang"]);
  });
}
