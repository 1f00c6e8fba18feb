import { useRef, useState } from "preact/hooks";
import { admin, type AdminAnswer } from "../api/client";
import { describeError } from "../api/error-words";
import { Button } from "../ui/controls";
import { Dialog } from "../ui/dialog";
import { useAction } from "../ui/use-action";
import { formatMoment } from "./format";
import type { RoleChoice } from "./invite-dialog";
import type { Member } from "./members";

type ResetLink = AdminAnswer<"createPasswordReset">;

/**
 * One person's editor (docs/admin-ui-people.md, "Editing a person"): the role as a group of radio
 * buttons with one "Save role", and a one-time password reset link the administrator hands on (no
 * mail is sent), shown once with Copy. Opened from the member's row ("Edit NAME"), so the list
 * carries no select and Save button per row. Refusals are said in words inside the dialog.
 */
export function PersonEditor(props: { member: Member; roles: readonly RoleChoice[]; you: boolean; onClose: () => void; onChanged: (member: Member, said: string) => void }) {
  const m = props.member;
  const name = m.name || m.email;
  const [roleId, setRoleId] = useState(m.role.id);
  const roleAction = useAction({ sameNameIsRetry: true });
  const resetAction = useAction();
  const [reset, setReset] = useState<ResetLink | null>(null);
  const [copied, setCopied] = useState<{ ok: boolean; words: string } | null>(null);
  const linkRef = useRef<HTMLInputElement>(null);
  const busy = roleAction.busy !== null || resetAction.busy !== null;
  // The member's role may be one the list of roles does not carry (e.g. it could not be read).
  const choices = props.roles.some((r) => r.id === m.role.id) ? props.roles : [{ id: m.role.id, name: m.role.name }, ...props.roles];
  const roleError = roleAction.error ? describeError(roleAction.error) : null;
  const resetError = resetAction.error ? describeError(resetAction.error) : null;

  const saveRole = async (event: Event) => {
    event.preventDefault();
    if (roleId === m.role.id) return;
    const outcome = await roleAction.attempt(roleId, (key) => admin("changeMemberRole", { params: { person_id: m.person_id }, body: { role_id: roleId }, key }));
    if (outcome?.ok) props.onChanged(outcome.value, `${name} is now ${outcome.value.role.name}.`);
  };

  const createReset = async () => {
    setCopied(null);
    const outcome = await resetAction.attempt("reset", (key) => admin("createPasswordReset", { params: { person_id: m.person_id }, key }));
    if (outcome?.ok) {
      setReset(outcome.value);
      requestAnimationFrame(() => linkRef.current?.select());
    }
  };

  const copy = async () => {
    const input = linkRef.current;
    if (!input || !reset) return;
    input.select();
    try {
      await navigator.clipboard.writeText(reset.link);
      setCopied({ ok: true, words: "The link is copied." });
    } catch {
      setCopied({ ok: false, words: "Copying was refused by the browser: the link is selected, copy it with Ctrl+C or ⌘C." });
    }
  };

  const roleErrorId = `person-role-error-${m.person_id}`;
  return (
    <Dialog open title={name} busy={busy} onClose={props.onClose} class="people-dialog person-editor" dismiss="Close">
      <p class="muted people-email">{m.email}</p>
      <form class="stack" onSubmit={saveRole}>
        <fieldset class="person-roles" aria-describedby={roleError ? roleErrorId : undefined}>
          <legend>Role</legend>
          {choices.map((r) => (
            <label class="person-role-choice">
              <input
                type="radio"
                name={`role-${m.person_id}`}
                value={r.id}
                checked={roleId === r.id}
                onChange={() => {
                  setRoleId(r.id);
                  roleAction.clearError();
                }}
              />
              {r.name}
              {r.id === m.role.id ? <span class="muted"> (current)</span> : null}
            </label>
          ))}
        </fieldset>
        {roleError ? (
          <div class="people-row-error" id={roleErrorId} role="alert">
            <span aria-hidden="true">⚠ </span>
            {roleError.title}
          </div>
        ) : null}
        <div class="row">
          <Button type="submit" variant="primary" busy={roleAction.busy !== null} disabled={roleId === m.role.id}>
            Save role
          </Button>
        </div>
      </form>

      <section class="stack person-password" aria-labelledby={`person-password-${m.person_id}`}>
        <h3 id={`person-password-${m.person_id}`}>Password</h3>
        {props.you ? (
          <p class="muted">This is you: your sessions are under Your account; another administrator can make you a reset link.</p>
        ) : (
          <p class="muted">A reset link lets {name} choose a new password once, within 24 hours. No mail is sent: give them the link yourself. Their sessions end when they use it.</p>
        )}
        {reset ? (
          <div class="stack">
            <label for={`reset-link-${m.person_id}`}>Password reset link</label>
            <div class="people-link-row">
              <input id={`reset-link-${m.person_id}`} ref={linkRef} type="text" readOnly value={reset.link} class="people-link" spellcheck={false} aria-describedby={`reset-hint-${m.person_id}`} />
              <Button onClick={copy}>Copy link</Button>
            </div>
            <p class="muted" id={`reset-hint-${m.person_id}`}>
              Shown only now. It works once and expires on {formatMoment(reset.expires_at)}; a new link replaces it.
            </p>
          </div>
        ) : null}
        {resetError ? (
          <div class="people-row-error" role="alert">
            <span aria-hidden="true">⚠ </span>
            {resetError.title}
            {resetError.detail ? <span class="muted"> {resetError.detail}</span> : null}
          </div>
        ) : null}
        <p role="status" aria-live="polite" class={copied?.ok === false ? "people-copied people-copy-refused" : "people-copied"}>
          {copied?.ok ? <span aria-hidden="true">✓ </span> : null}
          {copied?.words}
        </p>
        {props.you ? null : (
          <div class="row">
            <Button onClick={createReset} busy={resetAction.busy !== null}>
              {reset ? "Create a new reset link" : "Create a password reset link"}
            </Button>
          </div>
        )}
      </section>
    </Dialog>
  );
}
