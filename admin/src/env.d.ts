/** CSS files are bundled by esbuild (scripts/build-admin.mjs) into the one stylesheet. */
declare module "*.css";
