import { useRef, useState } from "preact/hooks";
import { admin, ApiError, type AdminAnswer } from "../api/client";
import { describeError, fieldIssues } from "../api/error-words";
import { Button, Field, Notice } from "../ui/controls";
import { Dialog } from "../ui/dialog";
import { useAction } from "../ui/use-action";
import { formatMoment } from "./format";

export type Invitation = AdminAnswer<"createInvitation">;
export interface RoleChoice {
  id: string;
  name: string;
}

/**
 * "Invite a person": email and role, then the answer's single-use link, shown this once in a
 * read-only field with a Copy button (no mail is sent by a local install). Closing the dialog
 * forgets the link; the invitation stays listed as pending.
 */
export function InviteDialog(props: { open: boolean; roles: readonly RoleChoice[]; onClose: () => void; onInvited: (invitation: Invitation) => void }) {
  const [email, setEmail] = useState("");
  const [roleId, setRoleId] = useState("");
  const [created, setCreated] = useState<Invitation | null>(null);
  const [copied, setCopied] = useState<{ ok: boolean; words: string } | null>(null);
  const linkRef = useRef<HTMLInputElement>(null);
  // One Idempotency-Key per invitation asked for: the same email and role again after no answer is a retry.
  const action = useAction({ sameNameIsRetry: true });
  const busy = action.busy !== null;
  const error = action.error;
  // No role is preselected: the inviter chooses one (the first listed is often the widest).
  const role = roleId;
  const [roleMissing, setRoleMissing] = useState(false);

  const close = () => {
    setEmail("");
    setRoleId("");
    setRoleMissing(false);
    action.clearError();
    setCreated(null);
    setCopied(null);
    props.onClose();
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    action.clearError();
    setRoleMissing(!role);
    if (!role) return;
    const body = { email: email.trim(), role_id: role };
    const outcome = await action.attempt(JSON.stringify(body), (key) => admin("createInvitation", { body, key }));
    if (outcome?.ok) {
      setCreated(outcome.value);
      props.onInvited(outcome.value);
      requestAnimationFrame(() => linkRef.current?.select());
    }
  };

  const copy = async () => {
    const input = linkRef.current;
    if (!input || !created) return;
    input.select();
    try {
      await navigator.clipboard.writeText(created.link);
      setCopied({ ok: true, words: "The link is copied." });
    } catch {
      // Clipboard refused (no permission or not a secure context): the link stays selected.
      setCopied({ ok: false, words: "Copying was refused by the browser: the link is selected, copy it with Ctrl+C or ⌘C." });
    }
  };

  const issues = fieldIssues(error);
  const refusal = error ? describeError(error) : null;
  const already = error instanceof ApiError && error.code === "already_member";

  return (
    <Dialog open={props.open} title={created ? "Send this invitation link" : "Invite a person"} busy={busy} onClose={close} class="people-dialog invite-dialog">
      {created ? (
        <div class="stack">
          <p>
            {created.email} is invited as <strong>{created.role.name}</strong>.
          </p>
          <Field label="Invitation link" hint={`No mail is sent by a local install: send this link to the person. It works once and expires on ${formatMoment(created.expires_at)}.`}>
            {(f) => (
              <div class="people-link-row">
                <input id={f.id} ref={linkRef} type="text" readOnly value={created.link} aria-describedby={f.describedBy} class="people-link" spellcheck={false} />
                <Button onClick={copy}>Copy link</Button>
              </div>
            )}
          </Field>
          <p class="muted">This link is shown only now. If it is lost, invite the person again: the new link replaces this one.</p>
          <p role="status" aria-live="polite" class={copied?.ok === false ? "people-copied people-copy-refused" : "people-copied"}>
            {copied?.ok ? <span aria-hidden="true">✓ </span> : null}
            {copied?.words}
          </p>
          <div class="row people-dialog-actions">
            <Button variant="primary" onClick={close}>
              Done
            </Button>
          </div>
        </div>
      ) : (
        <form class="stack" onSubmit={submit} noValidate>
          {refusal && !issues.size ? (
            <Notice kind="error" title={refusal.title}>
              {already ? <p>{error instanceof ApiError && error.details.state === "deactivated" ? "Their membership is deactivated: reactivate them in the list instead." : "They are already in the list of members."}</p> : refusal.detail ? <p class="muted">{refusal.detail}</p> : null}
            </Notice>
          ) : null}
          <Field label="Email" errors={issues.get("email")}>
            {(f) => <input id={f.id} type="email" autocomplete="off" required value={email} aria-describedby={f.describedBy} aria-invalid={f.invalid || undefined} onInput={(e) => setEmail(e.currentTarget.value)} />}
          </Field>
          <Field label="Role" errors={roleMissing ? ["Choose a role."] : issues.get("role_id")} hint="They get what this role may do on this site.">
            {(f) => (
              <select
                id={f.id}
                value={role}
                required
                aria-describedby={f.describedBy}
                aria-invalid={f.invalid || undefined}
                onChange={(e) => {
                  setRoleId(e.currentTarget.value);
                  setRoleMissing(false);
                }}
              >
                <option value="">Choose a role…</option>
                {props.roles.map((r) => (
                  <option value={r.id}>{r.name}</option>
                ))}
              </select>
            )}
          </Field>
          <div class="row people-dialog-actions">
            <Button type="submit" variant="primary" busy={busy}>
              Create invitation link
            </Button>
            <Button onClick={close} disabled={busy}>
              Cancel
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
