import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ADMIN } from "../helpers/admin-api";
import { seedSite } from "../helpers/fixtures";
import { pkce, REDIRECT, registerClient, type OAuthErrorBody } from "../helpers/oauth";
import { workerFetch } from "../helpers/worker";

/**
 * An app's name is what a person reads on the consent page before trusting it (issue 22 item 8):
 * registration refuses names that would not display as what they are — control characters,
 * bidirectional overrides and isolates, lone surrogates, invisible format characters — with 400
 * `invalid_client_metadata`, and /connect shows names escaped and isolated (`<bdi>`), removing the
 * controls of a name stored before this rule.
 */

const REFUSED: [string, string][] = [
  ["override U+202E", "Safe\u202eppa"],
  ["embedding U+202B", "\u202bApp"],
  ["isolate U+2066", "\u2066App\u2069"],
  ["first-strong isolate U+2068", "App\u2068x"],
  ["right-to-left mark", "App\u200f"],
  ["tab", "My\tApp"],
  ["line feed", "My\nApp"],
  ["escape", "My\u001b[31mApp"],
  ["DEL", "My\u007fApp"],
  ["C1 next line", "My\u0085App"],
  ["line separator U+2028", "My\u2028App"],
  ["paragraph separator U+2029", "My\u2029App"],
  ["zero-width space", "Go\u200bogle"],
  ["combining grapheme joiner", "Go\u034fogle"],
  ["Hangul filler", "App\u3164"],
  ["variation selector on a letter", "App\ufe0f"],
  ["too long in code points", "😀".repeat(201)],
];

describe("client_name at registration", () => {
  for (const [label, name] of REFUSED) {
    it(`refuses a name with ${label}: 400 invalid_client_metadata`, async () => {
      const res = await registerClient<OAuthErrorBody>("admin.localhost", { redirect_uris: [REDIRECT], client_name: name });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error).toBe("invalid_client_metadata");
    });
  }

  it("refuses a lone surrogate sent as a JSON escape", async () => {
    for (const raw of ['"App \\ud800"', '"\\udc00App"', '"A\\udbff\\u0041"']) {
      const res = await registerClient<OAuthErrorBody>("admin.localhost", `{"redirect_uris":["${REDIRECT}"],"client_name":${raw}}`);
      expect(res.status, raw).toBe(400);
      expect(res.body.error).toBe("invalid_client_metadata");
    }
  });

  it("accepts names in any script, with emoji, right-to-left letters and 200 characters", async () => {
    for (const name of ["Café Agent ☕", "\u05d0\u05e4\u05dc\u05d9\u05e7\u05e6\u05d9\u05d4", "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", "👩\u200d💻 Dev tools", "😀".repeat(200)]) {
      const res = await registerClient<{ client_name: string }>("admin.localhost", { redirect_uris: [REDIRECT], client_name: name });
      expect(res.status, `${JSON.stringify(name)} ${JSON.stringify(res.body)}`).toBe(201);
      expect(res.body.client_name).toBe(name);
    }
  });
});

describe("client_name on /connect", () => {
  /** The sign-in view of /connect for a client row written directly (as names registered before the rule were stored). */
  async function pageFor(clientName: string): Promise<string> {
    const s = await seedSite();
    const id = `ocl_${crypto.randomUUID().replace(/-/g, "").slice(0, 21)}`;
    await env.DB.prepare("INSERT INTO oauth_clients (id, client_name, redirect_uris, scope, created_at) VALUES (?, ?, ?, NULL, ?)")
      .bind(id, clientName, JSON.stringify([REDIRECT]), new Date().toISOString())
      .run();
    const { challenge } = await pkce();
    const query = new URLSearchParams({ response_type: "code", client_id: id, redirect_uri: REDIRECT, state: "s", code_challenge: challenge, code_challenge_method: "S256", site: s.site.id, issuer: `http://${s.host}` });
    const res = await workerFetch(`${ADMIN}/connect?${query.toString()}`, { redirect: "manual" });
    const html = await res.text();
    expect(res.status, html).toBe(200);
    return html;
  }

  it("isolates the name in <bdi> and escapes it", async () => {
    const html = await pageFor('<img src=x onerror=alert(1)> "Agent" & co');
    expect(html).toContain('<bdi class="app-name">&lt;img src=x onerror=alert(1)&gt; &quot;Agent&quot; &amp; co</bdi>');
    expect(html).not.toContain("<img");
  });

  it("shows a name stored before the rule without its bidirectional or control characters", async () => {
    const html = await pageFor("Safe\u202eexe.ppa\u2066\u0007");
    expect(html).toContain('<bdi class="app-name">Safeexe.ppa</bdi>');
    expect(html).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u0007]/);
  });
});
