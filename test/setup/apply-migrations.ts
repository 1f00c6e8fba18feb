import { applyD1Migrations, env } from "cloudflare:test";

// Safe to run for every test file: applied migrations are recorded in d1_migrations. Every site
// database gets every migration (docs/scale.md, "More than one database").
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await applyD1Migrations(env.DB_2, env.TEST_MIGRATIONS);
