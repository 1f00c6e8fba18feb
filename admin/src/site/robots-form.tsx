import { useState } from "preact/hooks";
import { manage, newActionKey, type ManageAnswer } from "../api/client";
import { Button, Field } from "../ui/controls";
import { nextKey } from "./chrome-parts";
import { refuseIfAny, SectionForm, type FormIssue, type SectionProps } from "./section-form";

type Robots = ManageAnswer<"getRobotsRules">["robots"];
type Rule = { key: number; user_agent: string; allow: string; disallow: string };

const lines = (text: string) => text.split("\n").map((l) => l.trim()).filter(Boolean);

/** robots.txt as the site host serves it (shared/services/site-chrome/chrome-settings.ts `robotsText`). */
export function robotsPreview(rules: readonly { user_agent: string; allow: readonly string[]; disallow: readonly string[] }[], sitemap: string | null): string {
  const groups = rules.map((rule) => [`User-agent: ${rule.user_agent}`, ...rule.allow.map((p) => `Allow: ${p}`), ...rule.disallow.map((p) => `Disallow: ${p}`)].join("\n"));
  return `${groups.join("\n\n")}\n${sitemap ? `\nSitemap: ${sitemap}\n` : ""}`;
}

/** The issues the service would find in a rule, found first so each is said next to its rule. */
function ruleIssues(rules: readonly Rule[]): FormIssue[] {
  const issues: FormIssue[] = [];
  const agents = rules.map((r) => r.user_agent.trim().toLowerCase());
  rules.forEach((rule, i) => {
    if (!/^[A-Za-z0-9*._-]{1,100}$/.test(rule.user_agent.trim())) issues.push({ path: `rules[${i}].user_agent`, message: "a crawler's name (letters, digits, . _ -) or * for every crawler" });
    else if (agents.indexOf(agents[i] as string) !== i) issues.push({ path: `rules[${i}].user_agent`, message: "this crawler has a rule already" });
    for (const kind of ["allow", "disallow"] as const) {
      lines(rule[kind]).forEach((p, j) => {
        if (!/^\/[^\s#]{0,499}$/.test(p)) issues.push({ path: `rules[${i}].${kind}[${j}]`, message: `"${p}" is not a path starting with /, without spaces or #` });
      });
    }
  });
  return issues;
}

/** Robots rules: one group per crawler, allowed and disallowed paths one a line; the served file previewed. */
export function RobotsForm({ initial, sitemapPath, host, busy, save, notice }: SectionProps & { initial: Robots; sitemapPath: string | null; host: string | null }) {
  const [rules, setRules] = useState<Rule[]>(() => initial.rules.map((r) => ({ key: nextKey(), user_agent: r.user_agent, allow: r.allow.join("\n"), disallow: r.disallow.join("\n") })));
  const edit = (key: number, next: Partial<Rule>) => setRules(rules.map((r) => (r.key === key ? { ...r, ...next } : r)));
  const origin = host ? `${window.location.protocol}//${host}${window.location.port ? `:${window.location.port}` : ""}` : "https://<the site's address>";
  const sitemap = sitemapPath ? `${origin}${sitemapPath}` : null;

  const write = async (expected: number) => {
    refuseIfAny(rules.length === 0 ? [{ path: "rules", message: "keep at least one rule (User-agent: * with Allow: / lets every crawler read everything)" }] : ruleIssues(rules), "Some rules are not valid.");
    const saved = await manage("putRobotsRules", {
      body: { rules: rules.map((r) => ({ user_agent: r.user_agent.trim(), allow: lines(r.allow), disallow: lines(r.disallow) })), expected_revision: expected },
      key: newActionKey(),
    });
    return { revision: saved.revision, said: `Robots rules saved: ${saved.robots.rules.length} ${saved.robots.rules.length === 1 ? "rule" : "rules"}; /robots.txt serves them now.` };
  };

  return (
    <SectionForm id="robots" title="Robots rules" intro="What crawlers may read, served at /robots.txt on the site's addresses. Paths one a line, each starting with /." saveLabel="Save robots rules" busy={busy} notice={notice} save={save} write={write}>
      <ol class="stack chrome-rules">
        {rules.map((rule, i) => (
          <li>
            <fieldset class="stack">
              <legend>{`Rule ${i + 1}${rule.user_agent.trim() ? `: ${rule.user_agent.trim()}` : ""}`}</legend>
              <Field label={`Rule ${i + 1}: crawler (user agent)`} hint="* for every crawler">
                {({ id, describedBy }) => <input id={id} aria-describedby={describedBy} type="text" class="mono" maxLength={100} value={rule.user_agent} onInput={(e) => edit(rule.key, { user_agent: (e.currentTarget as HTMLInputElement).value })} />}
              </Field>
              <Field label={`Rule ${i + 1}: allowed paths`}>
                {({ id }) => <textarea id={id} class="mono" rows={2} value={rule.allow} onInput={(e) => edit(rule.key, { allow: (e.currentTarget as HTMLTextAreaElement).value })} />}
              </Field>
              <Field label={`Rule ${i + 1}: disallowed paths`}>
                {({ id }) => <textarea id={id} class="mono" rows={2} value={rule.disallow} onInput={(e) => edit(rule.key, { disallow: (e.currentTarget as HTMLTextAreaElement).value })} />}
              </Field>
              <div class="row">
                <Button variant="ghost" aria-label={`Remove rule ${i + 1}${rule.user_agent.trim() ? ` (${rule.user_agent.trim()})` : ""}`} onClick={() => setRules(rules.filter((r) => r.key !== rule.key))}>
                  Remove
                </Button>
              </div>
            </fieldset>
          </li>
        ))}
      </ol>
      <div class="row">
        <Button disabled={rules.length >= 20} onClick={() => setRules([...rules, { key: nextKey(), user_agent: "", allow: "", disallow: "" }])}>
          Add a rule
        </Button>
      </div>
      <figure class="stack" aria-labelledby="robots-preview-caption">
        <figcaption id="robots-preview-caption">/robots.txt as it will be served</figcaption>
        <pre class="robots-preview" tabIndex={0} data-testid="robots-preview">
          {robotsPreview(rules.map((r) => ({ user_agent: r.user_agent.trim() || "…", allow: lines(r.allow), disallow: lines(r.disallow) })), sitemap)}
        </pre>
        <p class="muted">{sitemap ? "The Sitemap line is added because the site has a sitemap (a public model with a website address)." : "No Sitemap line: the site has no sitemap yet (no public model with a website address)."}</p>
      </figure>
    </SectionForm>
  );
}
