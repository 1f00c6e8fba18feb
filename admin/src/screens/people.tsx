import { useEffect, useRef, useState } from "preact/hooks";
import { admin, ApiError, manage } from "../api/client";
import { describeError } from "../api/error-words";
import { InvitationRow, type PendingInvitation } from "../people/invitations";
import { InviteDialog, type RoleChoice } from "../people/invite-dialog";
import { MemberRow, type Member } from "../people/members";
import { currentSite, loadSession, session } from "../state/session";
import { Button, Loading, Notice, PageHeader } from "../ui/controls";
import type { ScreenProps } from "./types";
import "../styles/people.css";

/** How often the open People screen reads its lists again (an accepted invitation appears). */
const PEOPLE_REFRESH_MS = 20_000;

type Loaded = { members: Member[]; invitations: PendingInvitation[]; roles: RoleChoice[]; rolesError: string | null };

/**
 * People of a site (issue #15 item 9, docs/admin-ui-people.md): members with role, state and
 * joined date; pending invitations with Revoke; "Invite a person" showing the single-use link once.
 * Everything is decided by the service (admin people routes, docs/people.md): a person without
 * `role:manage` sees its refusal in words.
 */
export default function People({ site }: ScreenProps) {
  const [data, setData] = useState<Loaded | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [inviting, setInviting] = useState(false);
  const [said, setSaid] = useState("");
  const membersHeading = useRef<HTMLHeadingElement>(null);
  const invitationsHeading = useRef<HTMLHeadingElement>(null);
  const siteName = currentSite.value?.name ?? "this site";
  const you = session.value?.person.id;

  useEffect(() => {
    const abort = new AbortController();
    const load = async () => {
      try {
        const [people, pending] = await Promise.all([admin("listPeople", { signal: abort.signal }), admin("listInvitations", { signal: abort.signal })]);
        let roles: RoleChoice[] = [];
        let rolesError: string | null = null;
        try {
          roles = (await manage("listRoles", { signal: abort.signal })).data.map((r) => ({ id: r.id, name: r.name }));
        } catch (thrown) {
          if (abort.signal.aborted) return;
          rolesError = describeError(thrown).title;
        }
        setData({ members: people.data, invitations: pending.data, roles, rolesError });
      } catch (thrown) {
        if (!abort.signal.aborted) setFailure(thrown);
      }
    };
    void load();
    return () => abort.abort();
  }, [site]);

  // An invitee who accepts shows up without a reload: the lists are read again when the window
  // regains focus and every 20 s while the page is visible (docs/admin-ui-people.md).
  useEffect(() => {
    let running = false;
    const refresh = async () => {
      if (running || document.visibilityState !== "visible") return;
      running = true;
      try {
        const [people, pending] = await Promise.all([admin("listPeople"), admin("listInvitations")]);
        setData((d) => (d ? { ...d, members: people.data, invitations: pending.data } : d));
      } catch {
        // A failed refresh keeps what is shown; the next one tries again.
      } finally {
        running = false;
      }
    };
    const timer = window.setInterval(() => void refresh(), PEOPLE_REFRESH_MS);
    window.addEventListener("focus", refresh);
    document.addEventListener("visibilitychange", refresh);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener("focus", refresh);
      document.removeEventListener("visibilitychange", refresh);
    };
  }, [site]);

  if (failure) {
    const refusal = describeError(failure);
    const notAllowed = failure instanceof ApiError && (failure.code === "missing_permission" || failure.status === 403);
    return (
      <>
        <PageHeader title="People" />
        <Notice kind={notAllowed ? "warning" : "error"} title={notAllowed ? "Your role does not allow managing people on this site." : refusal.title}>
          <p>{notAllowed ? "Seeing and changing who works on this site needs a role that may manage roles and who holds them. Ask one of the site's administrators." : refusal.detail}</p>
        </Notice>
      </>
    );
  }
  if (!data) return <Loading label="Loading people…" />;

  const update = (next: (d: Loaded) => Partial<Loaded>, words: string) => {
    setData((d) => (d ? { ...d, ...next(d) } : d));
    setSaid(words);
  };

  return (
    <>
      <PageHeader title="People">
        <Button variant="primary" onClick={() => setInviting(true)} disabled={data.roles.length === 0}>
          Invite a person
        </Button>
      </PageHeader>
      <p class="people-said" role="status" aria-live="polite">
        {said ? <span aria-hidden="true">✓ </span> : null}
        {said}
      </p>
      {data.rolesError ? <Notice kind="warning" title={`The site's roles could not be read, so roles cannot be chosen: ${data.rolesError}`} /> : null}

      <section class="stack people-section" aria-labelledby="people-members">
        <h2 id="people-members" ref={membersHeading} tabIndex={-1}>
          Members <span class="muted">({data.members.length})</span>
        </h2>
        <table class="list responsive people-table">
          <thead>
            <tr>
              <th scope="col">Person</th>
              <th scope="col">Role</th>
              <th scope="col">State</th>
              <th scope="col">Joined</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {data.members.map((m) => (
              <MemberRow
                key={m.person_id}
                member={m}
                roles={data.roles}
                you={m.person_id === you}
                siteName={siteName}
                onChanged={(next, words) => {
                  update((d) => ({ members: d.members.map((x) => (x.person_id === next.person_id ? next : x)) }), words);
                  // One's own role shows in the top bar: read the session again.
                  if (next.person_id === you) void loadSession();
                }}
                onRemoved={(gone, words) => {
                  update((d) => ({ members: d.members.filter((x) => x.person_id !== gone.person_id) }), words);
                  requestAnimationFrame(() => membersHeading.current?.focus());
                }}
              />
            ))}
          </tbody>
        </table>
      </section>

      <section class="stack people-section" aria-labelledby="people-invitations">
        <h2 id="people-invitations" ref={invitationsHeading} tabIndex={-1}>
          Pending invitations <span class="muted">({data.invitations.length})</span>
        </h2>
        {data.invitations.length === 0 ? (
          <p class="muted">No invitation is waiting to be accepted.</p>
        ) : (
          <table class="list responsive people-table">
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Expires</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {data.invitations.map((i) => (
                <InvitationRow
                  key={i.id}
                  invitation={i}
                  onRevoked={(gone, words) => {
                    update((d) => ({ invitations: d.invitations.filter((x) => x.id !== gone.id) }), words);
                    requestAnimationFrame(() => invitationsHeading.current?.focus());
                  }}
                />
              ))}
            </tbody>
          </table>
        )}
      </section>

      <InviteDialog
        open={inviting}
        roles={data.roles}
        onClose={() => setInviting(false)}
        onInvited={(created) => {
          // A new invitation of an email replaces that email's pending one (docs/people.md).
          const { link: _link, ...listed } = created;
          update((d) => ({ invitations: [listed, ...d.invitations.filter((x) => x.email.toLowerCase() !== created.email.toLowerCase())] }), `${created.email} is invited as ${created.role.name}.`);
        }}
      />
    </>
  );
}
