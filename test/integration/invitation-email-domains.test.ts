import { describe, expect, it } from "vitest";
import { roleId } from "../helpers/admin-api";
import { seedSite } from "../helpers/fixtures";
import { ops } from "../helpers/ops-api";
import { adminSession, invite } from "../helpers/people-api";

/**
 * Probe finding (session 17): an address on an internationalised domain, as DNS and mail carry it
 * (punycode, `xn--…`), or on any domain with two hyphens in a row, was refused 400 by both invitation
 * routes (valibot's email check allows one hyphen at a time), so `owner@bücher.example` could never
 * be invited. The rule (docs/people.md): a dot-atom local part, a DNS host name as site hosts are.
 */
describe("invitations: email domains as DNS writes them", () => {
  const accepted = ["owner@xn--bcher-kva.example", "a.b+c@my--domain.example", "x@xn--80ak6aa92e.xn--p1ai"];
  const refused = ["a@b", "a@-x.example", "a@x-.example", "a@x..example", "a b@x.example", "a@x.example.", "Owner <o@x.example>", "a@x.example\r\nBcc: y@z.example", "ü@x.example", "a@bücher.example"];

  it("the admin's invitation accepts them and refuses the rest (400)", async () => {
    const s = await seedSite();
    const session = await adminSession(s);
    const viewer = await roleId(s.site.id, "viewer");
    for (const email of accepted) expect([email, (await invite(session, s.site.id, email, viewer)).status]).toEqual([email, 201]);
    for (const email of refused) expect([email, (await invite(session, s.site.id, email, viewer)).status]).toEqual([email, 400]);
  });

  it("the operators' invitation accepts them too", async () => {
    const s = await seedSite();
    for (const email of accepted) expect([email, (await ops("POST", `/sites/${s.site.id}/invitations`, { body: { email } })).status]).toEqual([email, 201]);
    for (const email of refused) expect([email, (await ops("POST", `/sites/${s.site.id}/invitations`, { body: { email } })).status]).toEqual([email, 400]);
  });
});
