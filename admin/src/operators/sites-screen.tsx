import { useState } from "preact/hooks";
import { ops } from "../api/client";
import { describeError } from "../api/error-words";
import { navigate, paths } from "../router";
import { Button, Link, Loading, Notice, PageHeader } from "../ui/controls";
import type { OperatorScreenProps } from "../screens/types";
import { useLoad } from "../screens/use-load";
import { CreateSiteDialog } from "./create-site-dialog";
import { entryFigures, formatBytes, formatWhen, OPERATOR_WORDS } from "./words";
import "../styles/operators.css";

/**
 * Sites, for a superadmin (issue #23 item 5, docs/admin-ui-operators.md): every site of the
 * deployment with the operators' figures, and "Create a site". Each site opens its own screen
 * (hosts, administrator, suspend and resume, copy, delete).
 */
export default function SitesScreen({ search }: OperatorScreenProps) {
  const sites = useLoad((signal) => ops("listSites", { signal }), []);
  const [creating, setCreating] = useState(false);
  const deleted = search.get("deleted");

  return (
    <>
      <PageHeader title="Sites">
        <Button variant="primary" onClick={() => setCreating(true)}>
          Create a site
        </Button>
      </PageHeader>
      <p class="muted">Every site of this deployment. Only people flagged as superadmin see this page.</p>
      {deleted ? <Notice kind="success" title={`Site ${deleted} is deleted.`} /> : null}
      {sites.error ? (
        <Notice kind="error" title={describeError(sites.error, OPERATOR_WORDS).title} />
      ) : !sites.data ? (
        <Loading label="Loading sites…" />
      ) : (
        <table class="list responsive operators-table">
          <caption class="visually-hidden">Sites with their figures</caption>
          <thead>
            <tr>
              <th scope="col">Site</th>
              <th scope="col">Hosts</th>
              <th scope="col">State</th>
              <th scope="col">Entries</th>
              <th scope="col">Media</th>
              <th scope="col">Members</th>
              <th scope="col">Last change</th>
            </tr>
          </thead>
          <tbody>
            {sites.data.data.map((s) => (
              <tr key={s.id}>
                <th scope="row">
                  <Link href={paths.operatorSite(s.slug)}>{s.name}</Link> <span class="muted">({s.slug})</span>
                </th>
                <td>{s.hosts.join(", ")}</td>
                <td>{s.suspended ? <span class="badge badge-suspended">Suspended</span> : <span class="badge badge-active">Active</span>}</td>
                <td>{entryFigures(s.figures.entries)}</td>
                <td>
                  {s.figures.media.files} {s.figures.media.files === 1 ? "file" : "files"}, {formatBytes(s.figures.media.bytes)}
                </td>
                <td>{s.figures.members}</td>
                <td>{formatWhen(s.figures.last_write_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <CreateSiteDialog open={creating} onClose={() => setCreating(false)} onCreated={(site) => navigate(paths.operatorSite(site.slug))} />
    </>
  );
}
