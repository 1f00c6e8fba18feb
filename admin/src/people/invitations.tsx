import { useState } from "preact/hooks";
import { admin, type AdminAnswer } from "../api/client";
import { Button } from "../ui/controls";
import { ConfirmAction } from "../ui/confirm-dialog";
import { formatMoment } from "./format";

export type PendingInvitation = AdminAnswer<"listInvitations">["data"][number];

/** One pending invitation: email, role, when it expires, and Revoke (the link stops working). */
export function InvitationRow(props: { invitation: PendingInvitation; onRevoked: (invitation: PendingInvitation, said: string) => void }) {
  const i = props.invitation;
  const [confirming, setConfirming] = useState(false);
  return (
    <tr>
      <td>
        <strong class="people-email">{i.email}</strong>
      </td>
      <td>{i.role.name}</td>
      <td>
        <span class="people-cell-label" aria-hidden="true">
          Expires:{" "}
        </span>
        <time dateTime={i.expires_at}>{formatMoment(i.expires_at)}</time>
      </td>
      <td>
        <Button variant="danger" onClick={() => setConfirming(true)}>
          Revoke<span class="visually-hidden"> the invitation of {i.email}</span>
        </Button>
        <ConfirmAction
          class="people-dialog"
          open={confirming}
          title={`Revoke the invitation of ${i.email}?`}
          confirm="Revoke"
          danger
          onClose={() => setConfirming(false)}
          run={async (key) => {
            await admin("revokeInvitation", { params: { id: i.id }, key });
            props.onRevoked(i, `The invitation of ${i.email} is revoked.`);
          }}
        >
          <p>Its link stops working at once. You can invite them again later.</p>
        </ConfirmAction>
      </td>
    </tr>
  );
}
