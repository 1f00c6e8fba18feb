import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { manage, type ManageAnswer } from "../api/client";
import type { Entry } from "../fields/types";
import { languageLabel } from "../media/types";
import { paths } from "../router";
import { Link, StateBadge } from "../ui/controls";

type Version = ManageAnswer<"listEntryVersions">["data"][number];
type Dependent = ManageAnswer<"listEntryDependents">["data"][number];

const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString([], { dateStyle: "medium", timeStyle: "short" }) : "");

/**
 * The editor's right side (issue #30 item 8): status (state, published, last changed, pending
 * schedules), the latest versions, who is assigned and where the entry is used — each read from its
 * own operation; one the role may not make (assignees need `workflow:assign`) is left out, not an
 * error. Re-read when the entry's version or workflow changes. `children` (the plugin actions) come
 * right after the status.
 */
export function EntrySidePanel({ site, entry, children }: { site: string; entry: Entry; children?: ComponentChildren }) {
  const id = entry.instance_id;
  const [versions, setVersions] = useState<Version[] | null>(null);
  const [assigned, setAssigned] = useState<string[] | null>(null);
  const [usedBy, setUsedBy] = useState<Dependent[] | null>(null);

  useEffect(() => {
    let live = true;
    manage("listEntryVersions", { params: { id } }).then((a) => live && setVersions(a.data.slice(0, 5)), () => live && setVersions([]));
    manage("listEntryAssignees", { params: { id } }).then((a) => live && setAssigned(a.assigned.map((p) => p.name)), () => live && setAssigned(null));
    manage("listEntryDependents", { params: { id } }).then((a) => live && setUsedBy(a.data), () => live && setUsedBy([]));
    return () => {
      live = false;
    };
  }, [id, entry.current_version_id, entry.workflow.revision]);

  const pending = (entry.schedules ?? []).filter((s) => s.state === "scheduled");
  return (
    <aside class="entry-side stack" aria-label="About this entry">
      <section aria-labelledby={`side-status-${id}`}>
        <h2 id={`side-status-${id}`}>Status</h2>
        <dl class="side-facts">
          <dt>State</dt>
          <dd>
            <StateBadge state={entry.trashed_at ? "trash" : entry.workflow.state} />
          </dd>
          <dt>Language</dt>
          <dd>{languageLabel(entry.lang)}</dd>
          <dt>Published</dt>
          <dd>{entry.published_at ? <time dateTime={entry.published_at}>{when(entry.published_at)}</time> : "Not published"}</dd>
          <dt>Last changed</dt>
          <dd>
            <time dateTime={entry.updated_at}>{when(entry.updated_at)}</time>
          </dd>
          {pending.length ? (
            <>
              <dt>Scheduled</dt>
              {pending.map((s) => (
                <dd>
                  {s.action === "publish" ? "Publish" : "Unpublish"} <time dateTime={s.at}>{when(s.at)}</time>
                </dd>
              ))}
            </>
          ) : null}
        </dl>
      </section>
      {children}
      {assigned ? (
        <section aria-labelledby={`side-assigned-${id}`}>
          <h2 id={`side-assigned-${id}`}>Assigned to</h2>
          <p>{assigned.length ? assigned.join(", ") : "Nobody"}</p>
        </section>
      ) : null}
      <section aria-labelledby={`side-versions-${id}`}>
        <h2 id={`side-versions-${id}`}>Versions</h2>
        {versions === null ? <p class="muted">Loading…</p> : null}
        {versions && versions.length ? (
          <ul class="side-list">
            {versions.map((v) => (
              <li>
                Version {v.number} · <time dateTime={v.created_at}>{when(v.created_at)}</time>
                {v.id === entry.published_version_id ? " (published)" : ""}
              </li>
            ))}
          </ul>
        ) : null}
        <Link href={paths.versions(site, id, entry.lang)}>Version history</Link>
      </section>
      <section aria-labelledby={`side-used-${id}`}>
        <h2 id={`side-used-${id}`}>Used by</h2>
        {usedBy === null ? <p class="muted">Loading…</p> : null}
        {usedBy && usedBy.length === 0 ? <p class="muted">No other entry links here.</p> : null}
        {usedBy && usedBy.length ? (
          <ul class="side-list">
            {usedBy.map((d) => (
              <li>
                <Link href={paths.entry(site, d.instance_id, d.lang)}>{d.label ?? d.instance_id}</Link> ({languageLabel(d.lang)}){d.published ? "" : " · not published"}
              </li>
            ))}
          </ul>
        ) : null}
      </section>
    </aside>
  );
}
