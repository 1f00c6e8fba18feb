import { useEffect, useState } from "preact/hooks";
import { ApiError, manage, newActionKey } from "../api/client";
import { describeError } from "../api/error-words";
import type { ScreenProps } from "../screens/types";
import { useLoad } from "../screens/use-load";
import { Button, Loading, Notice, PageHeader } from "../ui/controls";
import { OutcomeNotice, SiteNav, useOutcome } from "./shared";
import "../styles/site.css";

type Origin = { origin: string; tokens: boolean; key: number };

/**
 * Browser access (issue #29 item 7, docs/cors.md): the origins whose pages may call the site's
 * public API, each allowed or not to send a site API token, saved as a whole (`putCorsSettings`
 * with the settings' revision). Problems the service finds are listed by origin.
 */
export default function CorsScreen({ site }: ScreenProps) {
  const loaded = useLoad((signal) => manage("getCorsSettings", { signal }), []);
  const [origins, setOrigins] = useState<Origin[]>([]);
  const [revision, setRevision] = useState<number | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const note = useOutcome();
  useEffect(() => {
    if (!loaded.data) return;
    setOrigins(loaded.data.cors.origins.map((o, i) => ({ ...o, key: i })));
    setRevision(loaded.data.revision);
  }, [loaded.data]);

  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    try {
      const saved = await manage("putCorsSettings", { body: { origins: origins.filter((o) => o.origin.trim()).map((o) => ({ origin: o.origin.trim(), tokens: o.tokens })), ...(revision === undefined ? {} : { expected_revision: revision }) }, key: newActionKey() });
      setOrigins(saved.cors.origins.map((o, i) => ({ ...o, key: i })));
      setRevision(saved.revision);
      note.say(saved.cors.origins.length ? `Saved: ${saved.cors.origins.length} ${saved.cors.origins.length === 1 ? "origin" : "origins"} may call the public API from a browser.` : "Saved: no browser page of another origin may call the public API.");
    } catch (error) {
      const issues = error instanceof ApiError && Array.isArray(error.details.issues) ? (error.details.issues as { path?: string; message?: string }[]).map((i) => `${originAt(origins, i.path)}${i.message ?? ""}`) : [];
      note.fail(error, { invalid_request: "Some origins are not valid. Each is https://host (with a port if needed), or * without tokens." }, issues);
    } finally {
      setBusy(false);
    }
  };

  const update = (key: number, change: Partial<Origin>) => setOrigins(origins.map((o) => (o.key === key ? { ...o, ...change } : o)));

  return (
    <>
      <PageHeader title="Browser access (CORS)" />
      <SiteNav site={site} />
      {loaded.loading && !loaded.data ? <Loading label="Loading browser access…" /> : null}
      {loaded.error ? <Notice kind="error" title={describeError(loaded.error).title} /> : null}
      {loaded.data ? (
        <form class="stack site-panel" aria-labelledby="cors-heading" onSubmit={(e) => void save(e)}>
          <h2 id="cors-heading">Origins allowed to call the public API</h2>
          <p class="muted">
            Exact https origins, like https://www.example.com. A page of another origin is refused.
            {loaded.data.local_origins_honoured ? " This deployment also honours http://localhost origins (local development)." : " http://localhost origins are honoured only in local development."}
          </p>
          <OutcomeNotice outcome={note.outcome} />
          {origins.length === 0 ? <p class="muted">No origin yet.</p> : null}
          <ul class="stack" aria-label="Allowed origins">
            {origins.map((o, i) => (
              <li class="row">
                <input type="text" class="mono" aria-label={`Origin ${i + 1}`} value={o.origin} maxLength={300} placeholder="https://www.example.com" onInput={(e) => update(o.key, { origin: (e.currentTarget as HTMLInputElement).value })} />
                <label class="row">
                  <input type="checkbox" checked={o.tokens} onChange={(e) => update(o.key, { tokens: (e.currentTarget as HTMLInputElement).checked })} />
                  <span>May send a site API token</span>
                </label>
                <Button variant="ghost" aria-label={`Remove origin ${i + 1}${o.origin ? ` (${o.origin})` : ""}`} onClick={() => setOrigins(origins.filter((x) => x.key !== o.key))}>
                  Remove
                </Button>
              </li>
            ))}
          </ul>
          <div class="row">
            <Button onClick={() => setOrigins([...origins, { origin: "", tokens: false, key: Math.max(-1, ...origins.map((o) => o.key)) + 1 }])}>Add an origin</Button>
            <Button type="submit" variant="primary" busy={busy}>
              Save browser access
            </Button>
          </div>
        </form>
      ) : null}
    </>
  );
}

/** "Origin 2: " for an issue path like `origins[1].origin`. */
function originAt(origins: readonly Origin[], path: string | undefined): string {
  const n = /origins\[(\d+)\]/.exec(path ?? "")?.[1] ?? /origins\.(\d+)/.exec(path ?? "")?.[1];
  if (n === undefined) return "";
  const o = origins.filter((x) => x.origin.trim())[Number(n)];
  return o ? `${o.origin}: ` : `Origin ${Number(n) + 1}: `;
}
