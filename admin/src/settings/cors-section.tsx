import { useEffect, useState } from "preact/hooks";
import { manage, newActionKey } from "../api/client";
import { useLoad } from "../screens/use-load";
import { Button, Field } from "../ui/controls";

type Origin = { origin: string; tokens: boolean };

/**
 * Browser access to the public API (docs/cors.md): the origins whose pages may call it, and which
 * may send a site API token. Its own route and Save (`PUT /settings/cors`, with the revision read).
 */
export function CorsSection({ onDone, onFailed }: { onDone: (title: string) => void; onFailed: (e: unknown) => void }) {
  const loaded = useLoad((signal) => manage("getCorsSettings", { signal }), []);
  const [origins, setOrigins] = useState<Origin[]>([]);
  const [next, setNext] = useState("");
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (loaded.data) setOrigins(loaded.data.cors.origins);
  }, [loaded.data]);

  const save = async () => {
    if (busy || !loaded.data) return;
    setBusy(true);
    try {
      await manage("putCorsSettings", { body: { origins, expected_revision: loaded.data.revision }, key: newActionKey() });
      onDone("Browser access saved.");
      loaded.reload();
    } catch (error) {
      onFailed(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="cors-heading" class="settings-section">
      <h2 id="cors-heading">Browser access (CORS)</h2>
      <p class="muted">Websites whose pages may call the public API from the browser. Only origins allowed to send a token may use a site API token there.</p>
      <ul class="settings-items" aria-label="Allowed origins">
        {origins.map((o, i) => (
          <li class="settings-item">
            <code class="settings-url">{o.origin}</code>
            <label class="row">
              <input type="checkbox" checked={o.tokens} disabled={o.origin === "*"} onChange={(e) => setOrigins(origins.map((x, j) => (j === i ? { ...x, tokens: e.currentTarget.checked } : x)))} />
              {`${o.origin} may send a token`}
            </label>
            <Button variant="ghost" aria-label={`Remove ${o.origin}`} onClick={() => setOrigins(origins.filter((_, j) => j !== i))}>
              Remove
            </Button>
          </li>
        ))}
      </ul>
      <div class="row settings-add">
        <Field label="Origin" hint='https://app.example.com, or "*" for any site (never with a token).'>
          {(f) => <input id={f.id} aria-describedby={f.describedBy} value={next} onInput={(e) => setNext(e.currentTarget.value)} />}
        </Field>
        <Button
          onClick={() => {
            const origin = next.trim();
            if (origin && !origins.some((o) => o.origin === origin)) setOrigins([...origins, { origin, tokens: false }]);
            setNext("");
          }}
        >
          Add origin
        </Button>
      </div>
      <Button busy={busy} onClick={save}>
        Save browser access
      </Button>
    </section>
  );
}
