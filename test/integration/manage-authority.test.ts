import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import * as lifecycle from "../../shared/services/lifecycle";
import { createManagementCredential } from "../../shared/services/credentials/management-credentials";
import { apply, blogModels, seedSite } from "../helpers/fixtures";
import { manage } from "../helpers/manage-api";

type Err = { error: { code: string } };

describe("management API: authority re-read on every request", () => {
  it("a credential's publish needs the creator's update now, not only at creation (spec 2, Scopes: lifecycle:publish)", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const created = await createManagementCredential(s.ctx(), { name: "publisher", scopes: ["content:read", "lifecycle:publish"] });
    const first = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: author.id, fields: { name: "Ann" } }));
    const second = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: author.id, fields: { name: "Bob" } }));
    expect((await manage(created.token, "POST", `/entries/${first.instance_id}/publish`, { body: {} })).status).toBe(200);

    // The creator's role keeps publish and unpublish but loses update.
    const role = await env.DB.prepare("SELECT permissions FROM roles WHERE site_id = ? AND slug = 'admin'").bind(s.site.id).first<{ permissions: string }>();
    const permissions = JSON.parse(role?.permissions ?? "{}") as { models: Record<string, string[]> };
    permissions.models = { "*": ["read", "create", "delete", "publish", "unpublish", "restore"] };
    await env.DB.prepare("UPDATE roles SET permissions = ?, revision = revision + 1 WHERE site_id = ? AND slug = 'admin'").bind(JSON.stringify(permissions), s.site.id).run();
    const publish = await manage<Err>(created.token, "POST", `/entries/${second.instance_id}/publish`, { body: {} });
    expect(publish.status).toBe(403);
    const unpublish = await manage<Err>(created.token, "POST", `/entries/${first.instance_id}/unpublish`, { body: {} });
    expect(unpublish.status).toBe(403);
    const rows = await env.DB.prepare("SELECT instance_id, workflow_state FROM entries WHERE instance_id IN (?, ?) ORDER BY instance_id").bind(first.instance_id, second.instance_id).all<{ instance_id: string; workflow_state: string }>();
    expect(Object.fromEntries(rows.results.map((r) => [r.instance_id, r.workflow_state]))).toEqual({ [first.instance_id]: "published", [second.instance_id]: "draft" });
  });
});
