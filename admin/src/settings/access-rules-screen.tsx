import { useEffect, useState } from "preact/hooks";
import { manage, newActionKey, type ManageAnswer } from "../api/client";
import type { ScreenProps } from "../screens/types";
import { useLoad } from "../screens/use-load";
import { Button, Field, Loading, PageHeader } from "../ui/controls";
import { SettingsLoadFailed } from "./load-failed";
import { SettingsNav } from "./nav";
import { OutcomeNotice, useOutcome } from "./outcome";
import { useSettingsSave } from "./use-settings-save";
import "../styles/settings.css";

type Rule = { key: number; path_prefix: string; role_ids: string[] };
type Role = ManageAnswer<"listRoles">["data"][number];

let nextKey = 0;
const keyed = (rule: { path_prefix: string; role_ids: string[] }): Rule => ({ key: (nextKey += 1), path_prefix: rule.path_prefix, role_ids: [...rule.role_ids] });

/**
 * Settings › Member-only paths (issue #30 item 3; the API is docs/access-rules.md): the website's
 * access proxy lets a path that starts with a rule's prefix through only for people holding one of
 * its roles. Rules are saved whole with the revision read (`settings_changed` in words); a role a
 * rule names cannot be deleted (Roles says so), and the service checks paths and roles, its issues
 * listed in the screen's one live region.
 */
export default function AccessRules({ site }: ScreenProps) {
  const loaded = useLoad((signal) => Promise.all([manage("getAccessRules", { signal }), manage("listRoles", { signal })]), []);
  const [rules, setRules] = useState<Rule[] | null>(null);
  const said = useOutcome();
  const { outcome } = said;
  const { busy, run } = useSettingsSave(said, () => loaded.reload());
  const saved = loaded.data?.[0];
  const roles: Role[] = loaded.data?.[1].data ?? [];
  useEffect(() => {
    if (saved) setRules(saved.rules.map(keyed));
  }, [saved]);

  if (loaded.error) return <SettingsLoadFailed site={site} title="Member-only paths" error={loaded.error} />;
  if (!saved || !rules) return <Loading label="Loading member-only paths…" />;
  const change = (key: number, patch: Partial<Rule>) => setRules(rules.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  const save = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      await manage("putAccessRules", { body: { rules: rules.map((r) => ({ path_prefix: r.path_prefix.trim(), role_ids: r.role_ids })), expected_revision: saved.revision }, key: newActionKey() });
      return rules.length === 0 ? "Member-only paths saved: every path of the website is public." : `Member-only paths saved (${rules.length} ${rules.length === 1 ? "rule" : "rules"}).`;
    });
  };

  return (
    <>
      <PageHeader title="Member-only paths" />
      <SettingsNav site={site} />
      <OutcomeNotice outcome={outcome} />
      <p class="muted">
        For the website's access proxy (it reads these rules with a read-only credential): a page whose path starts with a rule's prefix is shown only to people holding one of the rule's roles.
        A role a rule names cannot be deleted until the rule changes.
      </p>
      <form class="settings-form" onSubmit={save} noValidate>
        {rules.length === 0 ? <p>No member-only paths: every page of the website is public.</p> : null}
        {rules.map((rule, index) => (
          <section class="settings-section" aria-label={`Rule ${index + 1}${rule.path_prefix ? `: ${rule.path_prefix}` : ""}`}>
            <Field label={`Path prefix of rule ${index + 1}`} hint="A path of the website starting with /, such as /members/.">
              {(f) => <input id={f.id} aria-describedby={f.describedBy} value={rule.path_prefix} maxLength={200} onInput={(e) => change(rule.key, { path_prefix: e.currentTarget.value })} />}
            </Field>
            <fieldset>
              <legend>Roles let through by rule {index + 1}</legend>
              {roles.map((role) => (
                <label class="row">
                  <input
                    type="checkbox"
                    checked={rule.role_ids.includes(role.id)}
                    onChange={(e) => change(rule.key, { role_ids: e.currentTarget.checked ? [...rule.role_ids, role.id] : rule.role_ids.filter((id) => id !== role.id) })}
                  />
                  {role.name}
                </label>
              ))}
            </fieldset>
            <Button variant="ghost" aria-label={`Remove rule ${index + 1}${rule.path_prefix ? ` (${rule.path_prefix})` : ""}`} onClick={() => setRules(rules.filter((r) => r.key !== rule.key))}>
              Remove rule
            </Button>
          </section>
        ))}
        <div class="row settings-actions">
          <Button onClick={() => setRules([...rules, keyed({ path_prefix: "", role_ids: [] })])}>Add rule</Button>
          <Button type="submit" variant="primary" busy={busy}>
            Save member-only paths
          </Button>
          <Button variant="ghost" onClick={() => setRules(saved.rules.map(keyed))}>
            Undo changes
          </Button>
        </div>
      </form>
    </>
  );
}
