import * as v from "valibot";

/**
 * What the admin route tables share (schema/admin-api.ts and its schema/admin-<area>.ts parts): ids
 * and paths, the list answer, the session answer, the refusals every session or site route can give.
 */

export const Id = v.pipe(v.string(), v.minLength(1), v.maxLength(100));
export const IdPath = v.strictObject({ id: Id });
export const SitePath = v.strictObject({ site_id: Id });
/** A JSON object answer whose keys are described in docs/ rather than pinned here. */
export const Described = (title: string) => v.pipe(v.looseObject({}), v.title(title));
export const list = <S extends v.GenericSchema>(item: S) => v.strictObject({ data: v.array(item) });

/** `superadmin`: the person may run the operators' routes (`/api/ops`) from the admin (docs/operations-api.md). */
export const Person = v.strictObject({ id: v.string(), email: v.string(), name: v.string(), superadmin: v.boolean() });
export const SessionAnswer = v.pipe(
  v.strictObject({
    person: Person,
    /** `suspended`: the operators suspended the site; the admin shows it read-only (writes are 403 site_suspended). */
    sites: v.array(v.strictObject({ id: v.string(), slug: v.string(), name: v.string(), role: v.string(), suspended: v.boolean() })),
    csrf_token: v.string(),
  }),
  v.title("SessionAnswer"),
);

export const sessionErrors = ["unauthorized", "csrf_failed"] as const;
export const siteErrors = [...sessionErrors, "invalid_request", "forbidden", "missing_permission"] as const;
export const withId = [...siteErrors, "not_found"] as const;
