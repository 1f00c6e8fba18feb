#!/usr/bin/env node
// npm run deploy (docs/generated-backend.md, "Deployment"): in this order, and nothing after a
// refusal — (1) the relation_ids_dangling check on data/, (2) ACCESS_CONFIG built as the union of
// the owner's own value (wrangler.jsonc `vars.ACCESS_CONFIG`) and the CMS-issued tokens in
// access/read-tokens.json, validated by src/access-config-rules.js, (3) remote D1 migrations,
// (4) the private files of private-files/ put into the PRIVATE_FILES bucket (one `wrangler r2
// object put --remote` each, with content type and file name), (5) `wrangler deploy` with the union
// as the ACCESS_CONFIG var — so a value set only in the hosting dashboard is replaced at every
// deploy. Steps 1 and 2 touch neither the database, the bucket nor the worker; the files go before
// the worker, so a deployed worker never serves a marker whose object is still missing.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { accessConfigUnion } from "../src/access-config-rules.js";
import { refuseDangling } from "./dangling.mjs";
import { listPrivateFiles, putPrivateFiles } from "./private-files.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** JSON with // and /* *\/ comments (wrangler.jsonc) as a value; comments inside strings are kept. */
function parseJsonc(text) {
  let out = "";
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '"') {
      const start = i;
      for (i += 1; i < text.length && text[i] !== '"'; i += 1) if (text[i] === "\\") i += 1;
      out += text.slice(start, i + 1);
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i += 1;
      out += "\n";
    } else if (c === "/" && text[i + 1] === "*") {
      i = text.indexOf("*/", i + 2);
      if (i === -1) throw new Error("an unclosed /* comment");
      i += 1;
    } else out += c;
  }
  return JSON.parse(out.replace(/,(\s*[}\]])/g, "$1"));
}

function refuse(code, problems) {
  process.stderr.write(`deploy refused: ${code} (nothing was changed)\n`);
  for (const problem of problems) process.stderr.write(`  ${problem}\n`);
  process.exit(1);
}

refuseDangling(root);

const schema = JSON.parse(readFileSync(path.join(root, "schema.json"), "utf8"));
const expected = { site: schema.site.id, models: schema.models.map((m) => m.api) };
let wrangler;
try {
  wrangler = parseJsonc(readFileSync(path.join(root, "wrangler.jsonc"), "utf8"));
} catch (error) {
  refuse("owned_access_config_invalid", [`wrangler.jsonc is not readable JSONC: ${error instanceof Error ? error.message : String(error)}`]);
}
const owned = wrangler?.vars?.ACCESS_CONFIG;
const generatedFile = path.join(root, "access", "read-tokens.json");
const generated = existsSync(generatedFile) ? readFileSync(generatedFile, "utf8") : undefined;
if (generated === undefined) refuse("generated_access_tokens_invalid", ["access/read-tokens.json is missing: regenerate the backend in Driftwood."]);
const union = accessConfigUnion(owned, generated, expected);
if (!union.ok) refuse(union.code, union.problems);
process.stdout.write(`ACCESS_CONFIG: ${union.config.tokens.length} read token(s) (owner's and CMS-issued)\n`);

const run = (args) => {
  const step = spawnSync("npx", ["wrangler", ...args], { cwd: root, stdio: "inherit" });
  if (step.status !== 0) process.exit(step.status ?? 1);
};
run(["d1", "migrations", "apply", "DB", "--remote"]);
const privateFiles = listPrivateFiles(root).length;
if (privateFiles > 0) {
  process.stdout.write(`private files: putting ${privateFiles} into the PRIVATE_FILES bucket\n`);
  putPrivateFiles(root, ["--remote"]);
}
run(["deploy", "--var", `ACCESS_CONFIG:${JSON.stringify(union.config)}`]);
