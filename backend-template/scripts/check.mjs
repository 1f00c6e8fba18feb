#!/usr/bin/env node
// npm run check: the relation_ids_dangling check alone (model, column, row id, missing target; exit 1).
import { fileURLToPath } from "node:url";
import path from "node:path";
import { refuseDangling } from "./dangling.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
refuseDangling(root);
process.stdout.write("relation ids: none dangling\n");
