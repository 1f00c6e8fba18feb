import { useState } from "preact/hooks";
import { describeError } from "../api/error-words";
import { Button, Field, Notice } from "../ui/controls";
import { navigate, paths } from "../router";
import { signIn } from "../state/session";

/** Sign-in with the existing session route (cookie + CSRF token); the service throttles failures. */
export function SignIn() {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ReturnType<typeof describeError> | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn(email.trim(), password);
      const back = new URLSearchParams(window.location.search).get("next");
      navigate(back && back.startsWith("/") && !back.startsWith("//") ? back : paths.home(), { replace: true });
    } catch (thrown) {
      setError(describeError(thrown));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" class="center-box">
      <div class="card stack">
        <h1>Sign in to Driftwood</h1>
        {error ? <Notice kind="error" title={error.code === "unauthorized" ? "The email or password is not right." : error.title} /> : null}
        <form class="stack" onSubmit={submit}>
          <Field label="Email">{(f) => <input id={f.id} type="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />}</Field>
          <Field label="Password">{(f) => <input id={f.id} type="password" autocomplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />}</Field>
          <Button type="submit" variant="primary" busy={busy}>
            Sign in
          </Button>
        </form>
      </div>
    </main>
  );
}
