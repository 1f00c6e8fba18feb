/**
 * Point queries on the list and paginated routes (spec 3 "Point queries", docs/generated-backend.md):
 * `filter[<field>][within_radius]=lat,lon,metres`, `filter[<field>][within_bbox]=south,west,north,east`
 * and `sort=<field>|-<field>&origin=lat,lon`. They become SQL predicates and an SQL order, so
 * filtering and ordering run before pagination and the paginated count uses the same predicates.
 * Distances are Haversine over the mean Earth radius, written with functions both SQLite builds
 * allow (D1 refuses `power()`, so squares are products).
 */
import { sql, type Expression, type ExpressionBuilder, type RawBuilder, type SelectQueryBuilder, type SqlBool } from "kysely";
import { HttpError } from "./errors.js";
import type { AnyDb } from "./rows.js";
import type { ModelSchema } from "./schema-types.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables are known only at run time
type Eb = ExpressionBuilder<any, any>;

/** Mean Earth radius (IUGG), metres. */
export const EARTH_RADIUS_METRES = 6_371_008.8;

export type PointFilter =
  | { field: string; kind: "within_radius"; lat: number; lon: number; metres: number }
  | { field: string; kind: "within_bbox"; south: number; west: number; north: number; east: number };

export interface PointSort {
  field: string;
  direction: "asc" | "desc";
  lat: number;
  lon: number;
}

export interface PointQuery {
  filters: PointFilter[];
  sort: PointSort | undefined;
}

const FILTER_PARAM = /^filter\[([^\]]*)\]\[([^\]]*)\]$/;

/** Whether a query parameter belongs to point queries (the router leaves those to `pointQuery`). */
export const isPointParam = (name: string): boolean => name === "sort" || name === "origin" || name.startsWith("filter[");

const refuse = (message: string, param: string): HttpError => new HttpError(400, "spatial_query_invalid", message, { param });

/** Comma-separated finite numbers, exactly `count` of them. */
function numbers(raw: string, count: number, param: string, shape: string): number[] {
  const parts = raw.split(",");
  const values = parts.map((part) => (/^\s*-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/.test(part) ? Number(part) : Number.NaN));
  if (parts.length !== count || values.some((value) => !Number.isFinite(value))) throw refuse(`${param} must be ${shape}.`, param);
  return values;
}

function latitude(value: number, param: string): number {
  if (value < -90 || value > 90) throw refuse(`${param}: a latitude is from -90 to 90.`, param);
  return value;
}

function longitude(value: number, param: string): number {
  if (value < -180 || value > 180) throw refuse(`${param}: a longitude is from -180 to 180.`, param);
  return value;
}

/**
 * The point field named by a parameter: 400 spatial_query_invalid when the model has no such point
 * field, 403 spatial_field_denied when the caller may not read it (a private field for an anonymous
 * reader: its values must not leak through which rows a radius keeps).
 */
function pointField(model: ModelSchema, field: string, param: string, withPrivate: boolean): string {
  if (!(model.points ?? []).includes(field)) throw refuse(`${param}: "${field}" is not a location field of ${model.api}.`, param);
  const hidden = model.columns.some((column) => (column.name === `${field}_lat` || column.name === `${field}_lon`) && column.private);
  if (hidden && !withPrivate) throw new HttpError(403, "spatial_field_denied", `The location field "${field}" is not available to this caller.`, { field });
  return field;
}

/** The point query of a list request, or undefined when it has none. `orderBy` present: sort is refused. */
export function pointQuery(url: URL, model: ModelSchema, withPrivate: boolean): PointQuery | undefined {
  const filters: PointFilter[] = [];
  let sortParam: string | undefined;
  let originParam: string | undefined;
  for (const name of new Set(url.searchParams.keys())) {
    if (!isPointParam(name)) continue;
    const values = url.searchParams.getAll(name);
    if (values.length > 1) throw refuse(`${name} is given more than once.`, name);
    const raw = values[0] ?? "";
    if (name === "sort") sortParam = raw;
    else if (name === "origin") originParam = raw;
    else {
      const match = FILTER_PARAM.exec(name);
      if (!match) throw refuse(`${name}: write filter[<location field>][within_radius|within_bbox].`, name);
      const field = pointField(model, match[1] ?? "", name, withPrivate);
      if (match[2] === "within_radius") {
        const [lat, lon, metres] = numbers(raw, 3, name, "lat,lon,metres");
        if ((metres as number) < 0) throw refuse(`${name}: the radius is metres from 0.`, name);
        filters.push({ field, kind: "within_radius", lat: latitude(lat as number, name), lon: longitude(lon as number, name), metres: metres as number });
      } else if (match[2] === "within_bbox") {
        const [south, west, north, east] = numbers(raw, 4, name, "south,west,north,east");
        latitude(south as number, name);
        latitude(north as number, name);
        longitude(west as number, name);
        longitude(east as number, name);
        if ((south as number) > (north as number)) throw refuse(`${name}: south is above north.`, name);
        filters.push({ field, kind: "within_bbox", south: south as number, west: west as number, north: north as number, east: east as number });
      } else throw refuse(`${name}: the operators are within_radius and within_bbox.`, name);
    }
  }
  let sort: PointSort | undefined;
  if (sortParam !== undefined) {
    if (url.searchParams.has("orderBy")) throw refuse("sort cannot be combined with orderBy.", "sort");
    const descending = sortParam.startsWith("-");
    const field = pointField(model, descending ? sortParam.slice(1) : sortParam, "sort", withPrivate);
    if (originParam === undefined) throw refuse("sort by a location needs origin=lat,lon.", "origin");
    const [lat, lon] = numbers(originParam, 2, "origin", "lat,lon");
    sort = { field, direction: descending ? "desc" : "asc", lat: latitude(lat as number, "origin"), lon: longitude(lon as number, "origin") };
  } else if (originParam !== undefined) throw refuse("origin is only used with sort=<location field>.", "origin");
  return filters.length === 0 && sort === undefined ? undefined : { filters, sort };
}

/** Haversine distance in metres from a bound point to the row's point; NULL when the row has none. */
export function distanceSql(rowLat: RawBuilder<unknown>, rowLon: RawBuilder<unknown>, lat: number, lon: number): RawBuilder<number | null> {
  const halfLat = sql`sin((radians(${rowLat}) - radians(${lat})) / 2)`;
  const halfLon = sql`sin((radians(${rowLon}) - radians(${lon})) / 2)`;
  const a = sql`${halfLat} * ${halfLat} + cos(radians(${lat})) * cos(radians(${rowLat})) * ${halfLon} * ${halfLon}`;
  // min(1, …): rounding can push `a` a hair above 1 for antipodal points, where asin is undefined.
  return sql<number | null>`(2 * ${EARTH_RADIUS_METRES} * asin(sqrt(min(1, ${a}))))`;
}

/** The filters as one predicate (inclusive bounds; west > east crosses the antimeridian). */
export function pointWhere(eb: Eb, filters: readonly PointFilter[]): Expression<SqlBool> {
  return eb.and(
    filters.map((filter) => {
      const lat = eb.ref(`${filter.field}_lat`);
      const lon = eb.ref(`${filter.field}_lon`);
      if (filter.kind === "within_radius") return sql<SqlBool>`${distanceSql(sql.ref(`${filter.field}_lat`), sql.ref(`${filter.field}_lon`), filter.lat, filter.lon)} <= ${filter.metres}`;
      const longitudes = filter.west <= filter.east ? eb.and([eb(lon, ">=", filter.west), eb(lon, "<=", filter.east)]) : eb.or([eb(lon, ">=", filter.west), eb(lon, "<=", filter.east)]);
      return eb.and([eb(lat, ">=", filter.south), eb(lat, "<=", filter.north), longitudes]);
    }),
  );
}

/** ORDER BY terms of a point sort: rows without a point last, nearest (or farthest) first, then id. */
export function pointOrder(sort: PointSort): RawBuilder<unknown>[] {
  const lat = sql.ref(`${sort.field}_lat`);
  const lon = sql.ref(`${sort.field}_lon`);
  const distance = distanceSql(lat, lon, sort.lat, sort.lon);
  return [sql`(${lat} is null or ${lon} is null) asc`, sort.direction === "asc" ? sql`${distance} asc` : sql`${distance} desc`, sql`${sql.ref("id")} asc`];
}

const probed = new WeakMap<AnyDb, boolean>();

/**
 * 501 spatial_adapter_required when the database cannot compute distances (an SQLite built without
 * its math functions, or a driver that answers nothing): probed once per database handle.
 */
export async function requireSpatialAdapter(db: AnyDb, query: PointQuery): Promise<void> {
  const needsMath = query.sort !== undefined || query.filters.some((filter) => filter.kind === "within_radius");
  if (!needsMath) return;
  let ok = probed.get(db);
  if (ok === undefined) {
    try {
      const row = (await sql<{ v: number }>`select asin(sqrt(min(1, sin(radians(30)) * cos(0)))) as v`.execute(db)).rows[0];
      ok = typeof row?.v === "number" && Math.abs(row.v - Math.PI / 4) < 1e-9;
    } catch {
      ok = false;
    }
    probed.set(db, ok);
  }
  if (!ok) throw new HttpError(501, "spatial_adapter_required", "This runtime's database cannot compute distances (it needs SQLite's math functions sin, cos, asin, sqrt, radians).");
}

/** A select with the point filters (and the point order, when sorting) applied; undefined: unchanged. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables are known only at run time
export async function applyPoints<Q extends SelectQueryBuilder<any, any, any>>(db: AnyDb, query: Q, points: PointQuery | undefined): Promise<Q> {
  if (points === undefined) return query;
  await requireSpatialAdapter(db, points);
  let out = query;
  if (points.filters.length > 0) out = out.where((eb) => pointWhere(eb, points.filters)) as Q;
  const sort = points.sort;
  if (sort !== undefined) for (const term of pointOrder(sort)) out = out.orderBy(term) as Q;
  return out;
}

/** The OpenAPI query parameters of the point queries of a model's list routes. */
export function pointParameters(model: ModelSchema): Record<string, unknown>[] {
  const param = (name: string, description: string) => ({ name, in: "query", required: false, description, schema: { type: "string" } });
  const points = model.points ?? [];
  if (points.length === 0) return [];
  return [
    ...points.flatMap((field) => [
      param(`filter[${field}][within_radius]`, "lat,lon,metres: rows whose point is within the radius (Haversine)"),
      param(`filter[${field}][within_bbox]`, "south,west,north,east, inclusive; west > east crosses the antimeridian"),
    ]),
    param("sort", `Nearest first: ${points.join(" | ")}, or -<field> for farthest first; needs origin; not with orderBy`),
    param("origin", "lat,lon the sort measures from"),
  ];
}
