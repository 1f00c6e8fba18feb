import { describe, expect, it } from "vitest";
import type { EntryView } from "../../shared/services/lifecycle";
import type { ProposalView } from "../../shared/services/proposals/entry-proposals";
import { adminCall, emailOf, signIn } from "../helpers/admin-api";
import { blogModels, seedSite, versionCount } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";

type Err = { error: { code: string; [k: string]: unknown } };

/**
 * An entry proposal whose entry went to the Trash after it was made (the review screen, issue #15
 * item 7, tells the reviewer in words): applying it is refused with 409 entry_in_trash, as the
 * route declares, and nothing is written; rejecting it still closes it; after a restore it applies.
 */
describe("admin API: a proposal on an entry in the Trash", () => {
  it("apply → 409 entry_in_trash with nothing written; reject works; after restore apply works", async () => {
    const s = await seedSite();
    const models = await blogModels(s.ctx());
    const token = await credential(s);
    const created = await manage<EntryView>(token, "POST", "/entries", { body: { model_id: models.article.id, slug: "binned", fields: { title: "Original" } } });
    expect(created.status).toBe(201);
    const entry = created.body;
    const propose = (title: string) => manage<ProposalView>(token, "POST", `/entries/${entry.instance_id}/proposals`, { body: { base_version_id: entry.current_version_id, fields: { title } } });
    const first = await propose("From the agent");
    const second = await propose("Another idea");
    expect(first.status).toBe(201);
    expect((await manage(token, "POST", `/entries/${entry.instance_id}/trash`, { body: {} })).status).toBe(200);

    const editor = await s.person("editor");
    const session = await signIn(await emailOf(editor.id), "pw");
    const before = await versionCount(entry.instance_id);
    const refused = await adminCall<Err>(session, "POST", `/api/proposals/${first.body.id}/apply`, { siteId: s.site.id });
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.error.code).toBe("entry_in_trash");
    expect(await versionCount(entry.instance_id)).toBe(before);
    expect((await manage<ProposalView>(token, "GET", `/proposals/${first.body.id}`)).body).toMatchObject({ state: "open", revision: 0 });

    const rejected = await adminCall<ProposalView>(session, "POST", `/api/proposals/${second.body.id}/reject`, { siteId: s.site.id });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect(rejected.body.state).toBe("rejected");

    expect((await manage(token, "POST", `/entries/${entry.instance_id}/restore`, { body: {} })).status).toBe(200);
    const applied = await adminCall<{ proposal: ProposalView; entry: EntryView }>(session, "POST", `/api/proposals/${first.body.id}/apply`, { siteId: s.site.id });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.entry.fields.title).toBe("From the agent");
  });
});
