import { useEffect, useRef, useState } from "preact/hooks";
import { admin, type AdminAnswer } from "../api/client";
import { describeError } from "../api/error-words";
import { formatMoment } from "../people/format";
import { session } from "../state/session";
import { Button, Loading, Notice, PageHeader } from "../ui/controls";
import { useAction } from "../ui/use-action";
import type { ScreenProps } from "./types";
import "../styles/people.css";

type SessionRow = AdminAnswer<"listSessions">["data"][number];

/** A browser's description in a few words ("Chrome on Linux"), the full text kept as a title. */
export function browserOf(userAgent: string | null): string {
  if (!userAgent) return "Unknown browser";
  const ua = userAgent;
  const browser = /Edg\//.test(ua) ? "Edge" : /Firefox\//.test(ua) ? "Firefox" : /Chrome\//.test(ua) ? "Chrome" : /Safari\//.test(ua) ? "Safari" : /curl|node|undici/i.test(ua) ? "A program" : "A browser";
  const system = /Windows/.test(ua) ? "Windows" : /Android/.test(ua) ? "Android" : /iPhone|iPad/.test(ua) ? "iOS" : /Mac OS X/.test(ua) ? "macOS" : /Linux/.test(ua) ? "Linux" : null;
  return system ? `${browser} on ${system}` : browser;
}

/**
 * Your account (issue #30 item 14, docs/admin-ui-people.md "Your account"): the signed-in
 * person's sessions — browser, when signed in, when it expires — each but this one with "End
 * session", and "End all other sessions". Sessions belong to the person, not the site; the screen
 * sits under the site only to keep the site's top bar.
 */
export default function Account(_props: ScreenProps) {
  const [rows, setRows] = useState<SessionRow[] | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [said, setSaid] = useState("");
  const action = useAction();
  const heading = useRef<HTMLHeadingElement>(null);
  const person = session.value?.person;

  useEffect(() => {
    const abort = new AbortController();
    admin("listSessions", { signal: abort.signal })
      .then((answer) => setRows(answer.data))
      .catch((thrown: unknown) => {
        if (!abort.signal.aborted) setFailure(thrown);
      });
    return () => abort.abort();
  }, []);

  if (failure) return <Notice kind="error" title={describeError(failure).title} />;
  if (!rows) return <Loading label="Loading your sessions…" />;

  const end = async (ids: string[], words: string) => {
    const outcome = await action.attempt(ids.join(","), async () => {
      for (const id of ids) await admin("revokeSession", { params: { id } });
    });
    if (outcome?.ok) {
      setRows((r) => (r ? r.filter((x) => !ids.includes(x.id)) : r));
      setSaid(words);
      requestAnimationFrame(() => heading.current?.focus());
    }
  };
  const others = rows.filter((r) => !r.current);
  const refusal = action.error ? describeError(action.error) : null;

  return (
    <>
      <PageHeader title="Your account" />
      {person ? (
        <p>
          {person.name} <span class="muted people-email">({person.email})</span>
        </p>
      ) : null}
      <p class="people-said" role="status" aria-live="polite">
        {said ? <span aria-hidden="true">✓ </span> : null}
        {said}
      </p>
      {refusal ? <Notice kind="error" title={refusal.title} /> : null}
      <section class="stack people-section" aria-labelledby="account-sessions">
        <h2 id="account-sessions" ref={heading} tabIndex={-1}>
          Sessions <span class="muted">({rows.length})</span>
        </h2>
        <p class="muted">Every browser where you are signed in. Ending a session signs that browser out at its next request. A password reset ends them all.</p>
        <table class="list responsive people-table">
          <thead>
            <tr>
              <th scope="col">Browser</th>
              <th scope="col">Signed in</th>
              <th scope="col">Expires</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const label = `${browserOf(r.user_agent)}, signed in ${formatMoment(r.created_at)}`;
              return (
                <tr key={r.id}>
                  <td>
                    <span title={r.user_agent ?? undefined}>{browserOf(r.user_agent)}</span>
                    {r.current ? <span class="badge badge-member-active"> This session</span> : null}
                  </td>
                  <td>
                    <span class="people-cell-label" aria-hidden="true">
                      Signed in:{" "}
                    </span>
                    {formatMoment(r.created_at)}
                  </td>
                  <td>
                    <span class="people-cell-label" aria-hidden="true">
                      Expires:{" "}
                    </span>
                    {formatMoment(r.expires_at)}
                  </td>
                  <td>
                    {r.current ? (
                      <span class="muted">Use Sign out to end it.</span>
                    ) : (
                      <Button busy={action.busy === r.id} disabled={action.busy !== null} onClick={() => void end([r.id], `The session (${label}) is ended.`)}>
                        End session<span class="visually-hidden"> {label}</span>
                      </Button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {others.length > 1 ? (
          <div class="row">
            <Button variant="danger" disabled={action.busy !== null} onClick={() => void end(others.map((o) => o.id), `${others.length} other sessions are ended.`)}>
              End all other sessions
            </Button>
          </div>
        ) : null}
      </section>
    </>
  );
}
