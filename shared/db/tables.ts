/**
 * Which D1 database holds which table (docs/scale.md, "More than one database"). Every migration
 * runs on every database, so every table exists everywhere; each database uses only its share.
 *
 * - CONTROL_TABLES: the directory — what is looked up before the site is known, or spans sites.
 *   They live only in the control database (binding `DB`).
 * - SITE_TABLES: a site's content, in the database the site map names; a site move copies exactly
 *   these rows (`site_id` = the site) from one database to another.
 * - RECORD_TABLES: the record of a write (audit, outbox, idempotency answer) and the delivery rows
 *   of its events. They ride in the batch of the change they record (deliveries beside their event),
 *   so they live where that change was written: with the content for a content write, in the
 *   control database for a directory change. A move copies a site's rows of
 *   these too (they are site rows in its content database).
 * - NEUTRAL_TABLES: `batch_guards` never holds a row; a guard runs wherever its condition's tables are.
 */
export const CONTROL_TABLES = [
  "sites",
  "site_hosts",
  "site_databases",
  "persons",
  "sessions",
  "password_resets",
  "sign_in_failures",
  "memberships",
  "roles",
  "management_credentials",
  "site_api_tokens",
  "backend_read_tokens",
  "oauth_clients",
  "oauth_registration_counts",
  "oauth_connections",
  "oauth_codes",
  "oauth_tokens",
  "plugin_installations",
  "plugin_launch_codes",
  "plugin_delegations",
  "signing_keys",
  "invitations",
  "ops_claims",
  "site_copies",
  "site_deletions",
] as const;

/** A site's content tables, parents before children (the copy order of a move; deletes run in reverse). */
export const SITE_TABLES = [
  "models",
  "entries",
  "versions",
  "relation_links",
  "relation_heads",
  "unique_values",
  "media_folders",
  "media",
  "media_objects",
  "media_originals",
  "media_usage",
  "published_items",
  "published_relations",
  "published_media",
  "search_documents",
  "entry_proposals",
  "model_proposals",
  "webhooks",
  "import_sources",
  "import_jobs",
  "import_parts",
  "import_items",
  "import_findings",
  "import_media",
  "job_step_claims",
  "export_jobs",
  "export_pages",
  "saved_queries",
  "menus",
  "comments",
  "schedules",
  "releases",
  "recovery_drafts",
  "redirects",
] as const;

/**
 * The incremental sync's change log (docs/sync.md): a site's rows in its content database, never
 * copied by a move — a sync cursor names the database it was made on, so after a move it answers
 * `reset: true` and the client takes a fresh snapshot from the target.
 */
export const LOG_TABLES = ["sync_changes"] as const;

/** Delivery rows sit beside their outbox event (shared/events/deliver.ts), so they are records too. */
export const RECORD_TABLES = ["audit_log", "outbox_events", "idempotency_results", "event_deliveries"] as const;

/**
 * Content tables written outside the site's object (a move's write queue does not hold them):
 * webhook subscriptions (admin routes commit in the worker) and delivery rows (queue consumer,
 * dead-letter retry). A move copies them again, replacing, after its cache wait.
 */
export const WRITTEN_OUTSIDE_OBJECT = ["webhooks", "event_deliveries"] as const;

/**
 * Columns a move does not copy: the target database assigns them. `search_documents.id` is the
 * rowid of the FTS5 indexes, unique per database, not per site; the target's triggers index the
 * copied text under the new id.
 */
export const REASSIGNED_COLUMNS: Readonly<Record<string, readonly string[]>> = { search_documents: ["id"] };

/** FTS5 tables kept by triggers on `search_documents`: present in the site database, never named in a site's copy. */
export const DERIVED_SITE_TABLES = ["search_words", "search_stems", "search_parts"] as const;

export const NEUTRAL_TABLES = ["batch_guards"] as const;

export type TableSide = "control" | "site" | "record" | "neutral";

const SIDE = new Map<string, TableSide>([
  ...CONTROL_TABLES.map((t) => [t, "control"] as const),
  ...SITE_TABLES.map((t) => [t, "site"] as const),
  ...DERIVED_SITE_TABLES.map((t) => [t, "site"] as const),
  ...RECORD_TABLES.map((t) => [t, "record"] as const),
  ...NEUTRAL_TABLES.map((t) => [t, "neutral"] as const),
]);

// A table is named after FROM, JOIN, INTO or UPDATE (kysely quotes names, hand-written SQL does not);
// column names never follow these words, so a column called like a table is not mistaken for one.
const TABLE_REFERENCE = /\b(?:from|join|into|update)\s+(?:"([a-z_0-9]+)"|`([a-z_0-9]+)`|([a-z_][a-z_0-9]*))/gi;

/** The known tables one SQL statement names (CTE names and unknown names are left out). */
export function tablesOf(sql: string): string[] {
  const found = new Set<string>();
  for (const match of sql.matchAll(TABLE_REFERENCE)) {
    const name = (match[1] ?? match[2] ?? match[3] ?? "").toLowerCase();
    if (SIDE.has(name)) found.add(name);
  }
  return [...found];
}

/**
 * Where one statement must run: `control` when it names a directory table, `site` when it names a
 * content table, `record` when it names only record tables, `neutral` when it names none we know.
 * A statement naming a directory table together with a content or record table cannot run anywhere
 * once they are split: it throws, so such a query is found by the first test that runs it on a
 * second database.
 */
export function statementSide(sql: string): TableSide {
  const known = SIDE_BY_SQL.get(sql);
  if (known !== undefined) return known;
  const side = classify(sql);
  // Bounded: queries are few distinct texts (parameters are bound, not inlined), so the memo
  // holds them all; should it ever fill, it starts over rather than grow.
  if (SIDE_BY_SQL.size >= SIDE_MEMO_SIZE) SIDE_BY_SQL.clear();
  SIDE_BY_SQL.set(sql, side);
  return side;
}

/** Sides already worked out, by SQL text: routing a statement costs a map lookup, not a regex scan. */
const SIDE_BY_SQL = new Map<string, TableSide>();
const SIDE_MEMO_SIZE = 2_000;

function classify(sql: string): TableSide {
  let control = false;
  let site = false;
  let record = false;
  for (const table of tablesOf(sql)) {
    const side = SIDE.get(table);
    if (side === "control") control = true;
    else if (side === "site") site = true;
    else if (side === "record") record = true;
  }
  // Records can sit in either database, so a statement joining them to the directory has no home either.
  if (control && (site || record)) throw new CrossDatabaseStatement(sql);
  if (control) return "control";
  if (site) return "site";
  return record ? "record" : "neutral";
}

/** A statement that joins directory and content tables: a programming error once a site has its own database. */
export class CrossDatabaseStatement extends Error {
  constructor(sql: string) {
    super(`A statement names directory and content tables together; it must become two reads: ${sql.slice(0, 300)}`);
    this.name = "CrossDatabaseStatement";
  }
}
