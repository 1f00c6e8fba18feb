import { useState } from "preact/hooks";
import { ops } from "../api/client";
import { describeError } from "../api/error-words";
import { Button, Field, Notice } from "../ui/controls";
import { useAction } from "../ui/use-action";
import { OPERATOR_WORDS, type OpsSite } from "./words";

/** A site's hosts (addSiteHost, removeSiteHost): the last one cannot go (409 `last_host`). */
export function SiteHosts({ site, onChanged }: { site: OpsSite; onChanged: (site: OpsSite, words: string) => void }) {
  const [host, setHost] = useState("");
  const action = useAction({ sameNameIsRetry: true });
  const refusal = action.error ? describeError(action.error, OPERATOR_WORDS) : null;

  const add = async (event: Event) => {
    event.preventDefault();
    const name = host.trim().toLowerCase();
    const outcome = await action.attempt(`add ${name}`, (key) => ops("addSiteHost", { params: { id: site.id }, body: { host: name }, key }));
    if (outcome?.ok) {
      setHost("");
      onChanged(outcome.value, `${name} now serves ${site.name}.`);
    }
  };

  const remove = async (name: string) => {
    const outcome = await action.attempt(`remove ${name}`, (key) => ops("removeSiteHost", { params: { id: site.id, host: name }, key }));
    if (outcome?.ok) onChanged(outcome.value, `${name} no longer serves ${site.name}.`);
  };

  return (
    <section class="stack operators-section" aria-labelledby="operators-hosts">
      <h2 id="operators-hosts">Hosts</h2>
      <ul class="operators-hosts">
        {site.hosts.map((h) => (
          <li key={h}>
            <code>{h}</code>{" "}
            <Button variant="ghost" aria-label={`Remove host ${h}`} busy={action.busy === `remove ${h}`} disabled={site.hosts.length === 1} onClick={() => void remove(h)}>
              Remove
            </Button>
          </li>
        ))}
      </ul>
      {site.hosts.length === 1 ? <p class="muted">A site keeps at least one host: add another before removing this one.</p> : null}
      <form class="row operators-inline-form" onSubmit={add} noValidate>
        <Field label="New host" hint="A DNS name without scheme or port. Point its DNS at this deployment.">
          {(f) => <input id={f.id} required spellcheck={false} autocomplete="off" value={host} aria-describedby={f.describedBy} onInput={(e) => setHost(e.currentTarget.value)} />}
        </Field>
        <Button type="submit" busy={action.busy?.startsWith("add ") ?? false}>
          Add host
        </Button>
      </form>
      {refusal ? (
        <Notice kind="error" title={refusal.title}>
          {refusal.detail ? <p class="muted">{refusal.detail}</p> : null}
        </Notice>
      ) : null}
    </section>
  );
}
