import { useState } from "preact/hooks";
import { EVENT_NAMES } from "../../../shared/events/names";
import { admin, type AdminAnswer } from "../api/client";
import type { ScreenProps } from "../screens/types";
import { useLoad } from "../screens/use-load";
import { ConfirmAction } from "../ui/confirm-dialog";
import { Button, Field, Loading, PageHeader } from "../ui/controls";
import { SettingsNav } from "./nav";
import { OutcomeNotice, useOutcome } from "./outcome";
import { SecretOnce } from "./secret-once";
import { when } from "./words";
import "../styles/settings.css";

type Webhook = AdminAnswer<"listWebhooks">["data"][number];
type Delivery = AdminAnswer<"listWebhookDeliveries">["data"][number];

const STATE_WORDS: Record<string, string> = { pending: "Waiting to be sent again", delivered: "Delivered", dead: "Gave up" };

/**
 * Settings › Webhooks (issue #30 item 5, docs/admin-ui-settings.md): create one (the signing
 * secret shown once), send a test delivery now and read how it went, read its recent deliveries
 * with their state and last answer, delete it; deliveries that gave up (webhooks and plugins) with
 * Retry.
 */
export default function WebhookSettings({ site }: ScreenProps) {
  const loaded = useLoad((signal) => Promise.all([admin("listWebhooks", { signal }), admin("listDeadLetters", { signal })]), []);
  const { outcome, done, failed, refused } = useOutcome();
  const [secret, setSecret] = useState<{ url: string; value: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [deliveries, setDeliveries] = useState<Record<string, Delivery[]>>({});
  const [deleting, setDeleting] = useState<Webhook | null>(null);

  const act = async (id: string, run: () => Promise<void>) => {
    if (busy) return;
    setBusy(id);
    try {
      await run();
    } catch (error) {
      failed(error);
    } finally {
      setBusy(null);
    }
  };
  const test = (hook: Webhook) =>
    act(hook.id, async () => {
      const result = await admin("testWebhook", { params: { id: hook.id } });
      if (result.ok) done(`Test delivery to ${hook.url}: answered ${result.status} in ${result.duration_ms} ms.`);
      else refused(`Test delivery to ${hook.url} failed: ${result.error ?? "no answer"}.`);
    });
  const showDeliveries = (hook: Webhook) =>
    act(hook.id, async () => {
      const answer = await admin("listWebhookDeliveries", { params: { id: hook.id } });
      setDeliveries({ ...deliveries, [hook.id]: answer.data });
      done(`${answer.data.length} recent ${answer.data.length === 1 ? "delivery" : "deliveries"} to ${hook.url}.`);
    });

  return (
    <>
      <PageHeader title="Webhooks" />
      <SettingsNav site={site} />
      <OutcomeNotice outcome={outcome} />
      {secret ? <SecretOnce label={`Signing secret of ${secret.url}`} value={secret.value} copyLabel="Copy secret" onCopied={done} onDone={() => setSecret(null)} /> : null}
      {!loaded.data ? (
        loaded.error ? null : <Loading label="Loading webhooks…" />
      ) : (
        <>
          <section aria-labelledby="hooks-heading" class="settings-section">
            <h2 id="hooks-heading">Webhooks</h2>
            <p class="muted">Each event of the site is POSTed, signed with the webhook's secret (X-Driftwood-Signature), and retried for a while when the receiver fails.</p>
            <CreateWebhook
              onCreated={(created) => {
                setSecret({ url: created.url, value: created.secret });
                done(`The webhook to ${created.url} is created. Copy its signing secret now: it is shown only once.`);
                loaded.reload();
              }}
              onFailed={failed}
            />
            {loaded.data[0].data.length === 0 ? <p class="muted">No webhook yet.</p> : null}
            <ul class="settings-items" aria-label="Webhooks">
              {loaded.data[0].data.map((hook) => (
                <li class="settings-item settings-hook">
                  <div>
                    <strong class="settings-url">{hook.url}</strong>
                    <div class="muted settings-line">Events: {hook.events.join(", ")}</div>
                    <div class="muted settings-line">Created {when(hook.created_at)}</div>
                    {deliveries[hook.id] ? <DeliveryList url={hook.url} rows={deliveries[hook.id] ?? []} /> : null}
                  </div>
                  <div class="row settings-item-actions">
                    <Button busy={busy === hook.id} aria-label={`Send test delivery to ${hook.url}`} onClick={() => test(hook)}>
                      Send test
                    </Button>
                    <Button busy={busy === hook.id} aria-label={`Recent deliveries to ${hook.url}`} onClick={() => showDeliveries(hook)}>
                      Recent deliveries
                    </Button>
                    <Button variant="danger" aria-label={`Delete the webhook to ${hook.url}`} onClick={() => setDeleting(hook)}>
                      Delete
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="dead-heading" class="settings-section">
            <h2 id="dead-heading">Deliveries that gave up</h2>
            {loaded.data[1].data.length === 0 ? <p class="muted">None: every delivery arrived or is still being tried.</p> : null}
            <ul class="settings-items" aria-label="Deliveries that gave up">
              {loaded.data[1].data.map((dead) => (
                <li class="settings-item">
                  <div>
                    <strong>{dead.event_name ?? dead.event_id}</strong> <span class="muted">{`· ${dead.subscriber_kind === "plugin" ? "plugin" : "webhook"} ${dead.webhook_url ?? "(gone)"}`}</span>
                    <div class="muted settings-line">{`${dead.attempts} attempts · last answer ${dead.last_status ?? "none"}${dead.last_error ? ` (${dead.last_error})` : ""} · gave up ${when(dead.dead_at)}`}</div>
                  </div>
                  <Button
                    busy={busy === dead.id}
                    aria-label={`Retry ${dead.event_name ?? dead.event_id} to ${dead.webhook_url ?? dead.webhook_id}`}
                    onClick={() =>
                      act(dead.id, async () => {
                        await admin("retryDeadLetter", { params: { id: dead.id } });
                        done(`${dead.event_name ?? "The delivery"} is being sent again.`);
                        loaded.reload();
                      })
                    }
                  >
                    Retry
                  </Button>
                </li>
              ))}
            </ul>
          </section>
        </>
      )}
      <ConfirmAction
        open={deleting !== null}
        title={`Delete the webhook to ${deleting?.url ?? ""}?`}
        confirm="Delete"
        danger
        run={async (key) => {
          if (!deleting) return;
          await admin("deleteWebhook", { params: { id: deleting.id }, key });
          done(`The webhook to ${deleting.url} is deleted.`);
          loaded.reload();
        }}
        onClose={() => setDeleting(null)}
      >
        <p>No more events are sent to it; deliveries still waiting end as given up.</p>
      </ConfirmAction>
    </>
  );
}

function DeliveryList({ url, rows }: { url: string; rows: Delivery[] }) {
  if (rows.length === 0) return <p class="muted">No delivery to this webhook yet.</p>;
  return (
    <ul class="settings-deliveries" aria-label={`Recent deliveries to ${url}`}>
      {rows.map((d) => (
        <li>
          <strong>{d.event_name ?? d.event_id}</strong>
          {` · ${STATE_WORDS[d.state] ?? d.state} · ${d.attempts} ${d.attempts === 1 ? "attempt" : "attempts"} · last answer ${d.last_status ?? "none"}${d.last_error ? ` (${d.last_error})` : ""} · ${when(d.updated_at)}`}
        </li>
      ))}
    </ul>
  );
}

function CreateWebhook({ onCreated, onFailed }: { onCreated: (c: AdminAnswer<"createWebhook">) => void; onFailed: (e: unknown) => void }) {
  const [url, setUrl] = useState("");
  const [all, setAll] = useState(true);
  const [events, setEvents] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const created = await admin("createWebhook", { body: { url, events: all ? ["*"] : events } });
      setUrl("");
      onCreated(created);
    } catch (error) {
      onFailed(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <details class="settings-create">
      <summary>New webhook</summary>
      <form onSubmit={submit}>
        <Field label="Receiver URL" hint="https, on a public host.">
          {(f) => <input id={f.id} type="url" required aria-describedby={f.describedBy} value={url} onInput={(e) => setUrl(e.currentTarget.value)} />}
        </Field>
        <label class="row">
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.currentTarget.checked)} />
          Every event (also events added later)
        </label>
        {all ? null : (
          <fieldset class="settings-checks">
            <legend>Events</legend>
            {EVENT_NAMES.map((name) => (
              <label class="row">
                <input type="checkbox" checked={events.includes(name)} onChange={(e) => setEvents(e.currentTarget.checked ? [...events, name] : events.filter((n) => n !== name))} />
                <code>{name}</code>
              </label>
            ))}
          </fieldset>
        )}
        <Button type="submit" variant="primary" busy={busy}>
          Create webhook
        </Button>
      </form>
    </details>
  );
}
