import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { adminCall, emailOf, roleId, signIn, withoutRequestId } from "../helpers/admin-api";
import { blogModels, seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";

/**
 * Authorise first, then reveal (issue #9 item 4), on the routes a second black-box run found
 * answering a real thing the person may not read differently from a made-up id: model proposal
 * dismiss and apply, a model's manual order, entry proposal apply and reject (admin host), model
 * removal and the content-actions filter (management API). Each pair must be byte-identical apart
 * from the request id, and nothing may be written.
 */

type Err = { error: { code: string } };
type ModelRead = { updated_at: string; revision: number; definition: { model: Record<string, unknown>; fields: Record<string, unknown>[] } };

const MADE_UP = { proposal: `prp_${"A".repeat(21)}`, modelProposal: `mpr_${"A".repeat(21)}`, model: `mdl_${"A".repeat(21)}`, entry: `ent_${"A".repeat(21)}` };

/**
 * A site where the admin (with every permission) proposed a change to the author model and a
 * change to an author entry; then an editor whose role reads and writes only articles — with
 * model:apply but not model:delete — signs in, and holds a management credential.
 */
async function setup() {
  const s = await seedSite();
  const models = await blogModels(s.ctx());
  const adminToken = await credential(s);
  const read = await manage<ModelRead>(adminToken, "GET", `/models/${models.author.id}`);
  const modelProposal = await manage<{ id: string }>(adminToken, "POST", "/models/proposals", {
    body: { mode: "update", model_id: models.author.id, base_updated_at: read.body.updated_at, definition: read.body.definition },
  });
  expect(modelProposal.status, JSON.stringify(modelProposal.body)).toBe(201);
  const author = await manage<{ instance_id: string; current_version_id: string }>(adminToken, "POST", "/entries", { body: { model_id: models.author.id, fields: { name: "Hidden author" } } });
  expect(author.status, JSON.stringify(author.body)).toBe(201);
  const entryProposal = await manage<{ id: string }>(adminToken, "POST", `/entries/${author.body.instance_id}/proposals`, {
    body: { base_version_id: author.body.current_version_id, fields: { name: "Proposed" } },
  });
  expect(entryProposal.status, JSON.stringify(entryProposal.body)).toBe(201);

  const editor = await s.person("editor");
  const articleOnly = { models: { [models.article.id]: ["read", "create", "update", "delete", "publish", "unpublish"] }, system: ["model:apply", "site:settings", "site:plugins"] };
  await env.DB.prepare("UPDATE roles SET permissions = ?, revision = revision + 1 WHERE id = ?").bind(JSON.stringify(articleOnly), await roleId(s.site.id, "editor")).run();
  const session = await signIn(await emailOf(editor.id), "pw");
  // The editor's credential: made while the editor is treated as holding every scope; each request
  // then acts with the editor's role as it is in D1 now (article only, no model:delete).
  const token = await credential({ ...s, ctx: () => s.ctx({ ...s.admin, id: editor.id }) });
  return { s, models, session, token, authorEntry: author.body.instance_id, modelProposalId: modelProposal.body.id, entryProposalId: entryProposal.body.id };
}

const state = async (table: "model_proposals" | "entry_proposals", id: string) => (await env.DB.prepare(`SELECT state FROM ${table} WHERE id = ?`).bind(id).first<{ state: string }>())?.state;

describe("authorise first, then reveal: admin routes on things the person may not read", () => {
  it("model proposal dismiss and apply on an unreadable model answer like a made-up proposal, and change nothing", async () => {
    const { s, session, modelProposalId } = await setup();
    for (const action of ["dismiss", "apply"]) {
      const real = await adminCall<Err>(session, "POST", `/api/models/proposals/${modelProposalId}/${action}`, { siteId: s.site.id });
      const madeUp = await adminCall<Err>(session, "POST", `/api/models/proposals/${MADE_UP.modelProposal}/${action}`, { siteId: s.site.id });
      expect(real.status, action).toBe(404);
      expect(withoutRequestId(real.body), action).toEqual(withoutRequestId(madeUp.body));
    }
    expect(await state("model_proposals", modelProposalId)).toBe("open");
  });

  it("a model's manual order: an unreadable model is unknown, and an unreadable item is no item", async () => {
    const { s, models, session, authorEntry } = await setup();
    const real = await adminCall<Err>(session, "PUT", `/api/models/${models.author.id}/manual-order`, { siteId: s.site.id, body: { items: [authorEntry] } });
    const madeUp = await adminCall<Err>(session, "PUT", `/api/models/${MADE_UP.model}/manual-order`, { siteId: s.site.id, body: { items: [authorEntry] } });
    expect(real.status).toBe(404);
    expect(withoutRequestId(real.body)).toEqual(withoutRequestId(madeUp.body));
    const order = await env.DB.prepare("SELECT manual_order FROM models WHERE id = ?").bind(models.author.id).first<{ manual_order: string | null }>();
    expect(order?.manual_order ?? "[]").toBe("[]");
  });

  it("entry proposal apply and reject on an unreadable entry answer like a made-up proposal", async () => {
    const { s, session, entryProposalId } = await setup();
    for (const action of ["apply", "reject"]) {
      const real = await adminCall<Err>(session, "POST", `/api/proposals/${entryProposalId}/${action}`, { siteId: s.site.id });
      const madeUp = await adminCall<Err>(session, "POST", `/api/proposals/${MADE_UP.proposal}/${action}`, { siteId: s.site.id });
      expect(real.status, action).toBe(404);
      expect(withoutRequestId(real.body), action).toEqual(withoutRequestId(madeUp.body));
    }
    expect(await state("entry_proposals", entryProposalId)).toBe("open");
  });
});

describe("authorise first, then reveal: management routes on things the credential may not read", () => {
  it("removing a model without model:delete is the same 403 for an unreadable model and a made-up id", async () => {
    const { models, token } = await setup();
    const real = await manage<Err>(token, "POST", `/models/${models.author.id}/remove`, { body: { expected_revision: 1, confirm: models.author.id } });
    const madeUp = await manage<Err>(token, "POST", `/models/${MADE_UP.model}/remove`, { body: { expected_revision: 1, confirm: MADE_UP.model } });
    expect(real.status).toBe(403);
    expect(real.body.error.code).toBe("missing_permission");
    expect(withoutRequestId(real.body)).toEqual(withoutRequestId(madeUp.body));
  });

  it("the content-actions filter answers an unreadable entry like an unknown one", async () => {
    const { token, authorEntry } = await setup();
    const real = await manage<Err>(token, "GET", `/plugins/content-actions?instance_id=${authorEntry}`);
    const madeUp = await manage<Err>(token, "GET", `/plugins/content-actions?instance_id=${MADE_UP.entry}`);
    expect(real.status).toBe(404);
    expect(withoutRequestId(real.body)).toEqual(withoutRequestId(madeUp.body));
  });
});
