#!/usr/bin/env node
/**
 * A stand-in for the wrangler command line over a Cloudflare account kept in a JSON file
 * (FAKE_ACCOUNT), for test/node/deploy.test.mjs: `npm run deploy` runs it instead of wrangler
 * (DRIFTWOOD_WRANGLER_BIN). It answers the commands the deploy script uses, in wrangler's output
 * formats, records every call (args and stdin) in the file, and refuses anything else (exit 1).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const file = process.env.FAKE_ACCOUNT;
if (!file) process.exit(0);
const account = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
account.d1 ??= [];
account.r2 ??= [];
account.queues ??= [];
account.secrets ??= [];
account.migrated ??= {};
account.deploys ??= [];
account.calls ??= [];

const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args[i + 1];
};
const stdin = process.stdin.isTTY ? "" : readFileSync(0, "utf8");
account.calls.push({ args, stdin: stdin ? "(given)" : "" });
const save = () => writeFileSync(file, JSON.stringify(account, null, 2));
const out = (text) => {
  save();
  process.stdout.write(text + "\n");
  process.exit(0);
};
const fail = (text) => {
  save();
  process.stderr.write(text + "\n");
  process.exit(1);
};

const [a, b, c, d] = args;
if (a === "whoami") out("You are logged in with an API Token, associated with the email ops@example.com.");
if (a === "d1" && b === "list") out(JSON.stringify(account.d1.map((x) => ({ uuid: x.uuid, name: x.name, version: "production" }))));
if (a === "d1" && b === "create") {
  account.d1.push({ name: c, uuid: `11111111-2222-4333-8444-${String(account.d1.length + 1).padStart(12, "0")}` });
  out(`✅ Successfully created DB '${c}'`);
}
if (a === "d1" && b === "migrations" && c === "apply" && args.includes("--remote")) {
  const config = readFileSync(flag("-c"), "utf8");
  if (!config.includes(`"binding": "${d}"`)) fail(`Couldn't find a D1 DB with the name or binding '${d}'`);
  account.migrated[d] = (account.migrated[d] ?? 0) + 1;
  out(`Migrations to be applied: ${account.migrated[d] === 1 ? "31" : "none"}`);
}
if (a === "r2" && b === "bucket" && c === "list") out(`Listing buckets...\n${account.r2.map((n) => `name:           ${n}\ncreation_date:  2026-11-01T00:00:00.000Z`).join("\n\n")}`);
if (a === "r2" && b === "bucket" && c === "create") {
  account.r2.push(d);
  out(`Created bucket '${d}' with default storage class of Standard.`);
}
if (a === "queues" && b === "list") {
  const page = Number(flag("--page") ?? 1);
  const rows = account.queues.slice((page - 1) * 20, page * 20);
  out(["┌─┐", "│ id │ name │ created_on │", "├─┤", ...rows.map((n, i) => `│ q${i} │ ${n} │ 2026-11-01 │`), "└─┘"].join("\n"));
}
if (a === "queues" && b === "create") {
  account.queues.push(c);
  out(`✅ Created queue ${c}.`);
}
if (a === "secret" && b === "list") {
  if (account.deploys.length === 0) fail("✘ [ERROR] This Worker does not exist on your account. [code: 10007]");
  out(JSON.stringify(account.secrets.map((name) => ({ name, type: "secret_text" }))));
}
if (a === "secret" && b === "bulk") {
  for (const name of Object.keys(JSON.parse(stdin))) if (!account.secrets.includes(name)) account.secrets.push(name);
  out("✨ Success! Uploaded secrets");
}
if (a === "deploy" && !args.includes("--dry-run")) {
  account.deploys.push({ tag: flag("--tag"), message: flag("--message"), config: flag("-c") });
  out(`Uploaded driftwood\nDeployed driftwood triggers\nCurrent Version ID: 0f0e0d0c-0b0a-4908-8706-05040302010${account.deploys.length % 10}`);
}
fail(`fake wrangler: unexpected command ${args.join(" ")}`);
