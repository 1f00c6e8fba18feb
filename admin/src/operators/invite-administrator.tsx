import { useRef, useState } from "preact/hooks";
import { ops, type OpsAnswer } from "../api/client";
import { describeError } from "../api/error-words";
import { Button, Field, Notice } from "../ui/controls";
import { useAction } from "../ui/use-action";
import { OPERATOR_WORDS, type OpsSite } from "./words";

/**
 * "Invite an administrator" (inviteSiteAdministrator): the invitation's one-time link is shown this
 * once with a Copy button; a replay of the same request answers without it (docs/operations-api.md).
 */
export function InviteAdministrator({ site }: { site: OpsSite }) {
  const [email, setEmail] = useState("");
  const [invited, setInvited] = useState<OpsAnswer<"inviteSiteAdministrator"> | null>(null);
  const [copied, setCopied] = useState("");
  const linkRef = useRef<HTMLInputElement>(null);
  const action = useAction({ sameNameIsRetry: true });
  const refusal = action.error ? describeError(action.error, OPERATOR_WORDS) : null;

  const submit = async (event: Event) => {
    event.preventDefault();
    const body = { email: email.trim() };
    const outcome = await action.attempt(JSON.stringify(body), (key) => ops("inviteSiteAdministrator", { params: { id: site.id }, body, key }));
    if (outcome?.ok) {
      setInvited(outcome.value);
      setCopied("");
      setEmail("");
      requestAnimationFrame(() => linkRef.current?.select());
    }
  };

  const copy = async () => {
    if (!invited?.link || !linkRef.current) return;
    linkRef.current.select();
    try {
      await navigator.clipboard.writeText(invited.link);
      setCopied("The link is copied.");
    } catch {
      setCopied("Copying was refused by the browser: the link is selected, copy it with Ctrl+C or ⌘C.");
    }
  };

  return (
    <section class="stack operators-section" aria-labelledby="operators-invite">
      <h2 id="operators-invite">Administrator</h2>
      <p class="muted">Invite the person who runs this site. They accept with the link and become its administrator.</p>
      <form class="row operators-inline-form" onSubmit={submit} noValidate>
        <Field label="Administrator's email">
          {(f) => <input id={f.id} type="email" autocomplete="off" required value={email} aria-describedby={f.describedBy} onInput={(e) => setEmail(e.currentTarget.value)} />}
        </Field>
        <Button type="submit" variant="primary" busy={action.busy !== null} disabled={site.suspended}>
          Invite administrator
        </Button>
      </form>
      {refusal ? (
        <Notice kind="error" title={refusal.title}>
          {refusal.detail ? <p class="muted">{refusal.detail}</p> : null}
        </Notice>
      ) : null}
      {invited ? (
        <div class="stack card">
          <p>
            {invited.email} is invited as <strong>{invited.role.name}</strong>.
          </p>
          {invited.link ? (
            <>
              <Field label="Invitation link" hint="No mail is sent: send this link to the person. It works once and is shown only now.">
                {(f) => (
                  <div class="row">
                    <input id={f.id} ref={linkRef} type="text" readOnly value={invited.link} aria-describedby={f.describedBy} class="operators-link" spellcheck={false} />
                    <Button onClick={copy}>Copy link</Button>
                  </div>
                )}
              </Field>
              <p role="status" aria-live="polite">
                {copied}
              </p>
            </>
          ) : (
            <p>The link was shown when this invitation was first made. Invite again for a new link.</p>
          )}
        </div>
      ) : null}
    </section>
  );
}
