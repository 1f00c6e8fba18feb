import m0001 from "../../migrations/site-object/0001_ledger_leases_limits.sql";
import m0002 from "../../migrations/site-object/0002_upload_objects.sql";
import m0003 from "../../migrations/site-object/0003_media_cleanup.sql";
import m0004 from "../../migrations/site-object/0004_upload_multipart.sql";
import m0005 from "../../migrations/site-object/0005_site_identity.sql";
import type { Migration } from "./storage";

/**
 * SiteObject's storage schema, oldest first. Append new steps; never edit or renumber a shipped
 * one, because objects that already applied it will not run it again.
 */
export const SITE_OBJECT_MIGRATIONS: readonly Migration[] = [
  { version: 1, sql: m0001 },
  { version: 2, sql: m0002 },
  { version: 3, sql: m0003 },
  { version: 4, sql: m0004 },
  { version: 5, sql: m0005 },
];
