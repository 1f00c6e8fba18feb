/**
 * The generated command line `cli/manage.mjs` (docs/cli.md): up to date with the route table, one
 * command per management operation in kebab case, its help, usage errors (exit 2), the origin rule,
 * and what it sends, checked against a local HTTP listener standing in for the service's wire
 * (headers, Idempotency-Key, body merging, retries, multipart). The real service: test/e2e/cli.test.mjs.
 * Run: node --test test/node/cli-generated.test.mjs
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { buildCli, CLI_FILE } from "../../scripts/lib/cli-build.mjs";
import { loadTs, root } from "../../scripts/lib/load-ts.mjs";

const CLI = path.join(root, CLI_FILE);

/** Runs the generated file with Node; never throws on a non-zero exit. */
function cli(args, { env = {}, input } = {}) {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH, ...env }, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr });
    });
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
  });
}

/** Command names as `--help` lists them. */
function listedCommands(help) {
  const lines = help.split("\n");
  return lines.slice(lines.indexOf("Commands:") + 1).filter((l) => l.startsWith("  ")).map((l) => l.trim().split(/\s+/)[0]);
}

describe("cli/manage.mjs is generated", () => {
  it("equals what `npm run contract` writes (contract:check compares it too)", async () => {
    assert.equal(readFileSync(CLI, "utf8"), await buildCli());
  });

  it("has exactly one command per management operation, named in kebab case", async () => {
    const { manageSurface } = await loadTs("schema/manage-api.ts");
    const kebab = (id) => id.replace(/([a-z0-9])([A-Z])/g, "$1-$2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2").toLowerCase();
    const { stdout, code } = await cli(["--help"]);
    assert.equal(code, 0);
    const listed = listedCommands(stdout);
    assert.deepEqual(listed, manageSurface.routes.map((r) => kebab(r.operationId)));
    assert.equal(new Set(listed).size, listed.length);
    for (const name of ["publish-entry", "get-site", "create-entry", "upload-media", "get-url-info"]) if (manageSurface.routes.some((r) => kebab(r.operationId) === name)) assert.ok(listed.includes(name), name);
    assert.ok(listed.includes("publish-entry"));
  });

  it("uses only Node built-ins (no dependency to install)", () => {
    const imports = [...readFileSync(CLI, "utf8").matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]);
    assert.ok(imports.length > 0);
    for (const specifier of imports) assert.match(specifier, /^node:/);
  });
});

describe("help", () => {
  it("the tool's help names the flags, the credential and the exit codes", async () => {
    const { stdout, code } = await cli(["--help"]);
    assert.equal(code, 0);
    for (const text of ["--url", "--json", "--key", "--body", "SERVICE_MANAGEMENT_TOKEN", "Exit codes"]) assert.ok(stdout.includes(text), text);
    assert.match(stdout, /publish-entry\s+Publish the current draft of this language/);
  });

  it("a command's help lists its flags with types and required marks, from the schema", async () => {
    const { stdout, code } = await cli(["publish-entry", "--help"]);
    assert.equal(code, 0);
    assert.match(stdout, /POST \/api\/manage\/v1\/entries\/\{id\}\/publish \(scope lifecycle:publish\)/);
    assert.match(stdout, /--id <string>\s+required, path/);
    assert.match(stdout, /--expected-workflow-revision <integer>\s+optional, body/);
    assert.match(stdout, /--key <key>/);
    const upload = await cli(["upload-media", "--help"]);
    assert.match(upload.stdout, /--file <path>\s+required/);
    assert.match(upload.stdout, /--on-duplicate <ask\|use_existing\|copy>/);
    const read = await cli(["get-site", "--help"]);
    assert.doesNotMatch(read.stdout, /--key|--body/);
  });

  it("the import and export helpers' flags are in their commands' help (probe finding: --file, --follow, --out, --all were nowhere)", async () => {
    const expected = {
      "upload-import-part": [/--file <path>\s+the whole file: 5 MiB parts/, /--part <n>\s+with --file/],
      "advance-import": [/--follow\s+advance step by step/],
      "advance-import-undo": [/--follow\s+undo step by step/],
      "read-export-chunk": [/--out <path>\s+read the whole export/, /--finish\s+with --out/, /--page <n>\s+with --out/],
      "read-import-artifact": [/--out <path>\s+read the whole file/],
      "get-import-findings": [/--all\s+every page/],
      "get-import-mapping": [/--all\s+every page/],
      "get-word-press-review": [/--all\s+every page/],
      "get-history-assignments": [/--all\s+every page/],
      "get-import-principals": [/--all\s+every page/],
    };
    for (const [command, patterns] of Object.entries(expected)) {
      const { stdout, code } = await cli([command, "--help"]);
      assert.equal(code, 0, command);
      for (const pattern of patterns) assert.match(stdout, pattern, command);
    }
  });
});

describe("usage errors exit 2 before any request", () => {
  const env = { SERVICE_MANAGEMENT_TOKEN: "dwm_test", SERVICE_URL: "http://127.0.0.1:9" };
  const cases = [
    [[], /no command given/],
    [["no-such-command"], /unknown command no-such-command/],
    [["get-site", "--nope"], /unknown flag --nope/],
    [["get-entry"], /--id is required/],
    [["get-site", "extra"], /unexpected argument extra/],
    [["get-site", "--url", "--url"], /given twice|--url/],
    [["publish-entry", "--id", "e1", "--expected-workflow-revision", "1.5"], /must be an integer/],
    [["publish-entry", "--id", "e1", "--body", "{not json"], /not valid JSON/],
    [["publish-entry", "--id", "e1", "--body", "[1]"], /must be a JSON object/],
    [["publish-entry", "--id", "e1", "--body", "@/nonexistent/body.json"], /cannot read --body/],
    [["publish-entry", "--id", "e1", "--body", '{"expected_version_id":"v1"}', "--expected-version-id", "v2"], /given both in --body and as --expected-version-id/],
    [["publish-entry", "--id", "e1", "--key", "has space"], /--key must be/],
    [["publish-entry", "--id", "e1", "--key", "x".repeat(129)], /--key must be/],
    [["get-site", "--key", "k"], /unknown flag --key/],
    [["upload-media"], /--file <path> is required/],
    [["upload-media", "--file", "/nonexistent/file.png"], /cannot read --file/],
    // Dot segments would reach another operation (`/versions/../restore` is restore-entry).
    [["restore-entry-version", "--id", "e1", "--version-id", ".."], /may not be "\." or "\.\."/],
    [["get-entry", "--id", "."], /may not be/],
    [["publish-entry", "--id", "%2e%2E"], /may not be/],
    // An empty path parameter would send another path (`/entries/`, `/models//entries`): probe finding, session 17.
    [["get-entry", "--id", ""], /--id may not be empty/],
    [["get-entry", "--id="], /--id may not be empty/],
    [["restore-entry-version", "--id", "e1", "--version-id", ""], /--version-id may not be empty/],
  ];
  for (const [args, message] of cases) {
    it(`${args.join(" ") || "(nothing)"}`, async () => {
      const { code, stdout, stderr } = await cli(args, { env });
      assert.equal(code, 2, stderr);
      assert.equal(stdout, "");
      assert.match(stderr, message);
    });
  }

  it("a --body that is not UTF-8 (a file or stdin) is a usage error, never sent as U+FFFD (probe finding, session 17: a Latin-1 file was stored as \"��\")", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "cli-body-"));
    const latin1 = path.join(dir, "body.json");
    const bytes = Buffer.concat([Buffer.from('{"fields":{"title":"caf'), Buffer.from([0xe9]), Buffer.from('"}}')]);
    writeFileSync(latin1, bytes);
    for (const [args, input] of [[["publish-entry", "--id", "e1", "--body", `@${latin1}`], undefined], [["publish-entry", "--id", "e1", "--body", "-"], bytes]]) {
      const { code, stdout, stderr } = await cli(args, { env, input });
      assert.equal(code, 2, stderr);
      assert.equal(stdout, "");
      assert.match(stderr, /--body is not valid UTF-8/);
    }
  });

  it("upload-import-part --file of an empty file is a usage error before any request (probe finding, session 17: a refused part, exit 1)", async () => {
    const empty = path.join(mkdtempSync(path.join(os.tmpdir(), "cli-empty-")), "export.xml");
    writeFileSync(empty, "");
    const { code, stdout, stderr } = await cli(["upload-import-part", "--id", "j1", "--file", empty], { env });
    assert.equal(code, 2, stderr);
    assert.equal(stdout, "");
    assert.match(stderr, /--file is empty/);
  });

  it("a token with spaces or control characters is a credential problem (exit 2), never printed", async () => {
    const { code, stdout, stderr } = await cli(["get-site"], { env: { ...env, SERVICE_MANAGEMENT_TOKEN: "dwm_a b\nsecret" } });
    assert.equal(code, 2);
    assert.equal(stdout, "");
    assert.match(stderr, /SERVICE_MANAGEMENT_TOKEN holds characters/);
    assert.doesNotMatch(stderr, /secret/);
  });

  it("no credential exits 2", async () => {
    const { code, stderr } = await cli(["get-site", "--url", "https://example.com"]);
    assert.equal(code, 2);
    assert.match(stderr, /no credential/);
  });

  it("a network problem exits 2 with a message", async () => {
    const { code, stderr, stdout } = await cli(["get-site"], { env });
    assert.equal(code, 2);
    assert.equal(stdout, "");
    assert.match(stderr, /network problem/);
  });
});

describe("status, logout and login without a saved login", () => {
  it("status: exit 2 when neither a saved login nor the environment token; 0 with the token (never saved)", async () => {
    const config = mkdtempSync(path.join(os.tmpdir(), "cli-config-"));
    const none = await cli(["status", "--url", "https://example.com"], { env: { XDG_CONFIG_HOME: config } });
    assert.equal(none.code, 2);
    assert.deepEqual(JSON.parse(none.stdout), { origin: "https://example.com", site: null, scopes: null, client_id_saved: false, environment_token_set: false, file: null });
    const withToken = await cli(["status", "--url", "https://example.com"], { env: { XDG_CONFIG_HOME: config, SERVICE_MANAGEMENT_TOKEN: "dwm_x" } });
    assert.equal(withToken.code, 0);
    assert.equal(JSON.parse(withToken.stdout).environment_token_set, true);
    assert.deepEqual(readdirSync(config), []);
  });

  it("logout without a saved login exits 2; a command without any credential points at login", async () => {
    const config = mkdtempSync(path.join(os.tmpdir(), "cli-config-"));
    const out = await cli(["logout", "--url", "https://example.com"], { env: { XDG_CONFIG_HOME: config } });
    assert.equal(out.code, 2);
    assert.match(out.stderr, /no saved login/);
    assert.deepEqual(readdirSync(config), [], "nothing written when nothing is saved");
    const cmd = await cli(["get-site", "--url", "https://example.com"], { env: { XDG_CONFIG_HOME: config } });
    assert.equal(cmd.code, 2);
    assert.match(cmd.stderr, /run: node manage.mjs login --url https:\/\/example.com/);
  });

  it("a lock older than 2 minutes is cleared as stale (logout takes the lock; its revocation is refused, so the file stays)", async () => {
    const refusing = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(503, { "content-type": "application/json" });
        res.end("{}");
      });
    });
    await new Promise((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    try {
      const config = mkdtempSync(path.join(os.tmpdir(), "cli-config-"));
      const origin = "https://example.com";
      const dir = path.join(config, "driftwood");
      mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `login-example.com-${createHash("sha256").update(origin).digest("hex").slice(0, 12)}.json`);
      const endpoint = `http://127.0.0.1:${refusing.address().port}/api/oauth`;
      writeFileSync(file, JSON.stringify({ origin, client_id: "ocl_x", refresh_token: "dwr_x", token_endpoint: `${endpoint}/token`, revocation_endpoint: `${endpoint}/revoke` }), { mode: 0o600 });
      const lock = `${file}.lock`;
      writeFileSync(lock, "");
      const old = new Date(Date.now() - 3 * 60 * 1000);
      utimesSync(lock, old, old);
      const started = Date.now();
      const { code, stderr } = await cli(["logout", "--url", origin], { env: { XDG_CONFIG_HOME: config } });
      assert.equal(code, 1, stderr);
      assert.match(stderr, /did not revoke/);
      assert.ok(Date.now() - started < 10_000);
      assert.equal(existsSync(lock), false);
      assert.equal(existsSync(file), true);
    } finally {
      refusing.close();
    }
  });

  it("mcp: an unknown flag, a bad origin or no credential exits 2 before reading stdin", async () => {
    const config = mkdtempSync(path.join(os.tmpdir(), "cli-config-"));
    for (const args of [["mcp", "--url", "https://example.com", "--nope"], ["mcp", "--url", "http://example.com"], ["mcp", "--url", "https://example.com"]]) {
      const { code, stdout } = await cli(args, { env: { XDG_CONFIG_HOME: config }, input: '{"jsonrpc":"2.0","id":1,"method":"ping"}\n' });
      assert.equal(code, 2, args.join(" "));
      assert.equal(stdout, "");
    }
  });

  it("login: usage errors exit 2 (bad origin, unknown flag, bad --scope)", async () => {
    for (const args of [["login", "--url", "http://example.com"], ["login", "--url", "https://example.com", "--nope"], ["login", "--url", "https://example.com", "--scope"], ["login", "--url", "https://example.com", "--scope", "<script>"]]) {
      const { code } = await cli(args);
      assert.equal(code, 2, args.join(" "));
    }
  });
});

describe("the origin rule: https, http only on loopback names", () => {
  const token = { SERVICE_MANAGEMENT_TOKEN: "dwm_test" };
  for (const url of ["http://example.com", "http://demo.localhost.example.com", "http://localhost.evil.com:8787", "http://127.0.0.2", "http://10.0.0.1", "ftp://localhost", "https://example.com/api", "https://user:pw@example.com", "https://example.com/?q=1", "not a url"]) {
    it(`refuses ${url}`, async () => {
      const { code, stderr } = await cli(["get-site", "--url", url], { env: token });
      assert.equal(code, 2);
      assert.match(stderr, /--url/);
    });
  }
  it("refuses a bad SERVICE_URL, and without any origin", async () => {
    assert.equal((await cli(["get-site"], { env: { ...token, SERVICE_URL: "http://example.com" } })).code, 2);
    const none = await cli(["get-site"], { env: token });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /no service origin/);
  });
});

describe("what the command sends (a local listener on the wire)", () => {
  let server;
  let origin;
  const seen = [];
  /** Scripted answers by path; each entry answers one request, the last one repeats. */
  const script = new Map();

  before(async () => {
    server = http.createServer((req, res) => {
      const chunks = [];
      req.on("data", (c) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks);
        seen.push({ method: req.method, url: req.url, headers: req.headers, body });
        const plan = script.get(req.url.split("?")[0]) ?? [{ status: 200, body: { ok: true } }];
        const step = plan.length > 1 ? plan.shift() : plan[0];
        res.writeHead(step.status, { "content-type": "application/json", ...(step.headers ?? {}) });
        res.end(JSON.stringify(step.body));
      });
    });
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${server.address().port}`;
  });
  after(() => server.close());

  const env = () => ({ SERVICE_MANAGEMENT_TOKEN: "dwm_wire", SERVICE_URL: origin });

  it("a read: bearer token, query flags, no Idempotency-Key, compact JSON on a pipe", async () => {
    seen.length = 0;
    script.set("/api/manage/v1/site", [{ status: 200, body: { id: "site_1", name: "Demo" } }]);
    const { code, stdout, stderr } = await cli(["get-site"], { env: env() });
    assert.equal(code, 0, stderr);
    assert.equal(stdout, '{"id":"site_1","name":"Demo"}\n');
    assert.equal(stderr, "");
    assert.equal(seen[0].method, "GET");
    assert.equal(seen[0].headers.authorization, "Bearer dwm_wire");
    assert.equal(seen[0].headers["idempotency-key"], undefined);
  });

  it("a write: a generated key on stderr and in the header; flags merged into --body; path escaped", async () => {
    seen.length = 0;
    const { code, stderr } = await cli(["publish-entry", "--id", "a/b c", "--expected-workflow-revision", "3", "--body", '{"expected_version_id":"ver_1"}'], { env: env() });
    assert.equal(code, 0, stderr);
    const key = /Idempotency-Key: (\S+)/.exec(stderr)?.[1];
    assert.ok(key);
    assert.equal(seen[0].method, "POST");
    assert.equal(seen[0].url, "/api/manage/v1/entries/a%2Fb%20c/publish");
    assert.equal(seen[0].headers["idempotency-key"], key);
    assert.equal(seen[0].headers["content-type"], "application/json");
    assert.deepEqual(JSON.parse(seen[0].body.toString()), { expected_version_id: "ver_1", expected_workflow_revision: 3 });
  });

  it("--key is sent as given; --body - reads stdin; @file reads a file", async () => {
    seen.length = 0;
    const dir = mkdtempSync(path.join(os.tmpdir(), "cli-test-"));
    writeFileSync(path.join(dir, "body.json"), '{"expected_version_id":"ver_2"}');
    const a = await cli(["publish-entry", "--id", "e1", "--key", "my-key-1", "--body", `@${path.join(dir, "body.json")}`], { env: env() });
    const b = await cli(["publish-entry", "--id", "e1", "--key", "my-key-1", "--body", "-"], { env: env(), input: '{"expected_version_id":"ver_3"}' });
    assert.equal(a.code, 0);
    assert.equal(b.code, 0);
    assert.match(a.stderr, /Idempotency-Key: my-key-1/);
    assert.equal(seen[0].headers["idempotency-key"], "my-key-1");
    assert.deepEqual(JSON.parse(seen[0].body.toString()), { expected_version_id: "ver_2" });
    assert.deepEqual(JSON.parse(seen[1].body.toString()), { expected_version_id: "ver_3" });
  });

  it("a refusal exits 1 with the answer on stdout; a 401 exits 2", async () => {
    script.set("/api/manage/v1/entries/missing", [{ status: 404, body: { error: { code: "not_found", message: "No such entry." } } }]);
    const refused = await cli(["get-entry", "--id", "missing"], { env: env() });
    assert.equal(refused.code, 1);
    assert.equal(JSON.parse(refused.stdout).error.code, "not_found");
    script.set("/api/manage/v1/entries/locked", [{ status: 401, body: { error: { code: "unauthorized", message: "No." } } }]);
    const unauthorized = await cli(["get-entry", "--id", "locked"], { env: env() });
    assert.equal(unauthorized.code, 2);
    assert.match(unauthorized.stderr, /credential was not accepted/);
  });

  it("429 and 409 idempotency_in_progress with Retry-After: waits and retries with the same key", async () => {
    seen.length = 0;
    const busy = { error: { code: "idempotency_in_progress", message: "Busy." } };
    script.set("/api/manage/v1/entries/r1/publish", [
      { status: 429, headers: { "retry-after": "1" }, body: { error: { code: "rate_limited", message: "Slow down." } } },
      { status: 409, headers: { "retry-after": "0" }, body: busy },
      { status: 200, body: { published: true } },
    ]);
    const { code, stdout, stderr } = await cli(["publish-entry", "--id", "r1"], { env: env() });
    assert.equal(code, 0, stderr);
    assert.deepEqual(JSON.parse(stdout), { published: true });
    assert.equal(seen.length, 3);
    assert.equal(new Set(seen.map((s) => s.headers["idempotency-key"])).size, 1);
    assert.match(stderr, /retrying in 1 s with the same key/);
  });

  it("advance-import --follow stopping at a Driftwood job's review names the commands that decide it (probe finding: it named the WordPress review)", async () => {
    seen.length = 0;
    const pending = (details) => ({ status: 409, body: { error: { code: "import_review_pending", message: "Choose…", ...details } } });
    script.set("/api/manage/v1/imports/jd/advance", [pending({ models: ["article", "note"] })]);
    const driftwood = await cli(["advance-import", "--id", "jd", "--follow"], { env: env() });
    assert.equal(driftwood.code, 0, driftwood.stderr);
    assert.match(driftwood.stderr, /models the site already has \(article, note\): get-import-mapping, then put-import-mapping --body '\{"models":\{"<slug>":"existing"\|"refuse"\}\}'/);
    assert.doesNotMatch(driftwood.stderr, /word-press/);
    script.set("/api/manage/v1/imports/jw/advance", [pending({ state: "review" })]);
    const wordpress = await cli(["advance-import", "--id", "jw", "--follow"], { env: env() });
    assert.equal(wordpress.code, 0, wordpress.stderr);
    assert.match(wordpress.stderr, /get-word-press-review, then decide-word-press-review/);
  });

  it("advance-import-undo --follow: undo steps (a new key each) with a progress line each, until the job leaves undoing", async () => {
    seen.length = 0;
    const job = (state) => ({ import: { id: "j1", state, progress: { items_total: 30, items_done: 30, findings: 2 } } });
    script.set("/api/manage/v1/imports/j1/undo", [{ status: 200, body: job("undoing") }, { status: 200, body: job("undoing") }, { status: 200, body: job("undone") }]);
    const { code, stdout, stderr } = await cli(["advance-import-undo", "--id", "j1", "--follow"], { env: env() });
    assert.equal(code, 0, stderr);
    assert.equal(JSON.parse(stdout).import.state, "undone");
    assert.equal(seen.length, 3);
    assert.equal(new Set(seen.map((r) => r.headers["idempotency-key"])).size, 3);
    assert.match(stderr, /^undoing: undo step 1, 2 findings$/m);
    assert.match(stderr, /^undone: undo step 3, 2 findings$/m);
  });

  it("upload-import-part --file again after the upload completed: the job already holds this file, nothing is sent (probe finding: exit 1, 409)", async () => {
    seen.length = 0;
    const dir = mkdtempSync(path.join(os.tmpdir(), "cli-upload-"));
    const file = path.join(dir, "export.xml");
    writeFileSync(file, "<rss><channel></channel></rss>");
    const digest = createHash("sha256").update(readFileSync(file)).digest("hex");
    script.set("/api/manage/v1/imports/j2", [{ status: 200, body: { import: { id: "j2", state: "parsing", file: { name: "export.xml", bytes: 30, sha256: digest } } } }]);
    const same = await cli(["upload-import-part", "--id", "j2", "--file", file], { env: env() });
    assert.equal(same.code, 0, same.stderr);
    assert.match(same.stderr, /already holds this file/);
    assert.equal(JSON.parse(same.stdout).import.state, "parsing");
    assert.deepEqual(seen.map((r) => r.method), ["GET"]);
    // Another file for a job that holds one: the parts are sent and the service refuses them.
    seen.length = 0;
    writeFileSync(file, "<rss><channel><item/></channel></rss>");
    script.set("/api/manage/v1/imports/j2/parts/1", [{ status: 409, body: { error: { code: "import_state_conflict", message: "No." } } }]);
    const other = await cli(["upload-import-part", "--id", "j2", "--file", file], { env: env() });
    assert.equal(other.code, 1);
    assert.deepEqual(seen.map((r) => r.method), ["GET", "PUT"]);
  });

  it("409 idempotency_in_progress without Retry-After: stops and prints the answer (exit 1)", async () => {
    seen.length = 0;
    script.set("/api/manage/v1/entries/r2/publish", [{ status: 409, body: { error: { code: "idempotency_in_progress", message: "Busy." } } }]);
    const { code, stdout } = await cli(["publish-entry", "--id", "r2"], { env: env() });
    assert.equal(code, 1);
    assert.equal(seen.length, 1);
    assert.equal(JSON.parse(stdout).error.code, "idempotency_in_progress");
  });

  it("a Retry-After that is neither delta-seconds nor an HTTP date counts as none: stop and print (exit 1)", async () => {
    for (const [id, value] of [["r5", "-1"], ["r6", "0.5"]]) {
      seen.length = 0;
      script.set(`/api/manage/v1/entries/${id}/publish`, [{ status: 429, headers: { "retry-after": value }, body: { error: { code: "rate_limited", message: "Slow down." } } }]);
      const { code, stdout } = await cli(["publish-entry", "--id", id], { env: env() });
      assert.equal(code, 1, value);
      assert.equal(seen.length, 1, value);
      assert.equal(JSON.parse(stdout).error.code, "rate_limited");
    }
  });

  it("gives up after a bounded number of attempts", async () => {
    seen.length = 0;
    script.set("/api/manage/v1/entries/r3/publish", [{ status: 429, headers: { "retry-after": "0" }, body: { error: { code: "rate_limited", message: "Slow down." } } }]);
    const { code } = await cli(["publish-entry", "--id", "r3"], { env: env() });
    assert.equal(code, 1);
    assert.equal(seen.length, 5);
  });

  it("http on a *.localhost name connects to 127.0.0.1 whatever the resolver says (the Host names the site)", async () => {
    seen.length = 0;
    const port = new URL(origin).port;
    const { code, stderr } = await cli(["get-site", "--url", `http://demo.localhost:${port}`], { env: { SERVICE_MANAGEMENT_TOKEN: "dwm_wire" } });
    assert.equal(code, 0, stderr);
    assert.equal(seen[0].headers.host, `demo.localhost:${port}`);
  });

  it("login refuses metadata whose issuer is not the origin, writing nothing (exit 2)", async () => {
    const config = mkdtempSync(path.join(os.tmpdir(), "cli-config-"));
    script.set("/.well-known/oauth-authorization-server", [{ status: 200, body: { issuer: "https://elsewhere.example", token_endpoint: `${origin}/api/oauth/token`, code_challenge_methods_supported: ["S256"] } }]);
    const { code, stderr } = await cli(["login", "--url", origin, "--no-open"], { env: { XDG_CONFIG_HOME: config } });
    assert.equal(code, 2);
    assert.match(stderr, /issuer/);
    assert.deepEqual(readdirSync(config), []);
    script.set("/.well-known/oauth-authorization-server", [{ status: 200, body: { issuer: origin, authorization_endpoint: `${origin}/connect`, token_endpoint: "https://elsewhere.example/token", registration_endpoint: `${origin}/r`, revocation_endpoint: `${origin}/v`, code_challenge_methods_supported: ["S256"] } }]);
    const offOrigin = await cli(["login", "--url", origin, "--no-open"], { env: { XDG_CONFIG_HOME: config } });
    assert.equal(offOrigin.code, 2);
    assert.match(offOrigin.stderr, /token_endpoint is not on/);
    assert.deepEqual(readdirSync(config), []);
  });

  it("an upload is multipart: the file part and the other fields as text parts", async () => {
    seen.length = 0;
    const dir = mkdtempSync(path.join(os.tmpdir(), "cli-test-"));
    const file = path.join(dir, "pixel.png");
    writeFileSync(file, Buffer.from("89504e470d0a1a0a", "hex"));
    const { code, stderr } = await cli(["upload-media", "--file", file, "--name", "Pixel.png", "--on-duplicate", "copy"], { env: env() });
    assert.equal(code, 0, stderr);
    assert.match(stderr, /Idempotency-Key: /);
    assert.match(seen[0].headers["content-type"], /^multipart\/form-data; boundary=/);
    const text = seen[0].body.toString("latin1");
    assert.match(text, /name="name"\r\n\r\nPixel\.png\r\n/);
    assert.match(text, /name="on_duplicate"\r\n\r\ncopy\r\n/);
    assert.match(text, /name="file"; filename="pixel.png"\r\nContent-Type: image\/png\r\n\r\n\x89PNG/);
    const bad = await cli(["upload-media", "--file", file, "--on-duplicate", "maybe"], { env: env() });
    assert.equal(bad.code, 2);
  });
});
