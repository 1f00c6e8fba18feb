import { useEffect } from "preact/hooks";
import { Link, Notice, PageHeader } from "../ui/controls";
import { navigate, paths } from "../router";
import { session } from "../state/session";

/** The sites the person belongs to; with exactly one, it opens it. */
export function SitePicker() {
  const sites = session.value?.sites ?? [];
  const superadmin = session.value?.person.superadmin ?? false;
  useEffect(() => {
    const only = sites[0];
    // A superadmin's start is every site of the deployment (admin/src/operators/).
    if (superadmin) navigate(paths.operatorSites(), { replace: true });
    else if (sites.length === 1 && only) navigate(paths.content(only.id), { replace: true });
  }, [sites.length, superadmin]);
  if (sites.length === 0) return <NoAccess reason="You do not belong to any site yet. Ask a site administrator to invite you." />;
  return (
    <>
      <PageHeader title="Your sites" />
      <ul class="stack" style={{ listStyle: "none", padding: 0 }}>
        {sites.map((s) => (
          <li class="card">
            <Link href={paths.content(s.id)}>{s.name}</Link> <span class="muted">· {s.role}</span>
          </li>
        ))}
      </ul>
    </>
  );
}

/** What a person sees on a site they may not open (or an address that names no site of theirs). */
export function NoAccess({ reason }: { reason?: string }) {
  return (
    <>
      <PageHeader title="No access" />
      <Notice kind="warning" title="You have no access to this site.">
        <p>{reason ?? "This site does not exist, or you are not a member of it. If you think you should be, ask one of its administrators."}</p>
      </Notice>
      <p>
        <Link href={paths.home()}>Go to your sites</Link>
      </p>
    </>
  );
}
