import { useState } from "preact/hooks";
import { ALL_SCOPES } from "../../../schema/scopes";
import { admin, manage, type AdminAnswer } from "../api/client";
import { paths } from "../router";
import type { ScreenProps } from "../screens/types";
import { useLoad } from "../screens/use-load";
import { ConfirmAction } from "../ui/confirm-dialog";
import { Button, Field, Link, Loading, PageHeader } from "../ui/controls";
import { SettingsNav } from "./nav";
import { OutcomeNotice, useOutcome } from "./outcome";
import { SecretOnce } from "./secret-once";
import { when } from "./words";
import "../styles/settings.css";

type Credential = AdminAnswer<"listManagementCredentials">["data"][number];
type Token = AdminAnswer<"listSiteTokens">["data"][number];
type Connection = AdminAnswer<"listOAuthConnections">["data"][number];
type Revoking = { kind: "credential"; item: Credential } | { kind: "token"; item: Token } | { kind: "connection"; item: Connection };

/**
 * Settings › Credentials (issue #30 item 4, docs/admin-ui-settings.md): management credentials
 * (scopes and models; the secret shown once with a Copy button; revoke), site API tokens (read-only
 * delivery tokens by model), OAuth app connections (which app, scopes, since when; disconnect).
 * Backend read tokens live with the generated backend on Source and publishing (linked).
 */
export default function CredentialsSettings({ site }: ScreenProps) {
  const loaded = useLoad(
    (signal) =>
      Promise.all([
        admin("listManagementCredentials", { signal }),
        admin("listSiteTokens", { signal }),
        admin("listOAuthConnections", { signal }),
        manage("listModels", { signal }),
      ]),
    [],
  );
  const { outcome, done, failed } = useOutcome();
  const [secret, setSecret] = useState<{ label: string; value: string; copy: string } | null>(null);
  const [revoking, setRevoking] = useState<Revoking | null>(null);
  const models = loaded.data?.[3].data ?? [];
  const modelName = (id: string) => models.find((m) => m.id === id)?.name ?? id;

  const revokeRun = async (key: string) => {
    if (!revoking) return;
    if (revoking.kind === "credential") await admin("revokeManagementCredential", { params: { id: revoking.item.id }, key });
    else if (revoking.kind === "token") await admin("revokeSiteToken", { params: { id: revoking.item.id }, key });
    else await admin("revokeOAuthConnection", { params: { id: revoking.item.id }, key });
    done(revoking.kind === "connection" ? `${revoking.item.client_name ?? revoking.item.client_id} is disconnected: its tokens stopped working.` : `${revoking.item.name} is revoked: it stopped working.`);
    loaded.reload();
  };

  return (
    <>
      <PageHeader title="Credentials and connections" />
      <SettingsNav site={site} />
      <OutcomeNotice outcome={outcome} />
      {loaded.error ? <OutcomeNotice outcome={{ kind: "error", title: "The credentials could not be read.", detail: String((loaded.error as Error).message) }} /> : null}
      {secret ? <SecretOnce label={secret.label} value={secret.value} copyLabel={secret.copy} onCopied={done} onDone={() => setSecret(null)} /> : null}
      {!loaded.data ? (
        <Loading label="Loading credentials…" />
      ) : (
        <>
          <section aria-labelledby="credentials-heading" class="settings-section">
            <h2 id="credentials-heading">Management credentials</h2>
            <p class="muted">For scripts, the command line and MCP clients: each acts as you, within its scopes and models, and never beyond your role.</p>
            <CreateCredential
              models={models}
              onCreated={(created) => {
                setSecret({ label: `Secret of ${created.name}`, value: created.token, copy: "Copy secret" });
                done(`The credential ${created.name} is created. Copy its secret now: it is shown only once.`);
                loaded.reload();
              }}
              onFailed={failed}
            />
            <ItemList
              label="Management credentials"
              empty="No management credential yet."
              items={loaded.data[0].data.map((c) => ({
                id: c.id,
                name: c.name,
                revoked: c.revoked_at,
                lines: [`Scopes: ${c.scopes.join(", ")}`, `Models: ${c.model_ids === null ? "all" : c.model_ids.map(modelName).join(", ") || "none"}`, `Created ${when(c.created_at)}`],
                onRevoke: () => setRevoking({ kind: "credential", item: c }),
              }))}
            />
          </section>

          <section aria-labelledby="tokens-heading" class="settings-section">
            <h2 id="tokens-heading">Site API tokens</h2>
            <p class="muted">Read published content of chosen models through the public API (a website or an app). They cannot write.</p>
            <CreateToken
              models={models.filter((m) => m.is_public)}
              onCreated={(created) => {
                setSecret({ label: `Token of ${created.name}`, value: created.token, copy: "Copy token" });
                done(`The token ${created.name} is created. Copy it now: it is shown only once.`);
                loaded.reload();
              }}
              onFailed={failed}
            />
            <ItemList
              label="Site API tokens"
              empty="No site API token yet."
              items={loaded.data[1].data.map((t) => ({
                id: t.id,
                name: t.name,
                revoked: t.revoked_at,
                lines: [`Models: ${t.model_ids.map(modelName).join(", ")}`, `Created ${when(t.created_at)}`],
                onRevoke: () => setRevoking({ kind: "token", item: t }),
              }))}
            />
          </section>

          <section aria-labelledby="connections-heading" class="settings-section">
            <h2 id="connections-heading">Connected apps (OAuth)</h2>
            <p class="muted">Apps a member connected with "Sign in with Driftwood" (for example an AI assistant through MCP).</p>
            <ItemList
              label="Connected apps"
              empty="No app is connected."
              revokeWord="Disconnect"
              items={loaded.data[2].data.map((c) => ({
                id: c.id,
                name: c.client_name ?? c.client_id,
                revoked: c.revoked_at,
                lines: [`Scopes: ${c.scopes.join(", ")}`, `Connected ${when(c.created_at)}`, `Last refresh ${c.last_refresh_at ? when(c.last_refresh_at) : "— no live token"}`],
                onRevoke: () => setRevoking({ kind: "connection", item: c }),
              }))}
            />
          </section>

          <section aria-labelledby="read-tokens-heading" class="settings-section">
            <h2 id="read-tokens-heading">Backend read tokens</h2>
            <p>
              Tokens of the generated backend are issued and revoked with it: <Link href={paths.sourcePublishing(site)}>Source and publishing</Link>.
            </p>
          </section>
        </>
      )}
      <ConfirmAction
        open={revoking !== null}
        title={revoking ? `${revoking.kind === "connection" ? "Disconnect" : "Revoke"} ${revoking.kind === "connection" ? (revoking.item.client_name ?? revoking.item.client_id) : revoking.item.name}?` : ""}
        confirm={revoking?.kind === "connection" ? "Disconnect" : "Revoke"}
        danger
        run={revokeRun}
        onClose={() => setRevoking(null)}
      >
        <p>It stops working at its next request. This cannot be undone: make a new one if needed.</p>
      </ConfirmAction>
    </>
  );
}

type ModelChoice = { id: string; name: string };

/** Items with their details and a Revoke button, as a list that fits a phone. */
function ItemList({ label, empty, items, revokeWord = "Revoke" }: { label: string; empty: string; revokeWord?: string; items: { id: string; name: string; revoked: string | null; lines: string[]; onRevoke: () => void }[] }) {
  if (items.length === 0) return <p class="muted">{empty}</p>;
  return (
    <ul class="settings-items" aria-label={label}>
      {items.map((item) => (
        <li class="settings-item">
          <div>
            <strong>{item.name}</strong> <span class="muted">{item.revoked ? `· Revoked ${when(item.revoked)}` : "· Active"}</span>
            {item.lines.map((line) => (
              <div class="muted settings-line">{line}</div>
            ))}
          </div>
          {item.revoked ? null : (
            <Button variant="danger" aria-label={`${revokeWord} ${item.name}`} onClick={item.onRevoke}>
              {revokeWord}
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}

function ModelChecks({ legend, models, chosen, onChange }: { legend: string; models: readonly ModelChoice[]; chosen: string[]; onChange: (next: string[]) => void }) {
  return (
    <fieldset class="settings-checks">
      <legend>{legend}</legend>
      {models.map((m) => (
        <label class="row">
          <input type="checkbox" checked={chosen.includes(m.id)} onChange={(e) => onChange(e.currentTarget.checked ? [...chosen, m.id] : chosen.filter((id) => id !== m.id))} />
          {m.name}
        </label>
      ))}
    </fieldset>
  );
}

function CreateCredential({ models, onCreated, onFailed }: { models: readonly ModelChoice[]; onCreated: (c: AdminAnswer<"createManagementCredential">) => void; onFailed: (e: unknown) => void }) {
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<string[]>(["content:read"]);
  const [allModels, setAllModels] = useState(true);
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const created = await admin("createManagementCredential", { body: { name, scopes: scopes as (typeof ALL_SCOPES)[number][], model_ids: allModels ? null : chosen } });
      setName("");
      onCreated(created);
    } catch (error) {
      onFailed(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <details class="settings-create">
      <summary>New management credential</summary>
      <form onSubmit={submit}>
        <Field label="Credential name" hint="Who or what uses it, e.g. Deploy script.">
          {(f) => <input id={f.id} required maxLength={80} aria-describedby={f.describedBy} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <fieldset class="settings-checks">
          <legend>Scopes</legend>
          {ALL_SCOPES.map((scope) => (
            <label class="row">
              <input type="checkbox" checked={scopes.includes(scope)} disabled={scope === "content:read"} onChange={(e) => setScopes(e.currentTarget.checked ? [...scopes, scope] : scopes.filter((s) => s !== scope))} />
              <code>{scope}</code>
            </label>
          ))}
        </fieldset>
        <label class="row">
          <input type="checkbox" checked={allModels} onChange={(e) => setAllModels(e.currentTarget.checked)} />
          Every model (also models made later)
        </label>
        {allModels ? null : <ModelChecks legend="Models" models={models} chosen={chosen} onChange={setChosen} />}
        <Button type="submit" variant="primary" busy={busy}>
          Create credential
        </Button>
      </form>
    </details>
  );
}

function CreateToken({ models, onCreated, onFailed }: { models: readonly ModelChoice[]; onCreated: (c: AdminAnswer<"createSiteToken">) => void; onFailed: (e: unknown) => void }) {
  const [name, setName] = useState("");
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const created = await admin("createSiteToken", { body: { name, model_ids: chosen } });
      setName("");
      onCreated(created);
    } catch (error) {
      onFailed(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <details class="settings-create">
      <summary>New site API token</summary>
      <form onSubmit={submit}>
        <Field label="Token name" hint="e.g. Website, Mobile app.">
          {(f) => <input id={f.id} required maxLength={80} aria-describedby={f.describedBy} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <ModelChecks legend="Models it reads" models={models} chosen={chosen} onChange={setChosen} />
        <Button type="submit" variant="primary" busy={busy}>
          Create token
        </Button>
      </form>
    </details>
  );
}
