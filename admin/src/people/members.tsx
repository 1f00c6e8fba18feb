import { useState } from "preact/hooks";
import { admin, type AdminAnswer } from "../api/client";
import { describeError } from "../api/error-words";
import { Button } from "../ui/controls";
import { ConfirmAction } from "../ui/confirm-dialog";
import { useAction } from "../ui/use-action";
import { formatDay } from "./format";
import type { RoleChoice } from "./invite-dialog";

export type Member = AdminAnswer<"listPeople">["data"][number];

/** A membership's state in words and a symbol, never colour alone. */
export function MemberState({ member }: { member: Member }) {
  const active = member.state === "active";
  return (
    <span class={`badge ${active ? "badge-member-active" : "badge-member-deactivated"}`}>
      <span aria-hidden="true">{active ? "●" : "⊘"}</span>
      {active ? "Active" : "Deactivated"}
      {member.account_active ? null : " · account off"}
    </span>
  );
}

type Pending = "deactivate" | "reactivate" | "remove" | null;

/**
 * One member's row: name and email, role (select + Save), state, joined, and the actions —
 * Deactivate or Reactivate and Remove, each behind a dialog that says what follows. Refusals
 * (`escalation_refused`, `last_administrator`, `own_membership`, …) are shown in words.
 */
export function MemberRow(props: { member: Member; roles: readonly RoleChoice[]; you: boolean; siteName: string; onChanged: (member: Member, said: string) => void; onRemoved: (member: Member, said: string) => void }) {
  const m = props.member;
  const [roleId, setRoleId] = useState(m.role.id);
  const [pending, setPending] = useState<Pending>(null);
  // One Idempotency-Key per role change (the same role again after no answer is a retry).
  const roleAction = useAction({ sameNameIsRetry: true });
  const roleError = roleAction.error ? describeError(roleAction.error) : null;
  const name = m.name || m.email;
  // The member's role may be one the list of roles does not carry (e.g. it could not be read).
  const choices = props.roles.some((r) => r.id === m.role.id) ? props.roles : [{ id: m.role.id, name: m.role.name }, ...props.roles];

  const saveRole = async (event: Event) => {
    event.preventDefault();
    if (roleId === m.role.id) return;
    const outcome = await roleAction.attempt(roleId, (key) => admin("changeMemberRole", { params: { person_id: m.person_id }, body: { role_id: roleId }, key }));
    if (outcome?.ok) props.onChanged(outcome.value, `${name} is now ${outcome.value.role.name}.`);
  };

  const roleSelectId = `role-${m.person_id}`;
  const roleErrorId = `role-error-${m.person_id}`;
  return (
    <tr>
      <td>
        <strong>{name}</strong>
        {props.you ? <span class="muted"> (you)</span> : null}
        <div class="muted people-email">{m.email}</div>
      </td>
      <td>
        <form class="people-role-form" onSubmit={saveRole}>
          <label class="visually-hidden" for={roleSelectId}>
            Role of {name}
          </label>
          <select
            id={roleSelectId}
            value={roleId}
            aria-describedby={roleError ? roleErrorId : undefined}
            aria-invalid={roleError ? true : undefined}
            onChange={(e) => {
              setRoleId(e.currentTarget.value);
              roleAction.clearError();
            }}
          >
            {choices.map((r) => (
              <option value={r.id}>{r.name}</option>
            ))}
          </select>
          <Button type="submit" busy={roleAction.busy !== null} disabled={roleId === m.role.id}>
            Save role<span class="visually-hidden"> of {name}</span>
          </Button>
        </form>
        {roleError ? (
          <div class="people-row-error" id={roleErrorId} role="alert">
            <span aria-hidden="true">⚠ </span>
            {roleError.title}
          </div>
        ) : null}
      </td>
      <td>
        <span class="people-cell-label" aria-hidden="true">
          State:{" "}
        </span>
        <MemberState member={m} />
      </td>
      <td>
        <span class="people-cell-label" aria-hidden="true">
          Joined:{" "}
        </span>
        {formatDay(m.joined_at)}
      </td>
      <td>
        <div class="row people-actions">
          {m.state === "active" ? (
            <Button onClick={() => setPending("deactivate")}>
              Deactivate<span class="visually-hidden"> {name}</span>
            </Button>
          ) : (
            <Button onClick={() => setPending("reactivate")}>
              Reactivate<span class="visually-hidden"> {name}</span>
            </Button>
          )}
          <Button variant="danger" onClick={() => setPending("remove")}>
            Remove<span class="visually-hidden"> {name}</span>
          </Button>
        </div>
        <ConfirmAction
          class="people-dialog"
          open={pending === "deactivate"}
          title={`Deactivate ${name}?`}
          confirm="Deactivate"
          danger
          onClose={() => setPending(null)}
          run={async (key) => {
            const next = await admin("deactivateMember", { params: { person_id: m.person_id }, key });
            props.onChanged(next, `${name} is deactivated on this site.`);
          }}
        >
          <p>
            Their sessions and management credentials on {props.siteName} stop working at once, from their next request. Their other sites are not affected.
          </p>
          <p class="muted">Nothing is deleted: you can reactivate them later.</p>
        </ConfirmAction>
        <ConfirmAction
          class="people-dialog"
          open={pending === "reactivate"}
          title={`Reactivate ${name}?`}
          confirm="Reactivate"
          onClose={() => setPending(null)}
          run={async (key) => {
            const next = await admin("reactivateMember", { params: { person_id: m.person_id }, key });
            props.onChanged(next, `${name} is active again on this site.`);
          }}
        >
          <p>
            They can work on {props.siteName} again as {m.role.name}, and their management credentials on it work again, from their next request.
          </p>
        </ConfirmAction>
        <ConfirmAction
          class="people-dialog"
          open={pending === "remove"}
          title={`Remove ${name} from ${props.siteName}?`}
          confirm="Remove"
          danger
          onClose={() => setPending(null)}
          run={async (key) => {
            const gone = await admin("removeMember", { params: { person_id: m.person_id }, key });
            props.onRemoved(gone, `${name} is removed from this site.`);
          }}
        >
          <p>
            Their membership ends and their management credentials and connections on {props.siteName} are revoked at once. Their account and other sites stay.
          </p>
          <p class="muted">To bring them back, invite them again.</p>
        </ConfirmAction>
      </td>
    </tr>
  );
}
