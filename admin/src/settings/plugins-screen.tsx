import { useState } from "preact/hooks";
import { admin, manage, newActionKey, type ManageAnswer } from "../api/client";
import type { ScreenProps } from "../screens/types";
import { useLoad } from "../screens/use-load";
import { ConfirmAction } from "../ui/confirm-dialog";
import { Button, Field, Loading, PageHeader } from "../ui/controls";
import { SettingsNav } from "./nav";
import { OutcomeNotice, useOutcome } from "./outcome";
import { OperationCard } from "./plugin-operation";
import { MediaSourceBrowser } from "../plugins/media-source-browser";
import { SecretOnce } from "./secret-once";
import { when } from "./words";
import "../styles/settings.css";

/** An installation as the admin route answers it (shared/services/plugins/installations.ts, InstallationView). */
interface Installation {
  id: string;
  plugin_id: string;
  name: string;
  version: string;
  state: string;
  manifest: { capabilities?: string[]; endpoint?: string };
  granted_capabilities: string[];
  granted_model_ids: string[];
  created_at: string;
}

type Operation = ManageAnswer<"listPluginOperations">["data"][number];

const STATE_WORDS: Record<string, string> = { pending: "Installed, not yet enabled", active: "Enabled", disabled: "Disabled", revoked: "Revoked" };

/**
 * Settings › Plugins (issue #30 item 5 and what #26 built; docs/admin-ui-settings.md): installations
 * (install from a manifest, the grant with what is requested but not granted, enable/disable,
 * rotate the token — shown once —, uninstall), the operations the person may run with their input
 * form and result blocks, the declared content policies, and the plugins' media sources (browse,
 * import a copy into the library).
 */
export default function PluginSettings({ site }: ScreenProps) {
  const loaded = useLoad(
    (signal) =>
      Promise.all([
        admin("listPlugins", { signal }),
        manage("listPluginOperations", { signal }),
        manage("listPlugins", { signal }),
        manage("listMediaSources", { signal }).catch(() => ({ data: [] })),
        manage("listModels", { signal }),
      ]),
    [],
  );
  const { outcome, done, failed, clear } = useOutcome();
  const [secrets, setSecrets] = useState<{ name: string; token: string; event_secret: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [uninstalling, setUninstalling] = useState<Installation | null>(null);
  const installations = (loaded.data?.[0].data ?? []) as unknown as Installation[];
  const operations = (loaded.data?.[1].data ?? []).filter((op) => !op.automation);
  const policies = (loaded.data?.[2].data ?? []).flatMap((p) => (p.policies ?? []).map((policy) => ({ plugin: p.name, ...policy })));
  const sources = loaded.data?.[3].data ?? [];
  const models = loaded.data?.[4].data ?? [];

  const act = async (plugin: Installation, what: string, run: () => Promise<unknown>) => {
    if (busy) return;
    setBusy(plugin.id);
    try {
      await run();
      done(`${plugin.name} ${what}.`);
      loaded.reload();
    } catch (error) {
      failed(error);
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      <PageHeader title="Plugins" />
      <SettingsNav site={site} />
      <OutcomeNotice outcome={outcome} />
      {secrets ? (
        <div class="settings-section">
          <SecretOnce label={`Installation token of ${secrets.name}`} value={secrets.token} copyLabel="Copy token" onCopied={done} onDone={() => setSecrets(null)} />
          <SecretOnce label={`Event secret of ${secrets.name}`} value={secrets.event_secret} copyLabel="Copy event secret" onCopied={done} onDone={() => setSecrets(null)} />
        </div>
      ) : null}
      {loaded.error ? <OutcomeNotice outcome={{ kind: "error", title: "The plugins could not be read." }} /> : null}
      {!loaded.data ? (
        <Loading label="Loading plugins…" />
      ) : (
        <>
          <section aria-labelledby="installed-heading" class="settings-section">
            <h2 id="installed-heading">Installed plugins</h2>
            <InstallPlugin
              onInstalled={(answer) => {
                setSecrets({ name: answer.name, token: answer.token, event_secret: answer.event_secret });
                done(`${answer.name} is installed. Give it its token now (shown only once), then grant and enable it.`);
                loaded.reload();
              }}
              onFailed={failed}
            />
            {installations.length === 0 ? <p class="muted">No plugin is installed.</p> : null}
            <ul class="settings-items" aria-label="Installed plugins">
              {installations.map((p) => (
                <li class="settings-item settings-plugin">
                  <div>
                    <strong>{p.name}</strong> <span class="muted">{`${p.version} · ${STATE_WORDS[p.state] ?? p.state}`}</span>
                    <div class="muted settings-line">Granted: {p.granted_capabilities.join(", ") || "nothing"}</div>
                    <div class="muted settings-line">Installed {when(p.created_at)}</div>
                    <GrantEditor plugin={p} models={models} busy={busy === p.id} onSave={(grant) => act(p, "has its new grant", () => admin("grantPlugin", { params: { id: p.id }, body: grant as never, key: newActionKey() }))} />
                  </div>
                  <div class="row settings-item-actions">
                    {p.state === "active" ? (
                      <Button busy={busy === p.id} aria-label={`Disable ${p.name}`} onClick={() => act(p, "is disabled", () => admin("disablePlugin", { params: { id: p.id } }))}>
                        Disable
                      </Button>
                    ) : p.state !== "revoked" ? (
                      <Button busy={busy === p.id} aria-label={`Enable ${p.name}`} onClick={() => act(p, "is enabled", () => admin("activatePlugin", { params: { id: p.id } }))}>
                        Enable
                      </Button>
                    ) : null}
                    <Button
                      busy={busy === p.id}
                      aria-label={`Rotate token of ${p.name}`}
                      onClick={() =>
                        act(p, "has a new token (the old one works one more hour)", async () => {
                          const answer = await admin("rotatePluginToken", { params: { id: p.id } });
                          setSecrets({ name: p.name, token: answer.token, event_secret: answer.event_secret });
                        })
                      }
                    >
                      Rotate token
                    </Button>
                    <Button variant="danger" aria-label={`Uninstall ${p.name}`} onClick={() => setUninstalling(p)}>
                      Uninstall
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          </section>

          <section aria-labelledby="operations-heading" class="settings-section">
            <h2 id="operations-heading">Operations</h2>
            <p class="muted">What enabled plugins can do on this site or on one entry, as you and within their grant.</p>
            {operations.length === 0 ? <p class="muted">No operation is offered to you.</p> : null}
            {operations.map((op: Operation) => (
              <OperationCard op={op} onStart={clear} onDone={done} onFailed={failed} />
            ))}
          </section>

          <section aria-labelledby="policies-heading" class="settings-section">
            <h2 id="policies-heading">Content policies</h2>
            <p class="muted">Checks plugins make before a save, publication, deletion or workflow move, through every surface.</p>
            {policies.length === 0 ? (
              <p class="muted">No plugin declares a content policy.</p>
            ) : (
              <ul class="settings-items" aria-label="Content policies">
                {policies.map((p) => (
                  <li class="settings-item">
                    <div>
                      <strong>{p.label}</strong> <span class="muted">{`· ${p.plugin} · ${p.mode === "transform" ? "may change fields" : "may refuse"}`}</span>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </section>

          <section aria-labelledby="sources-heading" class="settings-section">
            <h2 id="sources-heading">Media sources</h2>
            <p class="muted">Also in the media library, under "Add from …".</p>
            {sources.length === 0 ? <p class="muted">No enabled plugin offers media.</p> : null}
            {sources.map((source) => (
              <MediaSourceBrowser class="settings-item" source={source} onStart={clear} onDone={(words) => done(words)} onFailed={failed} libraryLink />
            ))}
          </section>
        </>
      )}
      <ConfirmAction
        open={uninstalling !== null}
        title={`Uninstall ${uninstalling?.name ?? ""}?`}
        confirm="Uninstall"
        danger
        run={async (key) => {
          if (!uninstalling) return;
          await admin("uninstallPlugin", { params: { id: uninstalling.id }, key });
          done(`${uninstalling.name} is uninstalled: its token stopped working.`);
          loaded.reload();
        }}
        onClose={() => setUninstalling(null)}
      >
        <p>Its token stops working and its views, actions, operations and policies leave the site.</p>
      </ConfirmAction>
    </>
  );
}

/** The grant: each requested capability (unchecked ones are requested but not granted), and the models. */
function GrantEditor({ plugin, models, busy, onSave }: { plugin: Installation; models: readonly { id: string; name: string }[]; busy: boolean; onSave: (grant: { capabilities: string[]; model_ids: string[] }) => void }) {
  const requested = plugin.manifest.capabilities ?? [];
  const [caps, setCaps] = useState(plugin.granted_capabilities);
  const [chosen, setChosen] = useState(plugin.granted_model_ids);
  const missing = requested.filter((c) => !plugin.granted_capabilities.includes(c));
  return (
    <details class="settings-create">
      <summary>{`Grant of ${plugin.name}${missing.length ? ` (${missing.length} requested, not granted)` : ""}`}</summary>
      <fieldset class="settings-checks">
        <legend>Capabilities</legend>
        {requested.map((c) => (
          <label class="row">
            <input type="checkbox" checked={caps.includes(c)} onChange={(e) => setCaps(e.currentTarget.checked ? [...caps, c] : caps.filter((x) => x !== c))} />
            <code>{c}</code>
            {plugin.granted_capabilities.includes(c) ? null : <span class="muted"> · not granted</span>}
          </label>
        ))}
      </fieldset>
      <fieldset class="settings-checks">
        <legend>Models</legend>
        {models.map((m) => (
          <label class="row">
            <input type="checkbox" checked={chosen.includes(m.id)} onChange={(e) => setChosen(e.currentTarget.checked ? [...chosen, m.id] : chosen.filter((x) => x !== m.id))} />
            {m.name}
          </label>
        ))}
      </fieldset>
      <Button busy={busy} onClick={() => onSave({ capabilities: caps, model_ids: chosen })}>
        Save grant
      </Button>
    </details>
  );
}

/**
 * Install from a manifest: read from its address by the service (the page may only talk to this
 * service), or pasted. For a plugin already installed, the capabilities the new manifest adds and
 * drops are shown (what a grant would then need).
 */
function InstallPlugin({ onInstalled, onFailed }: { onInstalled: (a: { name: string; token: string; event_secret: string }) => void; onFailed: (e: unknown) => void }) {
  const [address, setAddress] = useState("");
  const [text, setText] = useState("");
  const [diff, setDiff] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fetchManifest = async () => {
    if (busy || !address.trim()) return;
    setBusy(true);
    try {
      const answer = await admin("fetchPluginManifest", { body: { url: address.trim() } });
      setText(JSON.stringify(answer.manifest, null, 2));
      const m = answer.manifest as { name?: string; version?: string; capabilities?: string[] };
      const installed = answer.installed;
      setDiff(
        installed
          ? `${m.name ?? "This plugin"} ${installed.version} is installed; this manifest is ${m.version ?? "?"}. It adds: ${installed.added_capabilities.join(", ") || "nothing"}; it drops: ${installed.removed_capabilities.join(", ") || "nothing"}.`
          : `${m.name ?? "The plugin"} ${m.version ?? ""} asks for: ${(m.capabilities ?? []).join(", ") || "nothing"}.`,
      );
    } catch (error) {
      setDiff(null);
      onFailed(error);
    } finally {
      setBusy(false);
    }
  };
  const submit = async (event: Event) => {
    event.preventDefault();
    let manifest: unknown;
    try {
      manifest = JSON.parse(text);
    } catch {
      return setProblem("This is not JSON: fetch the manifest from its address or paste its manifest.json as it is.");
    }
    setProblem(null);
    setBusy(true);
    try {
      const answer = await admin("installPlugin", { body: manifest as never });
      const installation = answer.installation as unknown as Installation;
      setText("");
      setDiff(null);
      onInstalled({ name: installation.name, token: answer.token, event_secret: answer.event_secret });
    } catch (error) {
      onFailed(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <details class="settings-create">
      <summary>Install a plugin</summary>
      <div class="row settings-add">
        <Field label="Manifest address" hint="https://…/manifest.json: the service reads it (5 s, at most 32 KB).">
          {(f) => <input id={f.id} type="url" aria-describedby={f.describedBy} value={address} onInput={(e) => setAddress(e.currentTarget.value)} />}
        </Field>
        <Button busy={busy} onClick={fetchManifest}>
          Fetch manifest
        </Button>
      </div>
      {diff ? <p class="settings-line">{diff}</p> : null}
      <form onSubmit={submit}>
        <Field label="Plugin manifest (JSON)" hint="Fetched from the address above, or pasted; at most 32 KB." errors={problem ? [problem] : []}>
          {(f) => <textarea id={f.id} rows={6} required aria-describedby={f.describedBy} value={text} onInput={(e) => setText(e.currentTarget.value)} spellcheck={false} />}
        </Field>
        <Button type="submit" variant="primary" busy={busy}>
          Install
        </Button>
      </form>
    </details>
  );
}
