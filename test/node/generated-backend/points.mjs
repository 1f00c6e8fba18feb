/**
 * Point queries of the generated backend (spec 3 "Point queries", issue #25 item 5), run by
 * test/node/generated-backend.test.mjs on both runtimes. A `place` model built in the CMS for the
 * edge cases (a public `spot`, a private `secret_spot`); rows at real coordinates created through
 * the backend: both sides of the antimeridian near Fiji, both sides of the North Pole, four points
 * at exactly equal distance from (0, 0), Greenwich, and a row without a point.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { it } from "node:test";
import { pathToFileURL } from "node:url";
import { createModel } from "./cms.mjs";

/** The CMS side: the edge-case model (before generation). */
export async function seedPoints(manage) {
  await createModel(manage, { name: "Place", slug: "place", is_public: true }, [
    { key: "title", label: "Title", type: "text", required: true, title: true },
    { key: "spot", label: "Spot", type: "location" },
    { key: "secret_spot", label: "Secret spot", type: "location", private: true },
  ]);
}

const PLACES = [
  ["pt-fiji-east", -17, 179.9],
  ["pt-fiji-west", -17, -179.9],
  ["pt-greenwich", 51.4769, 0],
  ["pt-pole-a", 89.9, 0],
  ["pt-pole-b", 89.9, 180],
  ["pt-e", 0, 1],
  ["pt-n", 1, 0],
  ["pt-s", -1, 0],
  ["pt-w", 0, -1],
  ["pt-none", null, null],
];

const R = 6_371_008.8;
const rad = (deg) => (deg * Math.PI) / 180;
/** Haversine in metres, the formula the backend runs in SQL. */
function haversine(lat1, lon1, lat2, lon2) {
  const a = Math.sin((rad(lat2) - rad(lat1)) / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin((rad(lon2) - rad(lon1)) / 2) ** 2;
  return 2 * R * Math.asin(Math.sqrt(Math.min(1, a)));
}

/**
 * The contract tests, registered inside a runtime's describe. `project()` (given on one run only):
 * the emitted project, whose built router is run over a database without math functions.
 */
export function pointTests({ call, token, project }) {
  const list = (params, options = {}) =>
    call("GET", `/api/place${options.paginated ? "/paginated" : ""}?` + Object.entries(params).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&"), options.anonymous ? {} : { token });
  const ids = (answer) => {
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return (Array.isArray(answer.body) ? answer.body : answer.body.data).map((row) => row.id);
  };

  it("point queries: rows at real coordinates", async () => {
    for (const [id, lat, lon] of PLACES) {
      const create = () => call("POST", "/api/place", { token, body: { data: { id, title: id, spot_lat: lat, spot_lon: lon, ...(id === "pt-greenwich" ? { secret_spot_lat: 0, secret_spot_lon: 0 } : {}) } } });
      // A keep-alive connection the server closed while idle (the test before may run long) fails the
      // request before it is sent: try once more; a create that did land answers 409 then.
      const created = await create().catch(create);
      assert.ok(created.status === 201 || created.status === 409, JSON.stringify(created.body));
    }
    const stored = await call("GET", "/api/place" + `?where=${encodeURIComponent(JSON.stringify({ id: { startsWith: "pt-" } }))}`, { token });
    assert.equal(stored.body.length, PLACES.length);
  });

  it("within_bbox: inclusive bounds, and west > east crosses the antimeridian", async () => {
    assert.deepEqual(ids(await list({ "filter[spot][within_bbox]": "-18,179,-16,-179" })), ["pt-fiji-east", "pt-fiji-west"]);
    assert.deepEqual(ids(await list({ "filter[spot][within_bbox]": "-18,-179.95,-16,-179" })), ["pt-fiji-west"]);
    // A box that is one point: the bounds are inclusive.
    assert.deepEqual(ids(await list({ "filter[spot][within_bbox]": "0,1,0,1" })), ["pt-e"]);
    assert.deepEqual(ids(await list({ "filter[spot][within_bbox]": "89,-180,90,180" })), ["pt-pole-a", "pt-pole-b"]);
  });

  it("within_radius: Haversine metres across the pole and the antimeridian", async () => {
    // 0.1° of latitude from the pole is 11 119.5 m: both sides of it are inside 11.2 km, neither inside 11.1 km.
    assert.ok(Math.abs(haversine(90, 0, 89.9, 180) - 11119.5) < 1);
    assert.deepEqual(ids(await list({ "filter[spot][within_radius]": "90,0,11200" })), ["pt-pole-a", "pt-pole-b"]);
    assert.deepEqual(ids(await list({ "filter[spot][within_radius]": "90,0,11100" })), []);
    const across = haversine(-17, 180, -17, -179.9);
    assert.deepEqual(ids(await list({ "filter[spot][within_radius]": `-17,180,${Math.ceil(across)}` })), ["pt-fiji-east", "pt-fiji-west"]);
    assert.deepEqual(ids(await list({ "filter[spot][within_radius]": `-17,180,${Math.floor(across)}` })), []);
    // Combined with where: both predicates hold.
    assert.deepEqual(ids(await list({ "filter[spot][within_radius]": "0,0,200000", where: JSON.stringify({ id: { not: "pt-n" } }) })), ["pt-e", "pt-s", "pt-w"]);
  });

  it("sort by distance: nearest first, equal distances by id, missing points last; -field reverses", async () => {
    const withPoint = PLACES.filter(([, lat]) => lat !== null);
    const expected = [...withPoint].sort((a, b) => haversine(0, 0, a[1], a[2]) - haversine(0, 0, b[1], b[2]) || (a[0] < b[0] ? -1 : 1)).map(([id]) => id);
    assert.deepEqual(expected.slice(0, 4), ["pt-e", "pt-n", "pt-s", "pt-w"], "four exactly equal distances");
    assert.deepEqual(ids(await list({ sort: "spot", origin: "0,0" })), [...expected, "pt-none"]);
    const farthest = [...withPoint].sort((a, b) => haversine(0, 0, b[1], b[2]) - haversine(0, 0, a[1], a[2]) || (a[0] < b[0] ? -1 : 1)).map(([id]) => id);
    assert.deepEqual(ids(await list({ sort: "-spot", origin: "0,0" })), [...farthest, "pt-none"]);
  });

  it("paginated: filtering and ordering before the page, the total with the same predicates", async () => {
    const page = await list({ "filter[spot][within_radius]": "0,0,120000", sort: "spot", origin: "0,0", take: "2", skip: "1" }, { paginated: true });
    assert.deepEqual(ids(page), ["pt-n", "pt-s"]);
    assert.equal(page.body.total, 4);
    assert.equal(page.body.hasMore, true);
  });

  it("spatial_query_invalid, spatial_field_denied, and the OpenAPI parameters", async () => {
    for (const params of [
      { sort: "spot", origin: "0,0", orderBy: JSON.stringify({ id: "asc" }) },
      { sort: "spot" },
      { origin: "0,0" },
      { sort: "title", origin: "0,0" },
      { "filter[spot][within_radius]": "91,0,10" },
      { "filter[spot][within_radius]": "0,0,-1" },
      { "filter[spot][within_radius]": "0,0" },
      { "filter[spot][within_radius]": "0,abc,5" },
      { "filter[spot][within_bbox]": "10,0,-10,5" },
      { "filter[spot][within_bbox]": "0,0,1,181" },
      { "filter[spot][near]": "0,0,5" },
      { "filter[title][within_bbox]": "0,0,1,1" },
    ]) {
      const refused = await list(params);
      assert.equal(refused.status, 400, JSON.stringify(params));
      assert.equal(refused.body.error.code, "spatial_query_invalid", JSON.stringify(params));
    }
    // A private point field is unavailable to an anonymous reader: its values would leak through a radius.
    for (const params of [{ "filter[secret_spot][within_radius]": "0,0,10" }, { sort: "secret_spot", origin: "0,0" }]) {
      const denied = await list(params, { anonymous: true });
      assert.equal(denied.status, 403, JSON.stringify(params));
      assert.equal(denied.body.error.code, "spatial_field_denied");
    }
    assert.deepEqual(ids(await list({ "filter[secret_spot][within_radius]": "0,0,10" })), ["pt-greenwich"]);
    assert.deepEqual(ids(await list({ "filter[spot][within_bbox]": "0,1,0,1" }, { anonymous: true })), ["pt-e"]);
    // Point parameters belong to the list routes only.
    const unique = await call("GET", `/api/place/unique?where=${encodeURIComponent(JSON.stringify({ id: "pt-e" }))}&sort=spot`, { token });
    assert.equal(unique.status, 400);
    const openapi = await call("GET", "/api/openapi.json", { token });
    const names = openapi.body.paths["/api/place/paginated"].get.parameters.map((p) => p.name);
    assert.ok(names.includes("filter[spot][within_radius]") && names.includes("filter[secret_spot][within_bbox]") && names.includes("origin"), names.join());
  });

  if (project !== undefined) it("501 spatial_adapter_required where the database cannot compute distances; a bounding box still runs", async () => {
    const root = project();
    const load = (file) => import(pathToFileURL(path.join(root, file)).href);
    const { Kysely, DummyDriver, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } = await load("node_modules/kysely/dist/esm/index.js");
    const { handle } = await load("dist/src/runtime/router.js");
    const { SCHEMA } = await load("dist/src/schema.js");
    // A driver that runs nothing: the runtime's probe finds no distance functions.
    const db = new Kysely({ dialect: { createAdapter: () => new SqliteAdapter(), createDriver: () => new DummyDriver(), createIntrospector: (k) => new SqliteIntrospector(k), createQueryCompiler: () => new SqliteQueryCompiler() } });
    const backend = { db, schema: SCHEMA, operations: { place: { findMany: { access: "anonymous" } } }, access: { version: 1, site: SCHEMA.site.id, tokens: [] }, serviceToken: undefined };
    for (const query of ["filter%5Bspot%5D%5Bwithin_radius%5D=0,0,5", "sort=spot&origin=0,0"]) {
      const answer = await handle(new Request(`http://backend.test/api/place?${query}`), backend);
      assert.equal(answer.status, 501, query);
      assert.equal((await answer.json()).error.code, "spatial_adapter_required");
    }
    const box = await handle(new Request("http://backend.test/api/place?filter%5Bspot%5D%5Bwithin_bbox%5D=0,0,1,1"), backend);
    assert.equal(box.status, 200);
  });
}
