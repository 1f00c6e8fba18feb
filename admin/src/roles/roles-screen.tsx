import { useState } from "preact/hooks";
import type { ModelOperation, PermissionSet, SystemPermission } from "../../../schema/permissions";
import { ALL_MODEL_OPERATIONS, ALL_SYSTEM_PERMISSIONS, isWithin } from "../../../shared/auth/permissions";
import { ApiError, admin, manage, type ManageAnswer } from "../api/client";
import { describeError } from "../api/error-words";
import { paths } from "../router";
import type { ScreenProps } from "../screens/types";
import { useLoad } from "../screens/use-load";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { Button, Field, Link, Loading, Notice, PageHeader } from "../ui/controls";
import { useAction } from "../ui/use-action";
import { LimitsEditor } from "./limits-editor";
import { PermissionMatrix } from "./permission-matrix";
import { OPERATION_WORDS, SYSTEM_WORDS } from "./words";
import "../styles/models.css";

type Role = ManageAnswer<"listRoles">["data"][number];
interface Draft {
  id: string | null;
  revision: number | null;
  name: string;
  slug: string;
  description: string;
  permissions: PermissionSet;
}

const EMPTY: PermissionSet = { models: {}, system: [] };

/** The service's reasons (docs/people.md: `reasons` of escalation_refused and invalid_permissions). */
function reasonsOf(error: unknown): string[] {
  if (!(error instanceof ApiError)) return [];
  const reasons = error.details.reasons;
  return Array.isArray(reasons) ? reasons.filter((r): r is string => typeof r === "string") : [];
}

/**
 * A ceiling reason of the service (shared/auth/permissions.ts `isWithin`) in the screen's words:
 * permission and model names instead of codes and ids; other reasons (limits) keep the service's text.
 */
function named(reason: string, names: ReadonlyMap<string, string>): string {
  const model = (id: string) => (id === "*" ? "every model" : (names.get(id) ?? id));
  const op = /^operation "([^"]+)" on (?:model "([^"]+)"|every model \("\*"\))/.exec(reason);
  if (op) return `${OPERATION_WORDS[op[1] as ModelOperation] ?? op[1]} on ${model(op[2] ?? "*")}: your role does not hold it.`;
  const system = /^system permission "([^"]+)"/.exec(reason);
  if (system) return `${SYSTEM_WORDS[system[1] as SystemPermission] ?? system[1]} (${system[1]}): your role does not hold it.`;
  return reason.replace(/model "([A-Za-z0-9_-]+)"/g, (whole, id: string) => (names.has(id) ? `model “${names.get(id)}”` : whole));
}

/**
 * Roles and permissions (issue #30 item 2, docs/admin-ui-models.md) at /sites/:site/settings/roles:
 * the site's roles (seeded ones marked, holders counted) and one role at a time in a matrix of
 * models × operations, site permissions, field and language limits. What the person's own role does
 * not hold cannot be ticked, and the screen says why (the ceiling); the service checks it again
 * and its refusals — and a deletion's — are shown in words.
 */
export default function RolesScreen(_: ScreenProps) {
  const loaded = useLoad(async (signal) => {
    const [roles, models, me] = await Promise.all([manage("listRoles", { signal }), manage("listModels", { signal }), admin("getPermissions", { signal })]);
    return { roles: roles.data, models: models.data, me: me.permissions as unknown as PermissionSet, myRole: me.role };
  }, []);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [removing, setRemoving] = useState<Role | null>(null);
  const [said, say] = useState("");
  const action = useAction();
  const removal = useAction();

  if (loaded.loading && !loaded.data) return <Loading label="Loading roles…" />;
  if (!loaded.data) {
    return (
      <>
        <PageHeader title="Roles and permissions" />
        <Notice kind="error" title={describeError(loaded.error).title} />
      </>
    );
  }
  const { roles, models, me, myRole } = loaded.data;
  const names = new Map(models.map((m) => [m.id, m.name]));
  const modelFields = models.map((m) => ({ id: m.id, name: m.name, fields: (m.definition.fields as { id: string; key: string; label?: string }[]).map((f) => ({ id: f.id, label: f.label ?? f.key })) }));
  const canManage = me.system.includes("role:manage");
  const beyondMine = (set: PermissionSet) => isWithin(set, me).reasons.map((r) => named(r, names));

  const open = (role: Role | null) => {
    action.clearError();
    say("");
    setDraft(role ? { id: role.id, revision: role.revision, name: role.name, slug: role.slug, description: role.description ?? "", permissions: role.permissions as PermissionSet } : { id: null, revision: null, name: "", slug: "", description: "", permissions: EMPTY });
  };

  const current = draft?.id ? roles.find((r) => r.id === draft.id) : undefined;
  const currentBeyond = current ? beyondMine(current.permissions as PermissionSet) : [];
  const editable = canManage && currentBeyond.length === 0;

  const save = async (event: Event) => {
    event.preventDefault();
    if (!draft) return;
    const body = { name: draft.name.trim(), slug: draft.slug.trim(), description: draft.description.trim() || null, permissions: draft.permissions };
    const outcome = await action.attempt("save", (key) =>
      draft.id ? manage("updateRole", { params: { id: draft.id }, body: { ...body, ...(draft.revision !== null ? { expected_revision: draft.revision } : {}) }, key }) : manage("createRole", { body, key }),
    );
    if (outcome?.ok) {
      say(`Saved the role ${outcome.value.name}.`);
      setDraft({ id: outcome.value.id, revision: outcome.value.revision, name: outcome.value.name, slug: outcome.value.slug, description: outcome.value.description ?? "", permissions: outcome.value.permissions as PermissionSet });
      loaded.reload();
    }
  };

  const remove = async () => {
    if (!removing) return;
    const outcome = await removal.attempt("remove", (key) => manage("removeRole", { params: { id: removing.id }, body: {}, key }));
    if (outcome?.ok) {
      say(`Deleted the role ${removing.name}.`);
      if (draft?.id === removing.id) setDraft(null);
      setRemoving(null);
      loaded.reload();
    }
  };

  const refusal = action.error ? describeError(action.error) : null;
  const reasons = reasonsOf(action.error).map((r) => named(r, names));
  const removalReasons = reasonsOf(removal.error).map((r) => named(r, names));
  const holders = removal.error instanceof ApiError && typeof removal.error.details.holders === "number" ? removal.error.details.holders : null;
  return (
    <div class="roles-screen">
      <PageHeader title="Roles and permissions">
        {canManage ? (
          <Button variant="primary" onClick={() => open(null)}>
            New role
          </Button>
        ) : null}
        <Link href={paths.models(_.site)}>Models</Link>
      </PageHeader>
      <p class="visually-hidden" role="status" aria-live="polite">
        {said}
      </p>
      {said ? <Notice kind="success" title={said} /> : null}
      {!canManage ? <Notice kind="info" title="Your role may look at roles but not change them (it needs “Manage roles and people”)." /> : null}
      <section class="stack" aria-labelledby="roles-heading">
        <h2 id="roles-heading">Roles</h2>
        <ul class="role-list">
          {roles.map((r) => (
            <li class="card">
              <strong>{r.name}</strong>
              <span class="mono muted">{r.slug}</span>
              {r.seeded ? <span class="badge">Seeded — came with the site</span> : null}
              {r.id === myRole.id ? <span class="badge">Your role</span> : null}
              <span class="muted">{r.holders === 1 ? "1 person" : `${r.holders} people`}</span>
              <span class="spacer" />
              <Button onClick={() => open(r)}>
                Open <span class="visually-hidden">{r.name}</span>
              </Button>
              {canManage && !r.seeded ? (
                <Button
                  variant="danger"
                  onClick={() => {
                    removal.clearError();
                    setRemoving(r);
                  }}
                >
                  Delete <span class="visually-hidden">{r.name}</span>
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      </section>

      <section class="stack" aria-labelledby="ceiling-heading">
        <h2 id="ceiling-heading">What you can grant</h2>
        <p>
          A role hands out only what the person writing it holds: you can grant what your own role, {myRole.name}, allows, and change or delete only roles that stay within it. Boxes for anything else are
          marked “not yours to grant”.
        </p>
        {beyondMine(fullSet(models.map((m) => m.id))).length > 0 ? (
          <details>
            <summary>What your role does not hold</summary>
            <ul>
              {beyondMine(fullSet(models.map((m) => m.id))).map((r) => (
                <li>{r}</li>
              ))}
            </ul>
          </details>
        ) : (
          <p class="muted">Your role holds every permission, so you can grant anything.</p>
        )}
      </section>

      {draft ? (
        <form class="stack card" aria-labelledby="role-form-heading" onSubmit={(e) => void save(e)}>
          <h2 id="role-form-heading">{draft.id ? `Role: ${draft.name}` : "New role"}</h2>
          {current?.seeded ? <Notice kind="info" title="A seeded role: its permissions can change, its slug stays and it cannot be deleted." /> : null}
          {currentBeyond.length > 0 ? (
            <Notice kind="warning" title={`You cannot change or delete ${current?.name ?? "this role"}: it holds what your role does not.`}>
              <ul>
                {currentBeyond.map((r) => (
                  <li>{r}</li>
                ))}
              </ul>
            </Notice>
          ) : null}
          <div class="builder-grid">
            <Field label="Role name">
              {({ id }) => <input id={id} type="text" required maxLength={80} disabled={!editable} value={draft.name} onInput={(e) => setDraft({ ...draft, name: (e.currentTarget as HTMLInputElement).value, ...(draft.id ? {} : { slug: (e.currentTarget as HTMLInputElement).value.toLowerCase().replace(/[^a-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40) }) })} />}
            </Field>
            <Field label="Role slug" hint="Lower-case letters, digits, - and _.">
              {({ id, describedBy }) => <input id={id} type="text" class="mono" required maxLength={40} disabled={!editable || current?.seeded === true} aria-describedby={describedBy} value={draft.slug} onInput={(e) => setDraft({ ...draft, slug: (e.currentTarget as HTMLInputElement).value })} />}
            </Field>
          </div>
          <Field label="Role description">
            {({ id }) => <input id={id} type="text" maxLength={500} disabled={!editable} value={draft.description} onInput={(e) => setDraft({ ...draft, description: (e.currentTarget as HTMLInputElement).value })} />}
          </Field>
          <PermissionMatrix set={draft.permissions} mine={me} models={models} editable={editable} onChange={(permissions) => setDraft({ ...draft, permissions })} />
          <LimitsEditor set={draft.permissions} models={modelFields} editable={editable} onChange={(permissions) => setDraft({ ...draft, permissions })} />
          {refusal ? (
            <Notice kind="error" title={refusal.title}>
              {reasons.length > 0 ? (
                <ul>
                  {reasons.map((r) => (
                    <li>{r}</li>
                  ))}
                </ul>
              ) : refusal.detail ? (
                <p>{refusal.detail}</p>
              ) : null}
            </Notice>
          ) : null}
          {editable ? (
            <div class="row">
              <Button type="submit" variant="primary" busy={action.busy === "save"}>
                {draft.id ? "Save the role" : "Create the role"}
              </Button>
              <Button variant="ghost" onClick={() => setDraft(null)}>
                Close
              </Button>
            </div>
          ) : null}
        </form>
      ) : null}

      <ConfirmDialog
        open={removing !== null}
        title={`Delete the role ${removing?.name ?? ""}?`}
        confirm="Delete the role"
        danger
        initialFocus="cancel"
        busy={removal.busy !== null}
        error={removal.error}
        onConfirm={() => void remove()}
        onClose={() => setRemoving(null)}
      >
        <p>Nobody may hold a role that is deleted; the service refuses while people do.</p>
        {holders !== null ? <p>{holders === 1 ? "One person holds it now." : `${holders} people hold it now.`}</p> : null}
        {removalReasons.length > 0 ? (
          <ul>
            {removalReasons.map((r) => (
              <li>{r}</li>
            ))}
          </ul>
        ) : null}
      </ConfirmDialog>
    </div>
  );
}

/** Every permission there is, on these models: what is beyond the person shows as the reasons. */
function fullSet(modelIds: readonly string[]): PermissionSet {
  const ops = ALL_MODEL_OPERATIONS.filter((op) => op !== "update:own");
  return { models: Object.fromEntries(modelIds.map((id) => [id, [...ops]])), system: [...ALL_SYSTEM_PERMISSIONS] };
}
