import { applyD1Migrations, env } from "cloudflare:test";

// Safe to run for every test file: applied migrations are recorded in d1_migrations.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
