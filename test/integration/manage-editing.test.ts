import { describe, expect, it } from "vitest";
import * as lifecycle from "../../shared/services/lifecycle";
import { createManagementCredential } from "../../shared/services/credentials/management-credentials";
import { apply, blogModels, seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";

type Err = { error: { code: string; [k: string]: unknown } };
interface Lease {
  lease: { instance_id: string; token: string; holder: string; expires_at: string };
}

describe("management API: editing leases (/entries/{id}/editing)", () => {
  it("takes, renews, takes over and releases a lease without an Idempotency-Key; others' writes are locked", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const entry = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: author.id, fields: { name: "Ann" } }));
    const mine = await credential(s, ["content:read", "content:write"]);
    const editor = await s.person("editor");
    // A second person, who may create credentials, editing the same entry.
    const other = await createManagementCredential(s.ctx({ ...editor, permissions: { ...editor.permissions, system: [...editor.permissions.system, "site:settings"] } }), {
      name: "other",
      scopes: ["content:read", "content:write"],
    });
    const path = `/entries/${entry.instance_id}/editing`;

    const taken = await manage<Lease>(mine, "POST", path, { body: {}, key: null });
    expect(taken.status).toBe(201);
    expect(taken.body.lease).toMatchObject({ instance_id: entry.instance_id, holder: s.adminId });
    const token = taken.body.lease.token;

    // Someone else: cannot take it, cannot save.
    const refused = await manage<Err>(other.token, "POST", path, { body: {}, key: null });
    expect(refused.status).toBe(423);
    expect(refused.body.error).toMatchObject({ code: "locked", held_by: s.adminId });
    const blocked = await manage<Err>(other.token, "PUT", `/entries/${entry.instance_id}`, { body: { expected_version_id: entry.current_version_id, fields: { name: "Bob" } } });
    expect(blocked.status).toBe(423);
    expect(blocked.body.error.code).toBe("locked");

    // The holder saves with its token and renews.
    const saved = await manage<{ current_version_id: string }>(mine, "PUT", `/entries/${entry.instance_id}`, {
      body: { expected_version_id: entry.current_version_id, fields: { name: "Ann B." } },
      headers: { "x-editing-token": token },
    });
    expect(saved.status).toBe(200);
    expect((await manage<Lease>(mine, "PUT", path, { body: { token }, key: null })).status).toBe(200);

    // Take-over: the first holder's next write with its token is lock_lost.
    const over = await manage<Lease>(other.token, "POST", `${path}/take-over`, { body: {}, key: null });
    expect(over.status).toBe(200);
    expect(over.body.lease.holder).toBe(editor.id);
    const lost = await manage<Err>(mine, "PUT", `/entries/${entry.instance_id}`, {
      body: { expected_version_id: saved.body.current_version_id, fields: { name: "Ann C." } },
      headers: { "x-editing-token": token },
    });
    expect(lost.status).toBe(423);
    expect(lost.body.error.code).toBe("lock_lost");
    expect((await manage<Err>(mine, "PUT", path, { body: { token }, key: null })).body.error.code).toBe("lock_lost");

    // Release frees it for everyone.
    expect((await manage<{ released: boolean }>(other.token, "DELETE", path, { body: { token: over.body.lease.token }, key: null })).body).toEqual({ released: true });
    expect((await manage<Lease>(mine, "POST", path, { body: {}, key: null })).status).toBe(201);
  });

  it("needs content:write, a writable entry, and a closed body", async () => {
    const s = await seedSite();
    const { author } = await blogModels(s.ctx());
    const entry = await apply(s.ctx(), lifecycle.createEntry(s.ctx(), { model_id: author.id, fields: { name: "Ann" } }));
    const reader = await credential(s, ["content:read"]);
    expect((await manage<Err>(reader, "POST", `/entries/${entry.instance_id}/editing`, { body: {}, key: null })).body.error.code).toBe("insufficient_scope");
    const writer = await credential(s, ["content:read", "content:write"]);
    expect((await manage<Err>(writer, "POST", "/entries/ent_missing/editing", { body: {}, key: null })).status).toBe(404);
    expect((await manage<Err>(writer, "POST", `/entries/${entry.instance_id}/editing`, { body: { extra: 1 }, key: null })).body.error.code).toBe("invalid_request");
  });
});
