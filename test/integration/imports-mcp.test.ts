import { describe, expect, it } from "vitest";
import { seedSite } from "../helpers/fixtures";
import { credential } from "../helpers/manage-api";
import { listTools, toolResult } from "../helpers/mcp";
import { base64, sha256 } from "../helpers/imports-api";

const encoder = new TextEncoder();

describe("imports and exports over the remote MCP server", () => {
  it("upload_import_part takes content_base64, id and part; get_import_findings reads one page; read_export_chunk answers one byte range with the whole file's SHA-256", async () => {
    const s = await seedSite();
    const token = await credential(s);
    const tools = await listTools(s.host, token);
    const upload = tools.find((t) => t.name === "upload_import_part");
    expect(Object.keys((upload?.inputSchema as { properties: Record<string, unknown> }).properties).sort()).toEqual(["content_base64", "id", "idempotency_key", "part"]);
    for (const name of ["create_import_source", "create_import", "complete_import_upload", "advance_import", "get_import_findings", "get_word_press_review", "decide_word_press_review", "create_export", "advance_export", "read_export_chunk"]) {
      expect(tools.map((t) => t.name)).toContain(name);
    }

    const source = await toolResult<{ source: { id: string } }>(s.host, token, "create_import_source", { kind: "wordpress", name: "Over MCP" });
    const job = await toolResult<{ import: { id: string } }>(s.host, token, "create_import", { source_id: source.structuredContent.body.source.id, file_name: "bomb.xml" });
    const id = job.structuredContent.body.import.id;
    const file = encoder.encode(`<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]><rss><channel><title>&b;</title></channel></rss>`);
    const part = await toolResult<{ part: number; sha256: string }>(s.host, token, "upload_import_part", { id, part: "1", content_base64: base64(file) });
    expect(part.structuredContent).toMatchObject({ status: 200, body: { part: 1, sha256: await sha256(file) } });
    expect(part.structuredContent.idempotency_key).toBeTruthy();
    // A whole number is taken for the path parameter's digits: agents send `part: 1`.
    const numbered = await toolResult<{ part: number; sha256: string }>(s.host, token, "upload_import_part", { id, part: 1, content_base64: base64(file) });
    expect(numbered.structuredContent).toMatchObject({ status: 200, body: { part: 1, sha256: await sha256(file) } });
    // Only a whole number, only for the part: a fraction, a negative or zero part and a number for the id answer 400.
    for (const args of [{ id, part: 1.5 }, { id, part: -1 }, { id, part: 0 }, { id: 1, part: 1 }]) {
      const refused = await toolResult<{ error: { code: string } }>(s.host, token, "upload_import_part", { ...args, content_base64: base64(file) });
      expect(refused.structuredContent, JSON.stringify(args)).toMatchObject({ status: 400, body: { error: { code: "invalid_request" } } });
    }
    await toolResult(s.host, token, "complete_import_upload", { id, sha256: await sha256(file) });
    const failed = await toolResult<{ import: { state: string } }>(s.host, token, "advance_import", { id });
    expect(failed.structuredContent.body.import.state).toBe("failed");
    const findings = await toolResult<{ findings: { code: string; details: { reason: string } }[]; next_cursor: string | null }>(s.host, token, "get_import_findings", { id });
    expect(findings.structuredContent.body.findings.map((f) => [f.code, f.details.reason])).toEqual([["import_file_invalid", "entity_declaration"]]);
    expect(findings.structuredContent.body.next_cursor).toBeNull();

    const created = await toolResult<{ export: { id: string; state: string } }>(s.host, token, "create_export", {});
    const exportId = created.structuredContent.body.export.id;
    let state = created.structuredContent.body.export.state;
    for (let i = 0; i < 10 && state === "building"; i++) state = (await toolResult<{ export: { state: string } }>(s.host, token, "advance_export", { id: exportId })).structuredContent.body.export.state;
    expect(state).toBe("finished");
    const chunk = await toolResult<{ content_base64: string; content_type: string; offset: number; length: number; total: number; next_offset: number | null; sha256: string; page: number; next_page: number | null }>(s.host, token, "read_export_chunk", { id: exportId, offset: "0", length: "40" });
    const body = chunk.structuredContent.body;
    expect(body).toMatchObject({ content_type: "application/x-ndjson", offset: 0, length: 40, next_offset: 40, page: 1, next_page: 1 });
    expect(atob(body.content_base64)).toBe('{"format":"driftwood-export","version":1');
    expect(body.sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});
