#!/usr/bin/env node
/**
 * npm run contract          writes the generated contract artefacts (OpenAPI files, types, cli/manage.mjs…)
 * npm run contract:check    regenerates in memory and fails when a committed artefact is stale
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CLI_FILE, buildCli } from "./lib/cli-build.mjs";
import { loadTs, root } from "./lib/load-ts.mjs";
import { TEMPLATE_MODULE, buildTemplateModule } from "./lib/backend-template.mjs";

const check = process.argv.includes("--check");
const { contractArtifacts } = await loadTs("schema/artifacts.ts");
// The command line is built here (it reads its runtime template from scripts/), beside the schema's own artefacts.
const artifacts = { ...contractArtifacts(), [CLI_FILE]: await buildCli(), [TEMPLATE_MODULE]: buildTemplateModule() };
const stale = [];
for (const [relative, content] of Object.entries(artifacts)) {
  const file = path.join(root, relative);
  const current = existsSync(file) ? readFileSync(file, "utf8") : null;
  if (current === content) continue;
  if (check) stale.push(relative);
  else {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
    process.stderr.write(`wrote ${relative}\n`);
  }
}
if (stale.length > 0) {
  process.stderr.write(`Stale contract artefacts (run \`npm run contract\` and commit):\n${stale.map((s) => `  ${s}`).join("\n")}\n`);
  process.exit(1);
}
process.stderr.write(check ? `contract: ${Object.keys(artifacts).length} artefacts up to date\n` : "contract: done\n");
