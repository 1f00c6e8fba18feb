import { sql, type RawBuilder } from "kysely";
import type { Kysely } from "kysely";
import type { Database } from "../../shared/db/database";
import type { SiteScope } from "../../shared/db/site-scope";
import { assertScope } from "../../shared/db/site-scope";
import { allMemberNames } from "../../shared/repositories/member-name-repository";
import { WRITER_KEY_SQL, writerNames } from "../../shared/services/lifecycle/version-writers";
import type { EntrySort, EntrySortKey } from "../../schema/entry-sorts";

/**
 * The entry list's sort orders (issue #30 item 10, docs/admin-ui-lists.md): `sort=title` and the
 * others ascending, `-title` descending. Each is a key computed in SQL over the whole list (not the
 * rows a client happens to hold), ties broken by `instance_id` in the same direction, so a cursor
 * (the key and id of the next page's first row) continues exactly where the page ended.
 */
export interface SortPlan {
  key: EntrySortKey;
  descending: boolean;
  /** The key of a row of `entries`, as SQL: text, never null. */
  expression: RawBuilder<string>;
}

/**
 * The plan of a sort. `hiddenTitleModels`: models whose title field the reader may not read — their
 * entries sort by slug, so the order never reveals a hidden title. `owner` sorts by the owner's
 * name among the site's members (read from the control database, handed to SQL as one JSON value:
 * people live in another database than entries), "nobody" and non-members first; `updated_by` by
 * the current draft's writer's name the same way (every writer of the site, version-writers.ts).
 */
export async function sortPlan(db: Kysely<Database>, scope: SiteScope, sort: EntrySort, hiddenTitleModels: readonly string[]): Promise<SortPlan> {
  const descending = sort.startsWith("-");
  const key = (descending ? sort.slice(1) : sort) as EntrySortKey;
  return { key, descending, expression: await keyExpression(db, scope, key, hiddenTitleModels) };
}

async function keyExpression(db: Kysely<Database>, scope: SiteScope, key: EntrySortKey, hiddenTitleModels: readonly string[]): Promise<RawBuilder<string>> {
  switch (key) {
    case "created":
      return sql<string>`created_at`;
    case "updated":
      return sql<string>`updated_at`;
    case "state":
      return sql<string>`workflow_state`;
    case "lang":
      return sql<string>`lang`;
    case "title": {
      // lower(): ASCII case only (SQLite's); the admin shows the label, else the slug.
      const label = hiddenTitleModels.length > 0 ? sql`CASE WHEN model_id IN (${sql.join(hiddenTitleModels)}) THEN NULL ELSE label END` : sql`label`;
      return sql<string>`lower(coalesce(${label}, slug, ''))`;
    }
    case "owner": {
      const names = Object.fromEntries((await allMemberNames(db, scope)).map((m) => [m.id, m.name.toLowerCase()]));
      return sql<string>`coalesce(json_extract(${JSON.stringify(names)}, '$."' || owner_id || '"'), '')`;
    }
    case "updated_by": {
      // The current draft's writer by the name the list shows (versionWriters), lower-cased; a
      // writer without a name here (the service, a former member, a revoked credential) first.
      const names = Object.fromEntries([...(await writerNames(db, scope, assertScope(scope), "all"))].map(([key, name]) => [key, name.toLowerCase()]));
      const writer = sql.raw(`(SELECT ${WRITER_KEY_SQL} FROM versions v WHERE v.id = current_version_id)`);
      return sql<string>`coalesce(json_extract(${JSON.stringify(names)}, '$."' || ${writer} || '"'), '')`;
    }
  }
}
