import { useEffect, useState } from "preact/hooks";
import { admin, ApiError, type AdminAnswer } from "../api/client";
import { describeError, fieldIssues } from "../api/error-words";
import { formatMoment } from "../people/format";
import { navigate, paths } from "../router";
import { adoptSession } from "../state/session";
import { Button, Field, Loading, Notice } from "../ui/controls";
import "../styles/people.css";

type Inspected = AdminAnswer<"inspectInvitation">;
type Stage = { kind: "checking" } | { kind: "dead" } | { kind: "failed"; error: ReturnType<typeof describeError> } | { kind: "ready"; invitation: Inspected };

const DEAD = "This invitation link is not valid any more — ask for a new one.";
const PASSWORD_RULE = "At least 12 characters.";

/**
 * The token rides in the address's fragment (`/invite#dwi_…`, docs/people.md), which browsers
 * never send to a server. It is read once, kept in memory only, and removed from the address bar
 * (and so from history) at once; it goes nowhere but the inspect and accept bodies.
 */
let captured: string | null = null;
function takeToken(): string {
  if (captured === null) {
    captured = decodeURIComponent(window.location.hash.replace(/^#/, "")).trim();
    if (window.location.hash) history.replaceState(null, "", window.location.pathname);
  } else if (window.location.hash) {
    // A new link opened in the same tab.
    captured = decodeURIComponent(window.location.hash.replace(/^#/, "")).trim();
    history.replaceState(null, "", window.location.pathname);
  }
  return captured;
}

/**
 * Accepting an invitation (issue #15 item 9), outside the signed-in layout: what the invitation is
 * for, then a name and a new password (a new account) or the account's password (an existing
 * one). Accepting signs the person in; they land on the site's content.
 */
export default function AcceptInvitation() {
  const [token] = useState(takeToken);
  const [stage, setStage] = useState<Stage>({ kind: "checking" });

  useEffect(() => {
    if (!/^dwi_[A-Za-z0-9_-]+$/.test(token)) {
      setStage({ kind: "dead" });
      return;
    }
    admin("inspectInvitation", { body: { token } })
      .then((invitation) => setStage({ kind: "ready", invitation }))
      .catch((thrown: unknown) => setStage(thrown instanceof ApiError && (thrown.code === "invitation_not_found" || thrown.status === 400) ? { kind: "dead" } : { kind: "failed", error: describeError(thrown) }));
  }, [token]);

  return (
    <main id="main" class="center-box accept-invitation" tabIndex={-1}>
      <div class="card stack">
        <h1>Accept your invitation</h1>
        {stage.kind === "checking" ? <Loading label="Checking the invitation…" /> : null}
        {stage.kind === "dead" ? <DeadLink /> : null}
        {stage.kind === "failed" ? (
          <Notice kind="error" title={stage.error.title}>
            {stage.error.detail ? <p class="muted">{stage.error.detail}</p> : null}
            <p>Reload the page to try again.</p>
          </Notice>
        ) : null}
        {stage.kind === "ready" ? <AcceptForm token={token} invitation={stage.invitation} onDead={() => setStage({ kind: "dead" })} /> : null}
      </div>
    </main>
  );
}

function DeadLink() {
  return (
    <>
      <Notice kind="error" title={DEAD}>
        <p>An invitation link works once and for 7 days. Ask the person who invited you to send a new one.</p>
      </Notice>
      <p>
        <a href={paths.signIn()}>Sign in</a> if you already have an account.
      </p>
    </>
  );
}

function AcceptForm({ token, invitation, onDead }: { token: string; invitation: Inspected; onDead: () => void }) {
  const [existing, setExisting] = useState(invitation.account_exists);
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [mismatch, setMismatch] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    if (!existing && password !== confirm) {
      setMismatch(true);
      return;
    }
    setMismatch(false);
    setBusy(true);
    try {
      const answer = await admin("acceptInvitation", { body: existing ? { token, password } : { token, name: name.trim(), password } });
      captured = "";
      adoptSession(answer);
      const here = answer.sites.filter((s) => s.name === invitation.site.name);
      const only = here.length === 1 ? here[0] : undefined;
      navigate(only ? paths.content(only.id) : paths.home(), { replace: true });
    } catch (thrown) {
      if (thrown instanceof ApiError && thrown.code === "invitation_not_found") return onDead();
      if (thrown instanceof ApiError && thrown.code === "account_exists") {
        setExisting(true);
        setPassword("");
      }
      setError(thrown);
    } finally {
      setBusy(false);
    }
  };

  const issues = fieldIssues(error);
  const refusal = error ? describeError(error) : null;
  const words =
    error instanceof ApiError && error.code === "unauthorized"
      ? "The password is not right for this account."
      : error instanceof ApiError && error.code === "already_member"
        ? `You are already a member of ${invitation.site.name}. Sign in instead.`
        : refusal?.title;
  const nameErrors = issues.has("name") ? ["Enter your name (at most 200 characters)."] : undefined;
  const passwordErrors = issues.has("password") ? [existing ? "Enter your account's password." : PASSWORD_RULE] : undefined;

  return (
    <>
      <p class="invite-summary">
        You are invited to <strong>{invitation.site.name}</strong> as <strong>{invitation.role.name}</strong> ({invitation.email}).
      </p>
      <p class="muted">This invitation expires on {formatMoment(invitation.expires_at)}.</p>
      {refusal && !issues.size ? (
        <Notice kind="error" title={words}>
          {error instanceof ApiError && error.code === "already_member" ? (
            <p>
              <a href={paths.signIn()}>Sign in</a>
            </p>
          ) : null}
        </Notice>
      ) : null}
      <form class="stack" onSubmit={submit} noValidate>
        {existing ? (
          <>
            <p>An account with this email exists already. Enter its password to join {invitation.site.name}.</p>
            <Field label="Password" errors={passwordErrors}>
              {(f) => <input id={f.id} type="password" autocomplete="current-password" required value={password} aria-describedby={f.describedBy} aria-invalid={f.invalid || undefined} onInput={(e) => setPassword(e.currentTarget.value)} />}
            </Field>
          </>
        ) : (
          <>
            <Field label="Your name" errors={nameErrors}>
              {(f) => <input id={f.id} type="text" autocomplete="name" required maxLength={200} value={name} aria-describedby={f.describedBy} aria-invalid={f.invalid || undefined} onInput={(e) => setName(e.currentTarget.value)} />}
            </Field>
            <Field label="New password" hint={PASSWORD_RULE} errors={passwordErrors}>
              {(f) => <input id={f.id} type="password" autocomplete="new-password" required value={password} aria-describedby={f.describedBy} aria-invalid={f.invalid || undefined} onInput={(e) => setPassword(e.currentTarget.value)} />}
            </Field>
            <Field label="Confirm the password" errors={mismatch ? ["The two passwords are not the same."] : undefined}>
              {(f) => <input id={f.id} type="password" autocomplete="new-password" required value={confirm} aria-describedby={f.describedBy} aria-invalid={f.invalid || undefined} onInput={(e) => setConfirm(e.currentTarget.value)} />}
            </Field>
          </>
        )}
        <Button type="submit" variant="primary" busy={busy}>
          {existing ? "Join the site" : "Create account and join"}
        </Button>
      </form>
    </>
  );
}
