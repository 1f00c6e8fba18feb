import { describe, expect, it } from "vitest";
import { adminCall, signIn } from "../helpers/admin-api";
import { blogModels, seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { installTestPlugin, pluginCall } from "../helpers/plugins";

/**
 * Every JSON body of the admin, management and plugin surfaces goes through one reader
 * (docs/management-api.md, "Request bodies"): a size cap on the raw bytes, streamed, before
 * parsing (413 payload_too_large; the plugin protocol: 400 invalid_request in its envelope) and a
 * nesting depth limit (400 invalid_request) before any code walks the value.
 */

type Err = { error: { code: string; max?: number } };

/** `{"model_id": …, "fields": {"name": [[[…]]]}}` nested `depth` arrays deep, as text. */
const deepEntry = (modelId: string, depth: number) => `{"model_id":${JSON.stringify(modelId)},"fields":{"name":${"[".repeat(depth)}${"]".repeat(depth)}}}`;

/** A body of `chunks` × 64 KiB of spaces sent without Content-Length; counts the chunks pulled. */
function endlessBody(chunks: number): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let pulled = 0;
  const chunk = new TextEncoder().encode(" ".repeat(64 * 1024));
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= chunks) return controller.close();
      pulled++;
      controller.enqueue(chunk);
    },
  });
  return { stream, pulled: () => pulled };
}

async function manageSetup() {
  const s = await seedSite();
  const models = await blogModels(s.ctx());
  return { s, models, token: await credential(s) };
}

describe("management API bodies", () => {
  it("answers a body nested 20,000 levels deep with 400 invalid_request, not a crash", async () => {
    const { models, token } = await manageSetup();
    const res = await manage<Err>(token, "POST", "/entries", { rawBody: deepEntry(models.author.id, 20_000) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
  });

  it("refuses nesting past the limit; brackets inside strings are not nesting", async () => {
    const { models, token } = await manageSetup();
    const tooDeep = await manage<Err>(token, "POST", "/entries", { rawBody: deepEntry(models.author.id, 63) });
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.error.code).toBe("invalid_request");
    // Brackets inside strings are text, not nesting.
    const bracketsInText = await manage(token, "POST", "/entries", { rawBody: JSON.stringify({ model_id: models.author.id, fields: { name: 'Ada [{"\\'.repeat(20) } }) });
    expect(bracketsInText.status, JSON.stringify(bracketsInText.body)).toBe(201);
  });

  it("answers a body over 1 MiB with 413 payload_too_large, by Content-Length", async () => {
    const { models, token } = await manageSetup();
    const body = JSON.stringify({ model_id: models.author.id, fields: { name: "x".repeat(1024 * 1024) } });
    const res = await manage<Err>(token, "POST", "/entries", { rawBody: body });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("payload_too_large");
    expect(res.body.error.max).toBe(1024 * 1024);
  });

  it("stops reading a streamed body at the cap", async () => {
    const { token } = await manageSetup();
    const body = endlessBody(64); // 4 MiB if read to the end
    const res = await manage<Err>(token, "POST", "/entries", { rawBody: body.stream });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("payload_too_large");
    expect(body.pulled()).toBeLessThan(64);
  });

  it("still takes a large body within the cap (a 300 KiB rich-text value)", async () => {
    const { models, token } = await manageSetup();
    const res = await manage<Err>(token, "POST", "/entries", { body: { model_id: models.article.id, fields: { title: "Long", body: `<p>${"a".repeat(250 * 1024)}</p>` } } });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(201);
  });
});

describe("admin bodies", () => {
  it("answers a body over 64 KiB with 413 payload_too_large, streamed or declared", async () => {
    const s = await seedSite();
    const session = await signIn(`${s.site.slug}@example.test`);
    const declared = await adminCall<Err>(session, "POST", "/api/webhooks", { siteId: s.site.id, body: { url: "https://hooks.example.test/x", events: ["*"], pad: "x".repeat(64 * 1024) } });
    expect(declared.status).toBe(413);
    expect(declared.body.error.code).toBe("payload_too_large");
    const body = endlessBody(64);
    const streamed = await adminCall<Err>(session, "POST", "/api/webhooks", { siteId: s.site.id, rawBody: body.stream });
    expect(streamed.status).toBe(413);
    expect(body.pulled()).toBeLessThan(64);
  });

  it("answers a deeply nested body with 400 invalid_request", async () => {
    const s = await seedSite();
    const session = await signIn(`${s.site.slug}@example.test`);
    const res = await adminCall<Err>(session, "POST", "/api/webhooks", { siteId: s.site.id, rawBody: `{"url":"https://hooks.example.test/x","events":${"[".repeat(20_000)}${"]".repeat(20_000)}}` });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
  });

  it("stops reading a streamed plugin manifest past 32768 bytes: 400 manifest_too_large", async () => {
    const s = await seedSite();
    const session = await signIn(`${s.site.slug}@example.test`);
    const body = endlessBody(64);
    const res = await adminCall<Err>(session, "POST", "/api/plugins", { siteId: s.site.id, rawBody: body.stream });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("manifest_too_large");
    expect(body.pulled()).toBeLessThan(64);
  });

  it("answers a deeply nested plugin manifest with 400 invalid_request", async () => {
    const s = await seedSite();
    const session = await signIn(`${s.site.slug}@example.test`);
    const res = await adminCall<Err>(session, "POST", "/api/plugins", { siteId: s.site.id, rawBody: `{"id":"deep","input":${"[".repeat(10_000)}${"]".repeat(10_000)}}` });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
  });
});

describe("plugin protocol bodies", () => {
  it("answers a deeply nested body with 400 invalid_request in the outcome envelope", async () => {
    const s = await seedSite();
    const models = await blogModels(s.ctx());
    const plugin = await installTestPlugin(s, { modelIds: [models.article.id] });
    const res = await pluginCall(plugin.token, "POST", "/launch/exchange", { rawBody: `{"code":${"[".repeat(5000)}${"]".repeat(5000)}}` });
    expect(res.status).toBe(400);
    expect(res.body.outcome).toMatchObject({ code: "invalid_request", retry: false });
  });
});
