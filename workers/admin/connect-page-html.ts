import type { PersonSite } from "../../shared/auth/person-authority";
import { ALWAYS_INCLUDED_SCOPE } from "../../schema/scopes";
import { base64url } from "../../shared/crypto/digest";
import { strictOrigin } from "../../shared/net/host-grammar";

/**
 * The HTML of the `/connect` page (workers/admin/connect-page.ts has the checks): plain forms, no
 * script, every value escaped. Each answer carries the page's security headers: a CSP without any
 * script source (styles by nonce), `frame-ancestors 'none'` and `X-Frame-Options: DENY`,
 * `Referrer-Policy: no-referrer`, `Cache-Control: no-store`.
 */

/** What the views show of a checked authorization request. */
export interface PageRequest {
  /**
   * The client's name as registered (controls removed), or null for an app without one. Shown
   * escaped and isolated (`<bdi>`), so a right-to-left name cannot reorder the sentence around it.
   */
  appName: string | null;
  /** `/connect` with the request's query: where the forms post. */
  selfPath: string;
  redirectUri: string;
  requested: readonly string[];
  /** Whether only the issuer's site may be chosen (a site host sent the person). */
  onIssuerSite: boolean;
}

/** What the consent view needs beyond the request. */
export interface ConsentInput {
  email: string;
  csrfToken: string;
  sites: readonly PersonSite[];
  preselect: string | null | undefined;
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** The app's name in a sentence: escaped, and isolated in its own direction (`<bdi>`), or a stand-in. */
function appNameHtml(name: string | null): string {
  return name === null ? "An unnamed app" : `<bdi class="app-name">${escapeHtml(name)}</bdi>`;
}

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f4f2;color:#1b1b1b}
main{max-width:34rem;margin:2rem auto;padding:1.5rem 2rem;background:#fff;border:1px solid #ccc;border-radius:8px}
h1{font-size:1.4rem;margin-top:0}
label{display:block;margin:.75rem 0 .25rem;font-weight:600}
fieldset label{display:inline;font-weight:400;margin:0 0 0 .35rem}
input[type=email],input[type=password]{width:100%;box-sizing:border-box;padding:.5rem;font:inherit;border:1px solid #767676;border-radius:4px}
fieldset{border:1px solid #ccc;border-radius:6px;margin:1rem 0;padding:.5rem 1rem}
legend{font-weight:600;padding:0 .25rem}
fieldset div{margin:.35rem 0}
.note{color:#4a4a4a;font-size:.9rem}
.alert{border:1px solid #a4000f;background:#fff0f0;color:#7a000b;padding:.5rem .75rem;border-radius:4px}
.buttons{display:flex;gap:.75rem;margin-top:1.25rem}
button{font:inherit;padding:.5rem 1.25rem;border-radius:4px;border:1px solid #1b1b1b;background:#fff;cursor:pointer}
button.primary{background:#1f4fd1;border-color:#1f4fd1;color:#fff}
button:focus-visible,input:focus-visible{outline:3px solid #ffbf47;outline-offset:2px}
code{word-break:break-all}
`;

/**
 * The CSP source a form may be redirected to after posting (the redirect URI's origin, or its
 * private-use scheme), built only from a parsed, validated origin: a host outside the strict host
 * grammar (`https://ex.example;sandbox/cb` parses, with `;` in its host) or a scheme that is not a
 * plain scheme gives no source at all — the redirect after Connect is then blocked by the browser,
 * never a policy with an injected directive. Registration refuses such URIs; this guards rows
 * stored before it did.
 */
export function redirectSource(redirectUri: string): string | null {
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    return null;
  }
  if (url.protocol === "http:" || url.protocol === "https:") return strictOrigin(url);
  return /^[a-z][a-z0-9+.-]{1,63}:$/.test(url.protocol) ? url.protocol : null;
}

function securityHeaders(nonce: string, formAction: string): Record<string, string> {
  return {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'none'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
    pragma: "no-cache",
  };
}

function page(status: number, title: string, body: string, formAction: string, extra: Record<string, string> = {}): Response {
  const nonce = base64url(crypto.getRandomValues(new Uint8Array(16)));
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Driftwood</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
  return new Response(html, { status, headers: { ...securityHeaders(nonce, formAction), ...extra } });
}

/** A refusal shown on the page (no form, `form-action 'none'`). */
export function errorPage(status: number, code: string, detail: string): Response {
  return page(
    status,
    "This app cannot connect",
    `<h1>This app cannot connect</h1>
<p class="alert" role="alert">${escapeHtml(detail)}</p>
<p class="note">Error: <code>${escapeHtml(code)}</code>. Nothing was shared with the app. You can close this page.</p>`,
    "'none'",
  );
}

function alert(message: string | undefined): string {
  return message ? `<p class="alert" role="alert">${escapeHtml(message)}</p>\n` : "";
}

/** The sign-in form (labelled Email and Password, a Sign in button), posting to the page. */
export function signInPage(req: PageRequest, status: number, message?: string, extra: Record<string, string> = {}): Response {
  return page(
    status,
    "Sign in to connect an app",
    `<h1>Sign in to connect an app</h1>
<p><strong>${appNameHtml(req.appName)}</strong> wants to connect to a site you work on. Sign in to choose the site and what it may do.</p>
${alert(message)}<form method="post" action="${escapeHtml(req.selfPath)}">
<input type="hidden" name="action" value="sign_in">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="320">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024">
<div class="buttons"><button class="primary" type="submit">Sign in</button></div>
</form>`,
    "'self'",
    extra,
  );
}

/** The consent form: the Site radio group, one checkbox per requested scope, Connect and Cancel. */
export function consentPage(req: PageRequest, consent: ConsentInput, status: number, message?: string): Response {
  const { sites, preselect, csrfToken: csrf } = consent;
  const name = appNameHtml(req.appName);
  const siteChoice =
    sites.length === 0
      ? `<p class="alert" role="alert">You have no active membership on ${req.onIssuerSite ? "this site" : "any site"}, so there is nothing to connect this app to.</p>`
      : `<fieldset>
<legend>Site</legend>
${sites
  .map(
    (site, i) =>
      `<div><input type="radio" id="site-${i}" name="site" value="${escapeHtml(site.id)}" required${site.id === preselect ? " checked" : ""}><label for="site-${i}">${escapeHtml(site.name)}</label> <span class="note">(${escapeHtml(site.slug)}, your role: ${escapeHtml(site.role)})</span></div>`,
  )
  .join("\n")}
</fieldset>
<fieldset>
<legend>What the app may do</legend>
<p class="note" id="scopes-note">Clear what you do not want to allow. The app can never do more than your own role on the site.</p>
${req.requested
  .map((scope, i) =>
    scope === ALWAYS_INCLUDED_SCOPE
      ? `<div><input type="checkbox" id="scope-${i}" checked disabled aria-describedby="scope-${i}-note"><label for="scope-${i}">${escapeHtml(scope)}</label> <span class="note" id="scope-${i}-note">(always included)</span></div>`
      : `<div><input type="checkbox" id="scope-${i}" name="scope" value="${escapeHtml(scope)}" checked aria-describedby="scopes-note"><label for="scope-${i}">${escapeHtml(scope)}</label></div>`,
  )
  .join("\n")}
</fieldset>`;
  return page(
    status,
    `Connect ${req.appName ?? "An unnamed app"}`,
    `<h1>Connect ${name}</h1>
<p>Signed in as <strong>${escapeHtml(consent.email)}</strong>.</p>
<p><strong>${name}</strong> asks to work on a site as you. After you answer, your browser goes to:<br><code>${escapeHtml(req.redirectUri)}</code></p>
${alert(message)}<form method="post" action="${escapeHtml(req.selfPath)}">
<input type="hidden" name="csrf_token" value="${escapeHtml(csrf)}">
${siteChoice}
<div class="buttons">${sites.length > 0 ? `<button class="primary" type="submit" name="action" value="connect">Connect</button>` : ""}<button type="submit" name="action" value="cancel" formnovalidate>Cancel</button></div>
</form>`,
    ["'self'", redirectSource(req.redirectUri)].filter((source) => source !== null).join(" "),
  );
}
