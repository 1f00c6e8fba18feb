/**
 * Redirect rules as data (spec 3, "Redirects and sitemap"; docs/redirects.md): matching, the
 * checks of a whole set, and what an address resolves to. Pure: the service and the review route
 * run the same code over stored or proposed rules.
 */

export const REDIRECT_STATUSES = [301, 302, 307, 308, 410, 451] as const;
export type RedirectStatus = (typeof REDIRECT_STATUSES)[number];
/** Spec 3: at most 256 redirects and 32 patterns. */
export const MAX_REDIRECTS = 256;
export const MAX_PATTERNS = 32;
/** Hops followed before a chain counts as too long to resolve (a cycle is found before). */
export const MAX_HOPS = 16;

export interface RedirectRule {
  id: string;
  /** `/old/path`, or a pattern with one star (one or more characters), e.g. `/blog/` + star. */
  source: string;
  /** A path on the site or an absolute https URL (`*` repeats what a pattern's `*` matched); null for 410 and 451. */
  target: string | null;
  status: RedirectStatus;
}

/**
 * Addresses the platform serves on a site host, never a redirect's source: the public API, the
 * media files, health, the sitemap, the admin's tools.
 */
const RESERVED = [/^\/v1(\/|$)/, /^\/api(\/|$)/, /^\/media(\/|$)/, /^\/health$/, /^\/sitemap(-[0-9]+)?\.xml$/, /^\/robots\.txt$/, /^\/\.well-known(\/|$)/, /^\/connect$/, /^\/manage\.mjs$/];

/** The platform's namespaces (everything under them is served) and single addresses, as RESERVED lists them. */
const RESERVED_NAMESPACES = ["/v1", "/api", "/media", "/.well-known"];
const RESERVED_ADDRESSES = ["/health", "/sitemap.xml", "/sitemap-1.xml", "/robots.txt", "/connect", "/manage.mjs"];

export const isPattern = (source: string) => source.includes("*");

/** Characters a path keeps percent-encoded: they delimit (`/`, `?`, `#`, `%`), make a pattern (`*`) or are not visible. */
const KEEP_ESCAPED = /[\s\p{Cc}\/?#%*\\]/u;

/**
 * One form for an address however it is percent-encoded (docs/redirects.md, "One form of a path"):
 * escapes of UTF-8 text are decoded (`/caf%C3%A9` and `/café` are one address, `/my%2Dpost` is
 * `/my-post`), except those of delimiters, `*`, spaces and controls, and bytes that are not UTF-8,
 * which stay escaped in upper-case hex (`/a%2fb` → `/a%2Fb`). Sources are stored in this form and
 * every address asked is read in it, so a browser's encoded path, a decoded one and an item's
 * slug-built address all meet the same rule.
 */
export function canonicalPath(path: string): string {
  if (!path.includes("%")) return path;
  return path.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    let text: string;
    try {
      text = decodeURIComponent(run);
    } catch {
      return run.toUpperCase();
    }
    return Array.from(text, (ch) => (KEEP_ESCAPED.test(ch) ? escapeBytes(ch) : ch)).join("");
  });
}

function escapeBytes(ch: string): string {
  return Array.from(new TextEncoder().encode(ch), (b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join("");
}

/**
 * Whether a pattern can match an address the platform serves ("a pattern: when its addresses can be
 * one", docs/redirects.md): its `*` can complete a namespace (`/v*` reaches `/v1/…`, `/me*` reaches
 * `/media/…`) or it matches a reserved address (`/sitemap*`, `/c*`). Decision: a pattern starting at
 * the root (`/*`, `/*.html`, `/*` + `/feed`) is a site-wide rule for the website and is not refused
 * for it — else no site-wide rule could exist; its sample address is still checked.
 */
function patternReachesReserved(source: string): boolean {
  const { prefix } = parts(source);
  if (prefix === "/") return false;
  if (RESERVED_NAMESPACES.some((ns) => ns.startsWith(prefix) || prefix.startsWith(`${ns}/`))) return true;
  return RESERVED_ADDRESSES.some((address) => matchRule({ source }, address) !== undefined);
}

function parts(source: string): { prefix: string; suffix: string } {
  const star = source.indexOf("*");
  return { prefix: source.slice(0, star), suffix: source.slice(star + 1) };
}

/** What a pattern's `*` matched in `path`, or undefined when the rule does not match it. */
export function matchRule(rule: Pick<RedirectRule, "source">, path: string): string | undefined {
  if (!isPattern(rule.source)) return rule.source === path ? "" : undefined;
  const { prefix, suffix } = parts(rule.source);
  if (path.length <= prefix.length + suffix.length || !path.startsWith(prefix) || !path.endsWith(suffix)) return undefined;
  return path.slice(prefix.length, path.length - suffix.length);
}

/** Pattern `a` matches only addresses `b` matches too (and is another pattern): `a` is more specific and wins. */
function narrower(a: string, b: string): boolean {
  const pa = parts(a);
  const pb = parts(b);
  return a !== b && pa.prefix.startsWith(pb.prefix) && pa.suffix.endsWith(pb.suffix);
}

/** Two patterns some address matches both of. */
function overlap(a: string, b: string): boolean {
  const pa = parts(a);
  const pb = parts(b);
  return (pa.prefix.startsWith(pb.prefix) || pb.prefix.startsWith(pa.prefix)) && (pa.suffix.endsWith(pb.suffix) || pb.suffix.endsWith(pa.suffix));
}

/** The rule an address meets: its exact rule, else the most specific pattern matching it. */
export function findRule<R extends RedirectRule>(rules: readonly R[], asked: string): { rule: R; splat: string } | undefined {
  const path = canonicalPath(asked);
  const exact = rules.find((r) => !isPattern(r.source) && r.source === path);
  if (exact) return { rule: exact, splat: "" };
  const matching = rules.filter((r) => isPattern(r.source) && matchRule(r, path) !== undefined);
  const best = matching.find((r) => matching.every((o) => o === r || narrower(r.source, o.source)));
  const chosen = best ?? matching[0];
  return chosen ? { rule: chosen, splat: matchRule(chosen, path) ?? "" } : undefined;
}

export function locationOf(rule: RedirectRule, splat: string): string | null {
  if (rule.target === null) return null;
  // A splat starting with `/` after a target's leading `/` (`/old*` → `/*`, asked `/old/evil.com`)
  // must not make `//evil.com`, which a browser reads as another host.
  return rule.target.replace("*", splat).replace(/^\/[/\\]+/, "/");
}

export interface Resolution {
  path: string;
  /** The final answer: a redirect status with its location, 410/451 without one, or null: no rule. */
  status: RedirectStatus | null;
  location: string | null;
  /** Every rule met on the way, in order (a chain has more than one). */
  hops: { rule_id: string; source: string; status: RedirectStatus; location: string | null }[];
  cycle: boolean;
}

/** What `path` resolves to, following chains through other rules (the final location is where a visitor lands). */
export function resolve(rules: readonly RedirectRule[], asked: string): Resolution {
  const path = canonicalPath(asked);
  const hops: Resolution["hops"] = [];
  const seen = new Set([path]);
  let current = path;
  for (let i = 0; i < MAX_HOPS; i++) {
    const found = findRule(rules, current);
    if (!found) break;
    const location = locationOf(found.rule, found.splat);
    hops.push({ rule_id: found.rule.id, source: found.rule.source, status: found.rule.status, location });
    if (location === null || !location.startsWith("/")) break;
    const next = canonicalPath(location);
    if (seen.has(next)) return { path, status: found.rule.status, location, hops, cycle: true };
    seen.add(next);
    current = next;
  }
  const last = hops.at(-1);
  return { path, status: last ? (hops[0]?.status ?? null) : null, location: last?.location ?? null, hops, cycle: false };
}

/** One problem of a rule set; `code` is the refusal a write of it answers. */
export interface RuleProblem {
  code: "redirect_limit" | "redirect_reserved" | "redirect_ambiguous" | "redirect_cycle" | "redirect_source_taken";
  message: string;
  rule: { id: string; source: string };
  other?: { id: string; source: string };
  chain?: string[];
}

const named = (r: RedirectRule) => ({ id: r.id, source: r.source });

/** A sample address a rule's source matches (a pattern's `*` as one character). */
const sampleOf = (source: string) => (isPattern(source) ? source.replace("*", "x") : source);

/** Every problem of a whole rule set: limits, reserved sources, repeated sources, ambiguous patterns, cycles. */
export function checkRules(rules: readonly RedirectRule[]): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const patterns = rules.filter((r) => isPattern(r.source));
  const first = rules[0];
  if (first && rules.length > MAX_REDIRECTS) problems.push({ code: "redirect_limit", message: `A site has at most ${MAX_REDIRECTS} redirects; this set has ${rules.length}.`, rule: named(rules[MAX_REDIRECTS] ?? first) });
  const firstPattern = patterns[MAX_PATTERNS];
  if (firstPattern) problems.push({ code: "redirect_limit", message: `A site has at most ${MAX_PATTERNS} patterns; this set has ${patterns.length}.`, rule: named(firstPattern) });
  const bySource = new Map<string, RedirectRule>();
  for (const r of rules) {
    if (RESERVED.some((re) => re.test(r.source) || (isPattern(r.source) && re.test(sampleOf(r.source)))) || (isPattern(r.source) && patternReachesReserved(r.source))) {
      problems.push({ code: "redirect_reserved", message: `"${r.source}" is an address the platform serves; it cannot redirect.`, rule: named(r) });
    }
    const same = bySource.get(r.source);
    if (same) problems.push({ code: "redirect_source_taken", message: `Two rules redirect "${r.source}".`, rule: named(r), other: named(same) });
    else bySource.set(r.source, r);
  }
  for (const [i, a] of patterns.entries()) {
    for (const b of patterns.slice(i + 1)) {
      if (a.source !== b.source && overlap(a.source, b.source) && !narrower(a.source, b.source) && !narrower(b.source, a.source)) {
        problems.push({ code: "redirect_ambiguous", message: `Some addresses match both "${a.source}" and "${b.source}", and neither is more specific.`, rule: named(b), other: named(a) });
      }
    }
  }
  for (const r of rules) {
    const resolution = resolve(rules, sampleOf(r.source));
    if (resolution.cycle) problems.push({ code: "redirect_cycle", message: `"${r.source}" leads back to itself.`, rule: named(r), chain: [resolution.path, ...resolution.hops.map((h) => h.location ?? "")] });
  }
  return problems;
}
