import { describe, expect, it } from "vitest";
import { ADMIN } from "../helpers/admin-api";
import { seedSite, type SeededSite } from "../helpers/fixtures";
import { newClient, pkce, REDIRECT } from "../helpers/oauth";
import { workerFetch } from "../helpers/worker";

/**
 * The `issuer` of a /connect request is returned to the app as `iss` (RFC 9207), so it must be the
 * issuer the site host's metadata publishes — the whole origin, not only its host (issue 22 item 9;
 * docs/oauth.md, "The /connect page" step 2). An edited issuer naming another port or scheme of the
 * site's host is the 400 error page, never a redirect carrying it.
 */

async function connectUrl(s: SeededSite, issuer: string, admin = ADMIN): Promise<string> {
  const { challenge } = await pkce();
  const query = new URLSearchParams({
    response_type: "code",
    client_id: await newClient(s),
    redirect_uri: REDIRECT,
    state: "st",
    code_challenge: challenge,
    code_challenge_method: "S256",
    site: s.site.id,
    issuer,
  });
  return `${admin}/connect?${query.toString()}`;
}

describe("/connect compares the whole issuer origin", () => {
  it("takes the issuer the site host publishes (the hop from the site host keeps scheme and port)", async () => {
    const s = await seedSite();
    // What the site host's metadata says and where its /connect hops to.
    const metadata = (await (await workerFetch(`http://${s.host}/.well-known/oauth-authorization-server`)).json()) as { issuer: string };
    const hop = await workerFetch(`http://${s.host}/connect?response_type=code`, { redirect: "manual" });
    const hopped = new URL(hop.headers.get("location") ?? "");
    expect(hopped.searchParams.get("issuer")).toBe(metadata.issuer);
    const res = await workerFetch(await connectUrl(s, metadata.issuer), { redirect: "manual" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Sign in to connect an app");
  });

  it("refuses another port or scheme of the site's host with the 400 page (no redirect, no iss)", async () => {
    const s = await seedSite();
    for (const issuer of [`http://${s.host}:9999`, `https://${s.host}`, `http://${s.host}:8080`, `https://${s.host}:8443`]) {
      const res = await workerFetch(await connectUrl(s, issuer), { redirect: "manual" });
      const html = await res.text();
      expect(res.status, issuer).toBe(400);
      expect(res.headers.get("location"), issuer).toBeNull();
      expect(html).toContain("invalid_request");
    }
    // A request that would be refused with a redirect (a missing code_challenge) still gets the page, never iss.
    const noChallenge = (await connectUrl(s, `http://${s.host}:9999`)).replace(/&code_challenge=[^&]*/, "");
    const refused = await workerFetch(noChallenge, { redirect: "manual" });
    expect(refused.status).toBe(400);
    expect(refused.headers.get("location")).toBeNull();
  });

  it("on a port, takes only that port", async () => {
    const s = await seedSite();
    const onPort = `${ADMIN}:8787`;
    const fine = await workerFetch(await connectUrl(s, `http://${s.host}:8787`, onPort), { redirect: "manual" });
    expect(fine.status).toBe(200);
    for (const issuer of [`http://${s.host}`, `http://${s.host}:8788`]) {
      const res = await workerFetch(await connectUrl(s, issuer, onPort), { redirect: "manual" });
      expect(res.status, issuer).toBe(400);
    }
  });
});
