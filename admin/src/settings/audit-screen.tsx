import { useState } from "preact/hooks";
import { admin, type AdminAnswer } from "../api/client";
import { describeError } from "../api/error-words";
import { navigate, paths } from "../router";
import type { ScreenProps } from "../screens/types";
import { useLoad } from "../screens/use-load";
import { Button, Field, Link, Loading, Notice, PageHeader } from "../ui/controls";
import { SettingsNav } from "./nav";
import { SETTINGS_WORDS, SURFACE_WORDS, when } from "./words";
import "../styles/settings.css";

type Row = AdminAnswer<"listAuditLog">["data"][number];
const FILTERS = ["person", "credential", "entry", "action", "surface"] as const;

/**
 * Settings › Audit log (issue #30 item 6, docs/admin-ui-settings.md): who did what, when, through
 * which surface (signed in, a management credential, an OAuth app, a plugin, the operators),
 * newest first, filtered by person, credential, entry, action and surface. The filters live in the
 * address, so a filtered view can be bookmarked or shared; "Older" reads the next page.
 */
export default function AuditLog({ site, search }: ScreenProps) {
  const filter = Object.fromEntries(FILTERS.map((k) => [k, search.get(k) ?? ""])) as Record<(typeof FILTERS)[number], string>;
  const [form, setForm] = useState(filter);
  const [older, setOlder] = useState<{ rows: Row[]; next: string | null } | null>(null);
  const [busy, setBusy] = useState(false);
  const query = Object.fromEntries(Object.entries(filter).filter(([, v]) => v));
  const loaded = useLoad(
    (signal) =>
      Promise.all([
        admin("listAuditLog", { query, signal }),
        admin("listPeople", { signal }).catch(() => ({ data: [] })),
        admin("listManagementCredentials", { signal }).catch(() => ({ data: [] })),
        admin("listOAuthConnections", { signal }).catch(() => ({ data: [] })),
      ]),
    [search.toString()],
  );
  const people = loaded.data?.[1].data ?? [];
  const credentials = [
    ...(loaded.data?.[2].data ?? []).map((c) => ({ id: c.id, name: c.name })),
    ...(loaded.data?.[3].data ?? []).map((c) => ({ id: c.id, name: `${c.client_name ?? c.client_id} (OAuth app)` })),
  ];
  const credentialName = (id: string | null) => (id ? (credentials.find((c) => c.id === id)?.name ?? id) : null);
  const rows = [...(loaded.data?.[0].data ?? []), ...(older?.rows ?? [])];
  const next = older ? older.next : (loaded.data?.[0].next_cursor ?? null);

  const apply = (event: Event) => {
    event.preventDefault();
    setOlder(null);
    const q = new URLSearchParams(Object.entries(form).filter(([, v]) => v.trim()).map(([k, v]) => [k, v.trim()]));
    navigate(paths.settingsAudit(site, q.toString()), { replace: true });
  };
  const more = async () => {
    if (!next || busy) return;
    setBusy(true);
    try {
      const page = await admin("listAuditLog", { query: { ...query, before: next } });
      setOlder({ rows: [...(older?.rows ?? []), ...page.data], next: page.next_cursor });
    } finally {
      setBusy(false);
    }
  };
  const refusal = loaded.error ? describeError(loaded.error, SETTINGS_WORDS) : null;

  return (
    <>
      <PageHeader title="Audit log" />
      <SettingsNav site={site} />
      <form class="settings-filters" onSubmit={apply} aria-label="Filter the audit log">
        <Field label="Person">
          {(f) => (
            <select id={f.id} value={form.person} onChange={(e) => setForm({ ...form, person: e.currentTarget.value })}>
              <option value="">Anyone</option>
              {people.map((p) => (
                <option value={p.person_id}>{`${p.name} (${p.email})`}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Credential or app" hint="What it did, and what was done to it.">
          {(f) => (
            <select id={f.id} aria-describedby={f.describedBy} value={form.credential} onChange={(e) => setForm({ ...form, credential: e.currentTarget.value })}>
              <option value="">Any</option>
              {credentials.map((c) => (
                <option value={c.id}>{c.name}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Surface">
          {(f) => (
            <select id={f.id} value={form.surface} onChange={(e) => setForm({ ...form, surface: e.currentTarget.value })}>
              <option value="">Any</option>
              {Object.entries(SURFACE_WORDS).map(([value, label]) => (
                <option value={value}>{label}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Action" hint="e.g. entry.save, or entry. for every entry action">
          {(f) => <input id={f.id} aria-describedby={f.describedBy} value={form.action} onInput={(e) => setForm({ ...form, action: e.currentTarget.value })} />}
        </Field>
        <Field label="Entry id">
          {(f) => <input id={f.id} value={form.entry} onInput={(e) => setForm({ ...form, entry: e.currentTarget.value })} />}
        </Field>
        <div class="row settings-actions">
          <Button type="submit" variant="primary">
            Filter
          </Button>
          <Button
            variant="ghost"
            onClick={() => {
              setForm(Object.fromEntries(FILTERS.map((k) => [k, ""])) as typeof form);
              setOlder(null);
              navigate(paths.settingsAudit(site), { replace: true });
            }}
          >
            Clear filters
          </Button>
        </div>
      </form>
      {refusal ? (
        <Notice kind="error" title={refusal.title}>
          {refusal.detail ? <p>{refusal.detail}</p> : null}
        </Notice>
      ) : !loaded.data || loaded.loading ? (
        <Loading label="Loading the audit log…" />
      ) : (
        <p class="muted" role="status">{rows.length === 0 ? "Nothing was recorded that matches these filters." : `${rows.length} ${rows.length === 1 ? "record" : "records"} shown, newest first.`}</p>
      )}
      {rows.length > 0 ? (
        <ol class="settings-items audit-rows" aria-label="Audit records">
          {rows.map((r) => (
            <li class="settings-item audit-row">
              <div>
                <strong>
                  <code>{r.action}</code>
                </strong>{" "}
                <span class="muted">{`· ${when(r.at)}`}</span>
                <div class="settings-line">
                  {`${r.person_name ?? r.person_id ?? "The service"} · ${SURFACE_WORDS[r.surface] ?? r.surface}`}
                  {r.credential_id && r.surface !== "admin" ? ` · ${credentialName(r.credential_id)}` : ""}
                </div>
                {r.target_kind ? (
                  <div class="muted settings-line">
                    {r.target_kind === "entry" && r.target_id ? (
                      <Link href={paths.entry(site, r.target_id)}>{`Entry ${r.target_id}`}</Link>
                    ) : (
                      `${r.target_kind.replace(/_/g, " ")} ${credentialName(r.target_id) ?? ""}`
                    )}
                  </div>
                ) : null}
              </div>
            </li>
          ))}
        </ol>
      ) : null}
      {next ? (
        <Button busy={busy} onClick={more}>
          Older records
        </Button>
      ) : null}
    </>
  );
}
