import { useState } from "preact/hooks";
import { admin, type AdminAnswer } from "../api/client";
import { Button } from "../ui/controls";
import { ConfirmAction } from "../ui/confirm-dialog";
import { formatDay } from "./format";
import type { RoleChoice } from "./invite-dialog";
import { PersonEditor } from "./person-editor";

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

type Pending = "edit" | "deactivate" | "reactivate" | "remove" | null;

/**
 * One member's row: name and email (same-name people told apart), role, state, joined, and the
 * actions — Edit (the person's one editor: role and reset link, person-editor.tsx), Deactivate or
 * Reactivate and Remove, each behind a dialog that says what follows. Refusals
 * (`escalation_refused`, `last_administrator`, `own_membership`, …) are shown in words.
 */
export function MemberRow(props: { member: Member; roles: readonly RoleChoice[]; you: boolean; siteName: string; onChanged: (member: Member, said: string) => void; onRemoved: (member: Member, said: string) => void }) {
  const m = props.member;
  const [pending, setPending] = useState<Pending>(null);
  const name = m.name || m.email;
  return (
    <tr>
      <td>
        <strong>{name}</strong>
        {props.you ? <span class="muted"> (you)</span> : null}
        <div class="muted people-email">{m.email}</div>
      </td>
      <td>
        <span class="people-cell-label" aria-hidden="true">
          Role:{" "}
        </span>
        {m.role.name}
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
          <Button onClick={() => setPending("edit")}>
            Edit<span class="visually-hidden"> {name}</span>
          </Button>
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
        {pending === "edit" ? <PersonEditor member={m} roles={props.roles} you={props.you} onClose={() => setPending(null)}
            onChanged={(next, said) => {
              // Saved: the editor closes (focus back on Edit) and the screen's live region says it.
              setPending(null);
              props.onChanged(next, said);
            }}
          /> : null}
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
