import { useEffect, useState } from "preact/hooks";
import { admin, ApiError, type AdminAnswer } from "../api/client";
import { describeError, fieldIssues } from "../api/error-words";
import { formatMoment } from "../people/format";
import { navigate, paths } from "../router";
import { adoptSession } from "../state/session";
import { Button, Field, Loading, Notice } from "../ui/controls";
import "../styles/people.css";

type Inspected = AdminAnswer<"inspectPasswordReset">;
type Stage = { kind: "checking" } | { kind: "dead" } | { kind: "failed"; error: ReturnType<typeof describeError> } | { kind: "ready"; reset: Inspected };

const DEAD = "This password reset link is not valid any more — ask an administrator for a new one.";
const PASSWORD_RULE = "At least 12 characters.";

/**
 * The token rides in the fragment (`/reset-password#dwpw_…`, docs/people.md "Password reset"),
 * which browsers never send to a server; it is read once, kept in memory only and removed from
 * the address bar and history at once, as the invitation page does.
 */
let captured: string | null = null;
function takeToken(): string {
  if (captured === null || window.location.hash) {
    captured = decodeURIComponent(window.location.hash.replace(/^#/, "")).trim();
    if (window.location.hash) history.replaceState(null, "", window.location.pathname);
  }
  return captured;
}

/**
 * Choosing a new password with a one-time link an administrator made (issue #30 item 14), outside
 * the signed-in layout. Setting it ends the person's other sessions and signs them in here.
 */
export default function ResetPassword() {
  const [token] = useState(takeToken);
  const [stage, setStage] = useState<Stage>({ kind: "checking" });

  useEffect(() => {
    if (!/^dwpw_[A-Za-z0-9_-]+$/.test(token)) {
      setStage({ kind: "dead" });
      return;
    }
    admin("inspectPasswordReset", { body: { token } })
      .then((reset) => setStage({ kind: "ready", reset }))
      .catch((thrown: unknown) => setStage(thrown instanceof ApiError && (thrown.code === "password_reset_not_found" || thrown.status === 400) ? { kind: "dead" } : { kind: "failed", error: describeError(thrown) }));
  }, [token]);

  return (
    <main id="main" class="center-box accept-invitation" tabIndex={-1}>
      <div class="card stack">
        <h1>Choose a new password</h1>
        {stage.kind === "checking" ? <Loading label="Checking the link…" /> : null}
        {stage.kind === "dead" ? (
          <>
            <Notice kind="error" title={DEAD}>
              <p>A reset link works once and for 24 hours, and a newer link replaces it.</p>
            </Notice>
            <p>
              <a href={paths.signIn()}>Sign in</a> if you know your password.
            </p>
          </>
        ) : null}
        {stage.kind === "failed" ? (
          <Notice kind="error" title={stage.error.title}>
            <p>Reload the page to try again.</p>
          </Notice>
        ) : null}
        {stage.kind === "ready" ? <ResetForm token={token} reset={stage.reset} onDead={() => setStage({ kind: "dead" })} /> : null}
      </div>
    </main>
  );
}

function ResetForm({ token, reset, onDead }: { token: string; reset: Inspected; onDead: () => void }) {
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [mismatch, setMismatch] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setMismatch(password !== confirm);
    if (password !== confirm) return;
    setBusy(true);
    try {
      const answer = await admin("completePasswordReset", { body: { token, password } });
      captured = "";
      adoptSession(answer);
      const only = answer.sites.length === 1 ? answer.sites[0] : undefined;
      navigate(only ? paths.content(only.id) : paths.home(), { replace: true });
    } catch (thrown) {
      if (thrown instanceof ApiError && thrown.code === "password_reset_not_found") return onDead();
      setError(thrown);
    } finally {
      setBusy(false);
    }
  };

  const issues = fieldIssues(error);
  const refusal = error && !issues.size ? describeError(error) : null;
  return (
    <>
      <p class="invite-summary">
        A new password for <strong>{reset.name}</strong> ({reset.email}).
      </p>
      <p class="muted">This link expires on {formatMoment(reset.expires_at)}. Your other sessions end when the password is set.</p>
      {refusal ? <Notice kind="error" title={refusal.title} /> : null}
      <form class="stack" onSubmit={submit} noValidate>
        <Field label="New password" hint={PASSWORD_RULE} errors={issues.has("password") ? [PASSWORD_RULE] : undefined}>
          {(f) => <input id={f.id} type="password" autocomplete="new-password" required value={password} aria-describedby={f.describedBy} aria-invalid={f.invalid || undefined} onInput={(e) => setPassword(e.currentTarget.value)} />}
        </Field>
        <Field label="Confirm the password" errors={mismatch ? ["The two passwords are not the same."] : undefined}>
          {(f) => <input id={f.id} type="password" autocomplete="new-password" required value={confirm} aria-describedby={f.describedBy} aria-invalid={f.invalid || undefined} onInput={(e) => setConfirm(e.currentTarget.value)} />}
        </Field>
        <Button type="submit" variant="primary" busy={busy}>
          Set password and sign in
        </Button>
      </form>
    </>
  );
}
