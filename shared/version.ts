import packageJson from "../package.json";

/**
 * The product's version: `version` in package.json (semver), the one place a release sets it
 * (CHANGELOG.md). Bundled into the worker at build time; the operators' `GET /api/ops` answers it and
 * the admin footer shows it (scripts/build-admin.mjs defines it there).
 */
export const DRIFTWOOD_VERSION: string = packageJson.version;
