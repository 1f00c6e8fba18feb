/**
 * Contract tests of the generated backend's sessions and roles and of its managed deployment of
 * access (issue #25 items 6 and 7, docs/generated-backend.md "Sessions and roles" and
 * "Deployment"). Imported and run by test/node/generated-backend.test.mjs: `prepareSessions` edits
 * the unpacked project before it starts, `sessionContract` runs inside each runtime's describe (the
 * local server and wrangler dev), `deployContract` once (the deploy script never reaches a runtime).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createHash } from "node:crypto";

/** The variables that turn sessions on in both runtimes. */
export const SESSION_ENV = { AUTH_SECRET: "contract-suite-auth-secret-0123456789abcdef", AUTH_RATE_LIMIT: "off" };

const sha256 = (text) => createHash("sha256").update(text).digest("hex");

const metaOf = (file) => JSON.parse(readFileSync(`${file.path}.meta.json`, "utf8"));

/** The stored files under a private-files/ folder: key and path (meta files left out). */
function listFiles(folder, prefix = "") {
  return readdirSync(path.join(folder, prefix), { withFileTypes: true }).flatMap((entry) => {
    const key = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) return listFiles(folder, key);
    return entry.name.endsWith(".meta.json") ? [] : [{ key, path: path.join(folder, key) }];
  });
}

/**
 * Roles and access modes as an owner would write them: `note` reads and creates take sessions; the
 * default role of a sign-up is `reader` (reads of note), `editor` also creates notes.
 */
export function prepareSessions(project) {
  const roles = { defaultRole: "reader", roles: { reader: { note: ["findMany"] }, editor: { note: ["findMany", "create"] } } };
  writeFileSync(path.join(project, "access", "roles.json"), JSON.stringify(roles, null, 2));
  const operations = JSON.parse(readFileSync(path.join(project, "access", "operations.json"), "utf8"));
  operations.note.findMany = { enabled: true, access: "session" };
  operations.note.create = { enabled: true, access: "session" };
  writeFileSync(path.join(project, "access", "operations.json"), JSON.stringify(operations, null, 2));
}

/**
 * Sign-up, sign-in, sign-out, roles and account deletion over HTTP against the running runtime.
 * `port()` is the runtime's port; `service` the API_BEARER_TOKEN it runs with; `project()` the
 * unpacked project; `startBackend(port, env, cwd)` starts a local server (local runtime only).
 */
export function sessionContract({ it, port, service, project, startBackend, backendEnv }) {
  const send = async (method, pathname, { body, cookie, token } = {}) => {
    const origin = `http://127.0.0.1:${port()}`;
    // Browsers send Origin; Better Auth refuses a cookie-carrying POST without one (CSRF).
    const headers = { origin };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (cookie) headers.cookie = cookie;
    if (token) headers.authorization = `Bearer ${token}`;
    const response = await fetch(`${origin}${pathname}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await response.text();
    const setCookie = response.headers.get("set-cookie");
    return { status: response.status, body: text ? JSON.parse(text) : null, cookie: setCookie ? setCookie.split(";")[0] : undefined };
  };
  const signUp = (email) => send("POST", "/api/auth/sign-up/email", { body: { email, password: "a long password 1", name: email.split("@")[0] } });

  it("sessions: a sign-up gets the default role, its session passes session routes its role allows, the service bearer still passes", async () => {
    const alice = await signUp("alice@example.test");
    assert.equal(alice.status, 200, JSON.stringify(alice.body));
    assert.equal(alice.body.user.role, "reader");
    assert.ok(alice.cookie?.startsWith("better-auth.session_token="), "a session cookie");
    // A sign-up cannot choose its role.
    const climber = await send("POST", "/api/auth/sign-up/email", { body: { email: "climber@example.test", password: "a long password 1", name: "c", role: "admin" } });
    assert.equal(climber.status, 200, JSON.stringify(climber.body));
    assert.equal(climber.body.user.role, "reader");
    assert.equal((await send("GET", "/api/note", { cookie: alice.cookie })).status, 200);
    assert.equal((await send("GET", "/api/note")).status, 401);
    const denied = await send("POST", "/api/note", { cookie: alice.cookie, body: { data: { title: "By a reader" } } });
    assert.equal(denied.status, 403);
    assert.equal(denied.body.error.code, "forbidden");
    // A `service` route stays the service caller's, whatever the session.
    assert.equal((await send("GET", "/api/note/unique?where=%7B%22id%22%3A%22x%22%7D", { cookie: alice.cookie })).status, 403);
    assert.equal((await send("GET", "/api/note", { token: service })).status, 200);
    const promoted = await send("POST", "/api/auth/admin/set-role", { token: service, body: { userId: alice.body.user.id, role: "editor" } });
    assert.equal(promoted.status, 200, JSON.stringify(promoted.body));
    assert.equal(promoted.body.user.role, "editor");
    const created = await send("POST", "/api/note", { cookie: alice.cookie, body: { data: { title: "By an editor" } } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const unknown = await send("POST", "/api/auth/admin/set-role", { token: service, body: { userId: alice.body.user.id, role: "owner" } });
    assert.equal(unknown.status, 422);
    assert.equal(unknown.body.error.code, "unknown_role");
    const closed = await send("POST", "/api/auth/admin/set-role", { token: service, body: { userId: alice.body.user.id, role: "editor", extra: 1 } });
    assert.equal(closed.status, 400);
    const byReader = await send("POST", "/api/auth/admin/set-role", { cookie: climber.cookie, body: { userId: climber.body.user.id, role: "admin" } });
    assert.equal(byReader.status, 403);
  });

  it("sessions: sign-in with the right password only, sign-out ends the session", async () => {
    await signUp("bea@example.test");
    const wrong = await send("POST", "/api/auth/sign-in/email", { body: { email: "bea@example.test", password: "not the password" } });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.cookie, undefined);
    const signedIn = await send("POST", "/api/auth/sign-in/email", { body: { email: "bea@example.test", password: "a long password 1" } });
    assert.equal(signedIn.status, 200);
    assert.equal((await send("GET", "/api/auth/get-session", { cookie: signedIn.cookie })).body.user.email, "bea@example.test");
    assert.equal((await send("GET", "/api/note", { cookie: signedIn.cookie })).status, 200);
    assert.equal((await send("POST", "/api/auth/sign-out", { cookie: signedIn.cookie, body: {} })).status, 200);
    assert.equal((await send("GET", "/api/note", { cookie: signedIn.cookie })).status, 401);
    assert.equal((await send("GET", "/api/auth/get-session", { cookie: signedIn.cookie })).body, null);
  });

  it("roles: deleting an account revokes its sessions and never deletes the last administrator", async () => {
    const carl = await signUp("carl@example.test");
    const dana = await signUp("dana@example.test");
    assert.equal((await send("POST", "/api/auth/admin/set-role", { token: service, body: { userId: carl.body.user.id, role: "admin" } })).status, 200);
    // An admin session manages accounts too; with one administrator it cannot leave.
    const alone = await send("POST", "/api/auth/delete-user", { cookie: carl.cookie, body: {} });
    assert.equal(alone.status, 409);
    assert.equal(alone.body.error.code, "last_administrator");
    const removeLast = await send("POST", "/api/auth/admin/remove-user", { token: service, body: { userId: carl.body.user.id } });
    assert.equal(removeLast.status, 409);
    const demoteLast = await send("POST", "/api/auth/admin/set-role", { cookie: carl.cookie, body: { userId: carl.body.user.id, role: "reader" } });
    assert.equal(demoteLast.status, 409);
    assert.equal((await send("POST", "/api/auth/admin/set-role", { cookie: carl.cookie, body: { userId: dana.body.user.id, role: "admin" } })).status, 200);
    const gone = await send("POST", "/api/auth/delete-user", { cookie: carl.cookie, body: {} });
    assert.equal(gone.status, 200, JSON.stringify(gone.body));
    assert.equal((await send("GET", "/api/auth/get-session", { cookie: carl.cookie })).body, null);
    assert.equal((await send("GET", "/api/note", { cookie: carl.cookie })).status, 401);
    const signInAgain = await send("POST", "/api/auth/sign-in/email", { body: { email: "carl@example.test", password: "a long password 1" } });
    assert.equal(signInAgain.status, 401);
    // Dana is now the last administrator; removing another account works, removing her does not.
    const erin = await signUp("erin@example.test");
    assert.equal((await send("POST", "/api/auth/admin/remove-user", { cookie: dana.cookie, body: { userId: erin.body.user.id } })).status, 200);
    assert.equal((await send("GET", "/api/note", { cookie: erin.cookie })).status, 401);
    assert.equal((await send("POST", "/api/auth/admin/remove-user", { token: service, body: { userId: dana.body.user.id } })).status, 409);
    assert.equal((await send("POST", "/api/auth/admin/remove-user", { token: service, body: { userId: "no-such-account" } })).status, 404);
  });

  if (startBackend !== undefined) {
    it("roles: access/roles.json is checked at start (at most 32 roles, a non-admin default role)", async () => {
      const copy = mkdtempSync(path.join(os.tmpdir(), "driftwood-roles-"));
      for (const part of ["dist", "access", "package.json"]) cpSync(path.join(project(), part), path.join(copy, part), { recursive: true });
      symlinkSync(path.join(project(), "node_modules"), path.join(copy, "node_modules"), "dir");
      const roles = Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`role${i}`, { "*": ["findMany"] }]));
      writeFileSync(path.join(copy, "access", "roles.json"), JSON.stringify({ defaultRole: "role0", roles }));
      const tooMany = await startBackend(port() + 4, { ...backendEnv(), ...SESSION_ENV, DATABASE_FILE: path.join(project(), "data", "site.db") }, copy);
      assert.equal(tooMany.exited, 1);
      assert.match(tooMany.stderr, /33 roles .*at most 32/);
      writeFileSync(path.join(copy, "access", "roles.json"), JSON.stringify({ defaultRole: "admin", roles: {} }));
      const adminDefault = await startBackend(port() + 4, { ...backendEnv(), ...SESSION_ENV, DATABASE_FILE: path.join(project(), "data", "site.db") }, copy);
      assert.equal(adminDefault.exited, 1);
      assert.match(adminDefault.stderr, /defaultRole cannot be admin/);
    });
  }
}

/**
 * The deploy script's access union and its refusals, before any database or worker change: run in
 * a copy of the project whose `npx` is a stand-in that only records what it was asked to run.
 */
export function deployContract({ it, project }) {
  /**
   * The deploy script in a copy of the project, with a stand-in `npx` that records its calls. With
   * `localR2` (a folder), the first `wrangler r2 …` call is not only recorded but run by the
   * project's real wrangler against its local R2 persisted there: `--remote` becomes `--local
   * --persist-to <folder>`. Only the first: each wrangler run costs seconds of CPU, and one run
   * proves the command line wrangler takes; the others are the same line for another file.
   */
  const deployIn = (setup, { parts = [], localR2 } = {}) => {
    const copy = mkdtempSync(path.join(os.tmpdir(), "driftwood-deploy-"));
    for (const part of ["scripts", "src", "data", "access", "schema.json", "wrangler.jsonc", "package.json", ...parts]) cpSync(path.join(project(), part), path.join(copy, part), { recursive: true });
    const bin = path.join(copy, "fake-bin");
    mkdirSync(bin);
    const forward = localR2 === undefined ? "" : [
      `if [ "$1" = wrangler ] && [ "$2" = r2 ] && mkdir "${path.join(copy, "forwarded")}" 2>/dev/null; then`,
      `  shift`,
      `  for a do shift; if [ "$a" = --remote ]; then set -- "$@" --local --persist-to "${localR2}"; else set -- "$@" "$a"; fi; done`,
      `  HOME="${process.env.HOME}" WRANGLER_SEND_METRICS=false exec "${path.join(project(), "node_modules", ".bin", "wrangler")}" "$@"`,
      `fi`,
    ].join("\n");
    writeFileSync(path.join(bin, "npx"), `#!/bin/sh\nprintf '%s\\n' "$*" >> "${path.join(copy, "npx-calls.log")}"\n${forward}\n`);
    chmodSync(path.join(bin, "npx"), 0o755);
    const schema = JSON.parse(readFileSync(path.join(copy, "schema.json"), "utf8"));
    setup(copy, schema);
    const run = spawnSync(process.execPath, ["scripts/deploy.mjs"], { cwd: copy, encoding: "utf8", env: { PATH: `${bin}:${process.env.PATH}` } });
    const log = path.join(copy, "npx-calls.log");
    return { ...run, calls: existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [] };
  };
  const token = (id, secret, models = ["*"]) => ({ id, digest: sha256(secret), models });
  const withOwned = (copy, value) => {
    const file = path.join(copy, "wrangler.jsonc");
    const text = readFileSync(file, "utf8").replace(/\n}\s*$/, `,\n  // the owner's own read tokens\n  "vars": { "ACCESS_CONFIG": ${JSON.stringify(typeof value === "string" ? value : JSON.stringify(value))} }\n}\n`);
    writeFileSync(file, text);
  };
  const issued = (copy, schema, tokens) => writeFileSync(path.join(copy, "access", "read-tokens.json"), JSON.stringify({ version: 1, site: schema.site.id, tokens }));

  it("deploy: ACCESS_CONFIG is the union of the owner's value and access/read-tokens.json, then migrations and wrangler deploy", () => {
    const run = deployIn((copy, schema) => {
      issued(copy, schema, [token("cms-issued", "cms secret", ["article"])]);
      withOwned(copy, { version: 1, site: schema.site.id, tokens: [token("owners", "owner secret")] });
    });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.calls.length, 2);
    assert.equal(run.calls[0], "wrangler d1 migrations apply DB --remote");
    const [, deploy] = run.calls;
    assert.match(deploy, /^wrangler deploy --var ACCESS_CONFIG:/);
    const union = JSON.parse(deploy.slice(deploy.indexOf("ACCESS_CONFIG:") + "ACCESS_CONFIG:".length));
    assert.deepEqual(union.tokens.map((t) => t.id), ["cms-issued", "owners"]);
    assert.equal(union.tokens[1].digest, sha256("owner secret"));
  });

  it("deploy: puts every private file into the PRIVATE_FILES bucket before the worker (against wrangler's local R2)", () => {
    const state = mkdtempSync(path.join(os.tmpdir(), "driftwood-deploy-r2-"));
    // Two of the site's files (an image shown inline, a sound file that downloads), each put with
    // its own content type and file name; the first put runs in wrangler's local R2 (deployIn).
    const all = listFiles(path.join(project(), "private-files"));
    const files = [all.find((f) => /^image\//.test(metaOf(f).content_type)), all.find((f) => !/^(image\/|application\/pdf)/.test(metaOf(f).content_type))];
    assert.ok(files.every(Boolean), "the contract site has an image and a download among its private files");
    const run = deployIn((copy) => {
      for (const file of files) {
        mkdirSync(path.dirname(path.join(copy, "private-files", file.key)), { recursive: true });
        for (const suffix of ["", ".meta.json"]) cpSync(`${file.path}${suffix}`, path.join(copy, "private-files", `${file.key}${suffix}`));
      }
    }, { localR2: state });
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    const puts = run.calls.filter((call) => call.startsWith("wrangler r2 object put "));
    assert.equal(puts.length, files.length);
    assert.deepEqual(run.calls, ["wrangler d1 migrations apply DB --remote", ...puts, run.calls.at(-1)]);
    assert.match(run.calls.at(-1), /^wrangler deploy --var ACCESS_CONFIG:/);
    const bucket = /"binding":\s*"PRIVATE_FILES",\s*"bucket_name":\s*"([^"]+)"/.exec(readFileSync(path.join(project(), "wrangler.jsonc"), "utf8"))[1];
    // Every file has one put naming its object, the file holding its bytes, its type and name.
    const putOf = (file) => puts.filter((put) => put.startsWith(`wrangler r2 object put ${bucket}/${file.key} --file `));
    for (const file of files) {
      const meta = metaOf(file);
      const [put, ...more] = putOf(file);
      assert.ok(put !== undefined && more.length === 0, `one put of ${file.key}: ${puts.join("\n")}`);
      assert.ok(put.includes(` --content-type ${meta.content_type} `), put);
      assert.ok(put.includes(` --content-disposition attachment; filename="${meta.file_name}" `), put);
      assert.match(put, / --remote$/);
      assert.deepEqual(readFileSync(/--file (\S+)/.exec(put)[1]), readFileSync(file.path), `${file.key}: the put sends the file's bytes`);
    }
    // What the bucket holds after the first put ran in wrangler, read back through the local R2
    // runtime (miniflare, which wrangler runs for local mode) as the worker's binding reads it.
    const stored = files.filter((file) => putOf(file)[0] === puts[0]);
    assert.equal(stored.length, 1);
    // A script file (an inline -e program never finished under spawnSync here) writing its answer to a file.
    const script = path.join(state, "read.mjs");
    const answer = path.join(state, "read.json");
    writeFileSync(script, `
      import { writeFileSync } from "node:fs";
      const { Miniflare } = await import(${JSON.stringify(pathToFileURL(path.join(project(), "node_modules", "miniflare", "dist", "src", "index.js")).href)});
      const mf = new Miniflare({ modules: true, script: "export default { fetch() { return new Response(null, { status: 404 }); } };", r2Buckets: { PRIVATE_FILES: ${JSON.stringify(bucket)} }, r2Persist: ${JSON.stringify(path.join(state, "v3", "r2"))} });
      const out = {};
      try {
        const bucket = await mf.getR2Bucket("PRIVATE_FILES");
        for (const key of ${JSON.stringify(stored.map((f) => f.key))}) {
          const object = await bucket.get(key);
          out[key] = object && { bytes: Buffer.from(await object.arrayBuffer()).toString("base64"), type: object.httpMetadata?.contentType, disposition: object.httpMetadata?.contentDisposition ?? null };
        }
      } finally {
        await mf.dispose();
      }
      writeFileSync(${JSON.stringify(answer)}, JSON.stringify(out));
    `);
    const read = spawnSync(process.execPath, [script], { cwd: project(), encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 240_000, killSignal: "SIGKILL" });
    assert.equal(read.status, 0, read.stderr);
    const inBucket = JSON.parse(readFileSync(answer, "utf8"));
    for (const file of stored) {
      const meta = metaOf(file);
      assert.ok(inBucket[file.key], `${file.key} is in ${bucket}`);
      assert.equal(inBucket[file.key].bytes, readFileSync(file.path).toString("base64"), file.key);
      assert.equal(inBucket[file.key].type, meta.content_type, file.key);
      assert.equal(inBucket[file.key].disposition, `attachment; filename="${meta.file_name}"`, file.key);
    }
  });

  for (const [code, setup] of [
    ["owned_access_config_invalid", (copy, schema) => withOwned(copy, { version: 1, site: schema.site.id, tokens: [{ id: "owners", digest: "not-hex", models: ["*"] }] })],
    ["owned_access_config_invalid", (copy) => withOwned(copy, { version: 1, site: "another-site", tokens: [] })],
    ["generated_access_tokens_invalid", (copy, schema) => issued(copy, schema, [{ id: "cms", digest: sha256("x"), models: ["no_such_model"] }])],
    ["access_token_id_conflict", (copy, schema) => {
      issued(copy, schema, [token("same-id", "cms secret")]);
      withOwned(copy, { version: 1, site: schema.site.id, tokens: [token("same-id", "owner secret")] });
    }],
    ["access_config_union_invalid", (copy, schema) => {
      issued(copy, schema, [token("cms", "one secret")]);
      withOwned(copy, { version: 1, site: schema.site.id, tokens: [token("owners", "one secret")] });
    }],
  ]) {
    it(`deploy: ${code} refuses before any database or worker change`, () => {
      const run = deployIn(setup);
      assert.equal(run.status, 1, run.stdout);
      assert.match(run.stderr, new RegExp(`deploy refused: ${code}`));
      assert.deepEqual(run.calls, [], "wrangler was never run");
    });
  }
}
