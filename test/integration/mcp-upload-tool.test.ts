import { describe, expect, it } from "vitest";
import { seedSite } from "../helpers/fixtures";
import { credential } from "../helpers/manage-api";
import { listTools, toolResult } from "../helpers/mcp";
import { elf, png } from "../helpers/media-samples";

/**
 * The remote MCP upload tools (spec 2, "Command line and MCP"; docs/mcp.md, "Upload tools"): the
 * file as `content_base64` + `file_name` (at most 8 MiB decoded), the same checks and answer as
 * the HTTP upload.
 */

type Upload = { media: { id: string; kind: string; width: number | null }; reused?: boolean; replayed?: boolean };
type Err = { error: { code: string; max?: number } };

const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

describe("remote MCP: upload tools", () => {
  it("lists upload_media with content_base64 and file_name, and uploads as HTTP does", async () => {
    const s = await seedSite();
    const token = await credential(s, ["content:read", "media:write"]);
    const tool = (await listTools(s.host, token)).find((t) => t.name === "upload_media");
    expect(tool?.inputSchema.required).toEqual(["content_base64", "file_name"]);
    expect(Object.keys(tool?.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(["content_base64", "file_name", "alt_texts", "on_duplicate", "idempotency_key"]));

    const bytes = png(3, 2, "mcp upload");
    const first = await toolResult<Upload>(s.host, token, "upload_media", { content_base64: base64(bytes), file_name: "pixel.png", alt_texts: JSON.stringify({ en: "A pixel" }), idempotency_key: "mcp-upload-1" });
    expect(first.structuredContent.status).toBe(201);
    expect(first.structuredContent.body.media).toMatchObject({ kind: "image", width: 3 });
    const replay = await toolResult<Upload>(s.host, token, "upload_media", { content_base64: base64(bytes), file_name: "pixel.png", alt_texts: JSON.stringify({ en: "A pixel" }), idempotency_key: "mcp-upload-1" });
    expect(replay.structuredContent.body).toMatchObject({ media: { id: first.structuredContent.body.media.id }, replayed: true });
    // The same bytes again under another key: the HTTP upload's duplicate answer.
    const duplicate = await toolResult<Err>(s.host, token, "upload_media", { content_base64: base64(bytes), file_name: "again.png" });
    expect(duplicate.structuredContent).toMatchObject({ status: 409, body: { error: { code: "media_duplicate" } } });
  });

  it("refuses a program, malformed base64, a missing name and more than 8 MiB decoded", async () => {
    const s = await seedSite();
    const token = await credential(s, ["content:read", "media:write"]);
    const program = await toolResult<Err>(s.host, token, "upload_media", { content_base64: base64(elf()), file_name: "tool.png" });
    expect(program.structuredContent).toMatchObject({ status: 422, body: { error: { code: "executable_file" } } });
    const malformed = await toolResult<Err>(s.host, token, "upload_media", { content_base64: "not base64!", file_name: "x.png" });
    expect(malformed.structuredContent).toMatchObject({ status: 400, body: { error: { code: "invalid_request" } } });
    const nameless = await toolResult<Err>(s.host, token, "upload_media", { content_base64: base64(png()) });
    expect(nameless.structuredContent).toMatchObject({ status: 400, body: { error: { code: "invalid_request" } } });
    const big = "A".repeat(Math.ceil((8 * 1024 * 1024 + 3) / 3) * 4);
    const tooBig = await toolResult<Err>(s.host, token, "upload_media", { content_base64: big, file_name: "big.png" });
    expect(tooBig.structuredContent).toMatchObject({ status: 413, body: { error: { code: "payload_too_large", max: 8 * 1024 * 1024 } } });
  });
});
