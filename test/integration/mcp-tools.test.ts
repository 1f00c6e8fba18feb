import { env } from "cloudflare:test";
import { toJsonSchema } from "@valibot/to-json-schema";
import { describe, expect, it } from "vitest";
import * as v from "valibot";
import type { RouteSpec } from "../../schema/contract";
import { manageSurface } from "../../schema/manage-api";
import { operationTool, surfaceTools } from "../../schema/mcp-tools";
import { WholeNumberPath } from "../../schema/whole-number-path";
import { CreateEntryBody } from "../../schema/manage-entries";
import { ALL_SCOPES } from "../../schema/scopes";
import { createManagementCredential } from "../../shared/services/credentials/management-credentials";
import type { EntryView } from "../../shared/services/lifecycle";
import { blogModels, seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { callTool, listTools, toolResult, type ListedTool } from "../helpers/mcp";
import { publicGet } from "../helpers/public-api";

/**
 * Tools of the remote MCP server (docs/mcp.md, "Tools"): generated from the management route
 * table, listed by scope, called through the management API's own checks. Plugin tools are in
 * mcp-plugin-tools.test.ts; the transport in mcp-remote.test.ts.
 */

type Err = { error: { code: string; [k: string]: unknown } };
type Replayable = EntryView & { replayed?: boolean };

/** Operations that are no tool on the remote server: only a binary answer (docs/mcp.md, "Omitted operations"). */
const OMITTED = ["getGeneratedBackend"];

/** Snake case written independently of the server's: every capital becomes `_` + lower case. */
const snake = (operationId: string) => operationId.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

const byName = (tools: ListedTool[]) => new Map(tools.map((t) => [t.name, t]));

describe("remote MCP tools: generated from the route table", () => {
  it("has one tool per management operation, named in snake case of its operation id, uploads included", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const names = (await listTools(s.host, token)).map((t) => t.name);
    const expected = manageSurface.routes.filter((r) => !OMITTED.includes(r.operationId)).map((r) => snake(r.operationId));
    expect(names).toEqual(expected);
    // The multipart uploads are tools too, taking content_base64 and file_name.
    expect(manageSurface.routes.filter((r) => r.multipart).map((r) => r.operationId).sort()).toEqual(["replaceMedia", "setMediaOriginal", "uploadMedia"]);
    expect(names).toContain("upload_media");
    expect(names).toContain("replace_media");
    for (const name of ["get_site", "create_entry", "get_entry", "publish_entry", "add_entry_language", "list_plugin_manage_views", "launch_plugin_content_action", "replace_model_definition", "move_media"]) {
      expect(names).toContain(name);
    }
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9_]{0,63}$/);
  });

  it("takes path, query and body arguments side by side, with JSON Schema from the same valibot schemas", async () => {
    const s = await seedSite();
    const tools = byName(await listTools(s.host, await credential(s)));
    const create = tools.get("create_entry");
    expect(Object.keys(create?.inputSchema.properties ?? {})).toEqual(["model_id", "lang", "slug", "fields", "idempotency_key"]);
    expect(create?.inputSchema.required).toEqual(["model_id", "fields"]);
    expect(create?.inputSchema.additionalProperties).toBe(false);
    const bodySchema = toJsonSchema(CreateEntryBody, { target: "draft-2020-12", typeMode: "input", errorMode: "ignore" }) as { properties: Record<string, unknown> };
    expect(create?.inputSchema.properties.lang).toEqual(bodySchema.properties.lang);
    expect(create?.inputSchema.properties.fields).toEqual(bodySchema.properties.fields);
    expect(create?.inputSchema.properties.idempotency_key).toMatchObject({ type: "string", minLength: 1, maxLength: 128 });
    expect(tools.get("get_entry")?.inputSchema).toMatchObject({ type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false });
    expect(Object.keys(tools.get("restore_entry_version")?.inputSchema.properties ?? {})).toEqual(["id", "version_id", "expected_version_id", "idempotency_key"]);
    expect(tools.get("restore_entry_version")?.inputSchema.required).toEqual(["id", "version_id"]);
    expect(Object.keys(tools.get("list_entries")?.inputSchema.properties ?? {})).toEqual(["model_id", "lang", "state", "q", "slug", "translation_group_id", "sort", "cursor", "limit"]);
    expect(tools.get("list_entries")?.inputSchema.required).toEqual([]);
    // Reads and the writes that take no key (editing leases, launches, preview) have no idempotency_key.
    for (const name of ["get_site", "list_entries", "start_editing", "launch_plugin_manage_view", "preview_entry"]) {
      expect(tools.get(name)?.inputSchema.properties, name).not.toHaveProperty("idempotency_key");
    }
    for (const name of ["save_entry", "publish_entry", "create_model", "update_settings", "move_media"]) {
      expect(tools.get(name)?.inputSchema.properties, name).toHaveProperty("idempotency_key");
    }
  });

  it("takes a JSON number only for the path parameters the route table declares whole numbers, derived with no list of names", () => {
    // Over the management surface: only an upload's part (the HTTP test is imports-mcp.test.ts).
    const declared = [...surfaceTools(manageSurface).tools.values()].filter((t) => t.wholeNumberParams.length > 0).map((t) => [t.description.name, t.wholeNumberParams]);
    expect(declared).toEqual([["upload_import_part", ["part"]]]);
    // A new route declaring one is derived as it is; ids, and digits declared as a plain string, are not.
    const route: RouteSpec = {
      operationId: "readPage",
      method: "get",
      path: "/books/{id}/pages/{page}/lines/{line}",
      summary: "A line of a page",
      params: v.strictObject({ id: v.string(), page: WholeNumberPath(3), line: v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,3}$/)) }),
      response: v.object({}),
      errors: [],
    };
    const tool = operationTool(route);
    expect(tool.params).toEqual(["id", "page", "line"]);
    expect(tool.wholeNumberParams).toEqual(["page"]);
    // The declaration is kept beside the schema: the tool's JSON Schema (and OpenAPI) still say a string of digits.
    expect(tool.description.inputSchema).toMatchObject({ properties: { page: { type: "string", pattern: "^[1-9][0-9]{0,2}$" } } });
  });

  it("sets readOnlyHint, destructiveHint and idempotentHint from the route table", async () => {
    const s = await seedSite();
    const tools = byName(await listTools(s.host, await credential(s)));
    const hints = (name: string) => {
      const a = tools.get(name)?.annotations;
      return [a?.readOnlyHint, a?.destructiveHint, a?.idempotentHint];
    };
    expect(hints("get_entry")).toEqual([true, false, true]);
    expect(hints("list_media")).toEqual([true, false, true]);
    expect(hints("create_entry")).toEqual([false, false, false]);
    expect(hints("save_entry")).toEqual([false, false, true]);
    expect(hints("publish_entry")).toEqual([false, false, true]);
    expect(hints("unpublish_entry")).toEqual([false, true, true]);
    expect(hints("purge_entry")).toEqual([false, true, true]);
    expect(hints("trash_entry")).toEqual([false, true, true]);
    expect(hints("update_settings")).toEqual([false, true, true]);
    expect(hints("take_over_editing")).toEqual([false, true, false]);
    expect(hints("review_redirects")).toEqual([true, false, true]);
    for (const route of manageSurface.routes.filter((r) => !OMITTED.includes(r.operationId) && !r.multipart)) {
      const a = tools.get(snake(route.operationId))?.annotations;
      // A POST that only reads (RouteSpec.readOnly: the redirect review) is read-only like a GET.
      expect(a?.readOnlyHint, route.operationId).toBe(route.method === "get" || route.readOnly === true);
      expect(a?.destructiveHint, route.operationId).toBe(route.destructive === true);
    }
  });

  it("lists only the tools the credential's scopes allow: a read-only credential sees no write tools", async () => {
    const s = await seedSite();
    const readOnly = await listTools(s.host, await credential(s, ["content:read"]));
    expect(readOnly.map((t) => t.name)).toEqual(manageSurface.routes.filter((r) => r.scope === "content:read" && !r.multipart).map((r) => snake(r.operationId)));
    for (const tool of readOnly) {
      // preview_entry mints a preview link and writes nothing lasting (content:read in spec 2).
      if (tool.name !== "preview_entry") expect(tool.annotations.readOnlyHint, tool.name).toBe(true);
    }
    for (const name of ["create_entry", "save_entry", "publish_entry", "trash_entry", "create_model", "update_settings", "list_plugins"]) {
      expect(readOnly.map((t) => t.name)).not.toContain(name);
    }
    const writer = (await listTools(s.host, await credential(s, ["content:write"]))).map((t) => t.name);
    expect(writer).toContain("create_entry");
    expect(writer).toContain("save_entry");
    expect(writer).not.toContain("publish_entry");
    expect(writer).not.toContain("purge_entry");
  });
});

describe("remote MCP tools: calls", () => {
  it("answers a read with the HTTP API's status and body, as structuredContent and the same JSON text", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const token = await credential(s);
    const created = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: article.id, fields: { title: "Read me" } } });
    const read = await toolResult<EntryView>(s.host, token, "get_entry", { id: created.body.instance_id });
    expect(read.isError).toBe(false);
    expect(read.structuredContent).toEqual({ status: 200, body: (await manage(token, "GET", `/entries/${created.body.instance_id}`)).body });
    expect(read.content).toEqual([{ type: "text", text: JSON.stringify(read.structuredContent) }]);
    const list = await toolResult<{ data: EntryView[] }>(s.host, token, "list_entries", { model_id: article.id, limit: 5 });
    expect(list.structuredContent.status).toBe(200);
    expect(list.structuredContent.body.data.map((e) => e.instance_id)).toEqual([created.body.instance_id]);
    expect(list.structuredContent).not.toHaveProperty("idempotency_key");
  });

  it("creates and publishes an entry through tools: key generated or given, returned, replayed, audited as the credential", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const cred = await createManagementCredential(s.ctx(), { name: "agent", scopes: [...ALL_SCOPES] });
    const token = cred.token;
    const args = { model_id: article.id, fields: { title: "Hello MCP" } };
    const created = await toolResult<Replayable>(s.host, token, "create_entry", args);
    expect(created.isError).toBe(false);
    expect(created.structuredContent.status).toBe(201);
    const key = created.structuredContent.idempotency_key ?? "";
    expect(key).toMatch(/^mcp-[0-9a-f-]{36}$/);
    const id = created.structuredContent.body.instance_id;

    // The same key and arguments again: the first answer, replayed; nothing new written.
    const replay = await toolResult<Replayable>(s.host, token, "create_entry", { ...args, idempotency_key: key });
    expect(replay.structuredContent).toEqual({ status: 201, idempotency_key: key, body: { ...created.structuredContent.body, replayed: true } });
    // The HTTP API shares the key space and the fingerprint: the same request over HTTP replays too.
    const overHttp = await manage<Replayable>(token, "POST", "/entries", { key, body: args });
    expect(overHttp.body).toEqual({ ...created.structuredContent.body, replayed: true });
    // The same key with other arguments: refused, keeping its HTTP status and code.
    const reused = await toolResult<Err>(s.host, token, "create_entry", { ...args, fields: { title: "Other" }, idempotency_key: key });
    expect(reused.isError).toBe(true);
    expect(reused.structuredContent).toMatchObject({ status: 409, idempotency_key: key, body: { error: { code: "idempotency_key_reused" } } });
    expect((await env.DB.prepare("SELECT count(*) AS n FROM entries WHERE site_id = ?").bind(s.site.id).first<{ n: number }>())?.n).toBe(1);

    const publishKey = "agent-publish-1";
    const published = await toolResult<Replayable>(s.host, token, "publish_entry", { id, expected_version_id: created.structuredContent.body.current_version_id, idempotency_key: publishKey });
    expect(published.structuredContent.status).toBe(200);
    expect(published.structuredContent.idempotency_key).toBe(publishKey);
    expect(published.structuredContent.body.workflow.state).toBe("published");
    const again = await toolResult<Replayable>(s.host, token, "publish_entry", { id, expected_version_id: created.structuredContent.body.current_version_id, idempotency_key: publishKey });
    expect(again.structuredContent.body.replayed).toBe(true);
    // Publish keeps its answer 30 days, as over HTTP.
    const kept = await env.DB.prepare("SELECT created_at, expires_at FROM idempotency_results WHERE site_id = ? AND key = ?").bind(s.site.id, publishKey).first<{ created_at: string; expires_at: string }>();
    expect(Date.parse(kept?.expires_at ?? "") - Date.parse(kept?.created_at ?? "")).toBe(30 * 24 * 3600 * 1000);
    expect((await publicGet<{ data: { fields: { title: string } } }>(s.host, "/v1/article/hello-mcp")).body.data.fields.title).toBe("Hello MCP");

    const audit = await env.DB.prepare("SELECT action, actor_kind, credential_id FROM audit_log WHERE site_id = ? AND target_id = ? ORDER BY at").bind(s.site.id, id).all<{ action: string; actor_kind: string; credential_id: string }>();
    expect(audit.results.map((r) => r.action)).toEqual(["entry.create", "entry.publish"]);
    for (const row of audit.results) expect(row).toMatchObject({ actor_kind: "management_credential", credential_id: cred.id });
  });

  it("keeps a refusal's HTTP status and code inside structuredContent with isError", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const token = await credential(s);
    const missing = await toolResult<Err>(s.host, token, "get_entry", { id: "ent_missing" });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent).toMatchObject({ status: 404, body: { error: { code: "not_found" } } });
    const created = await toolResult<EntryView>(s.host, token, "create_entry", { model_id: article.id, fields: { title: "Stale" } });
    const id = created.structuredContent.body.instance_id;
    const first = await toolResult<EntryView>(s.host, token, "save_entry", { id, expected_version_id: created.structuredContent.body.current_version_id, fields: { summary: "A" } });
    expect(first.structuredContent.status).toBe(200);
    const stale = await toolResult<Err>(s.host, token, "save_entry", { id, expected_version_id: created.structuredContent.body.current_version_id, fields: { summary: "B" } });
    expect(stale).toMatchObject({ isError: true, structuredContent: { status: 409, body: { error: { code: "version_conflict" } } } });
    const invalid: [string, Record<string, unknown>][] = [
      ["create_entry", { model_id: article.id, fields: { title: "X" }, extra: 1 }],
      ["create_entry", { model_id: article.id }],
      ["create_entry", { model_id: article.id, fields: { title: "X" }, idempotency_key: "has space" }],
      ["create_entry", { model_id: article.id, fields: { title: "X" }, idempotency_key: 12 }],
      ["create_entry", { model_id: article.id, fields: { title: "X" }, idempotency_key: "k".repeat(129) }],
      ["get_entry", {}],
      ["get_entry", { id: 42 }],
      ["get_entry", { id: created.structuredContent.body.instance_id, extra: "x" }],
      ["list_entries", { limit: { n: 1 } }],
      ["list_entries", { limit: "0" }],
      ["create_entry", JSON.parse(`{"model_id":"${article.id}","fields":{"title":"X"},"__proto__":{"a":1}}`) as Record<string, unknown>],
    ];
    for (const [name, args] of invalid) {
      const res = await toolResult<Err>(s.host, token, name, args);
      expect(res.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(res.structuredContent.status, `${name} ${JSON.stringify(args)}`).toBe(400);
      expect(res.structuredContent.body.error.code).toBe("invalid_request");
    }
    // A path argument cannot reach another route: it is one percent-encoded segment.
    const traversal = await toolResult<Err>(s.host, token, "get_entry", { id: `${id}/versions` });
    expect(traversal.structuredContent.status).toBe(404);
    expect((await env.DB.prepare("SELECT count(*) AS n FROM entries WHERE site_id = ?").bind(s.site.id).first<{ n: number }>())?.n).toBe(1);
  });

  it("answers an unknown tool, or one outside the credential's scopes, with JSON-RPC -32602 Unknown tool and writes nothing", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const readOnly = await credential(s, ["content:read"]);
    for (const [token, name] of [
      [readOnly, "create_entry"],
      [readOnly, "list_plugins"],
      [readOnly, "upload_media"],
      [await credential(s), "no_such_tool"],
      [await credential(s), "createEntry"],
      [await credential(s), "plugin_helper_view_dashboard"],
    ] as const) {
      const res = await callTool(s.host, token, name, { model_id: article.id, fields: { title: "No" } });
      expect(res.status, name).toBe(200);
      expect(res.body.error, name).toEqual({ code: -32602, message: `Unknown tool: ${name}` });
    }
    for (const params of [{}, { name: 7 }, { name: "get_site", arguments: [] }, { name: "get_site", arguments: "x" }]) {
      const res = await callTool(s.host, readOnly, params.name as string, params.arguments as unknown as Record<string, unknown>);
      expect(res.body.error?.code, JSON.stringify(params)).toBe(-32602);
    }
    expect((await env.DB.prepare("SELECT count(*) AS n FROM entries WHERE site_id = ?").bind(s.site.id).first<{ n: number }>())?.n).toBe(0);
  });
});
