/** CSS files are bundled by esbuild (scripts/build-admin.mjs) into the one stylesheet. */
declare module "*.css";

/** package.json's version, defined at build time (scripts/build-admin.mjs); shown in the footer. */
declare const DRIFTWOOD_VERSION: string;
