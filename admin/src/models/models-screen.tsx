import { manage } from "../api/client";
import { describeError } from "../api/error-words";
import { paths } from "../router";
import type { ScreenProps } from "../screens/types";
import { useLoad } from "../screens/use-load";
import { Link, Loading, Notice, PageHeader } from "../ui/controls";
import "../styles/models.css";

/**
 * The site's models (issue #30 item 1, docs/admin-ui-models.md) at /sites/:site/settings/models:
 * each with its address, kind, visibility, languages, folder and field count, opening in the
 * model builder; "New model" starts an empty one. Roles are one link away.
 */
export default function ModelsScreen({ site }: ScreenProps) {
  const loaded = useLoad((signal) => manage("listModels", { signal }), []);
  const models = loaded.data?.data ?? [];
  return (
    <>
      <PageHeader title="Models">
        <Link class="button button-primary" href={paths.model(site, "new")}>
          New model
        </Link>
        <Link href={paths.roles(site)}>Roles and permissions</Link>
      </PageHeader>
      {loaded.error ? <Notice kind="error" title={describeError(loaded.error).title} /> : null}
      {loaded.loading && !loaded.data ? <Loading label="Loading models…" /> : null}
      {loaded.data ? (
        models.length === 0 ? (
          <p class="muted" role="status">
            No model yet. Make the first one with “New model”.
          </p>
        ) : (
          <table class="list responsive">
            <caption class="visually-hidden">The site's models</caption>
            <thead>
              <tr>
                <th scope="col">Model</th>
                <th scope="col">Slug</th>
                <th scope="col">Entries</th>
                <th scope="col">Reading</th>
                <th scope="col">Fields</th>
                <th scope="col">Folder</th>
              </tr>
            </thead>
            <tbody>
              {models.map((m) => (
                <tr>
                  <td>
                    <Link href={paths.model(site, m.id)}>{m.name}</Link>
                  </td>
                  <td class="mono">{m.slug}</td>
                  <td>
                    {m.kind === "single" ? "Single" : "Collection"}
                    {m.i18n ? ", translated" : ""}
                  </td>
                  <td>{m.is_public ? "Public" : "Private"}</td>
                  <td>{m.definition.fields.length}</td>
                  <td>{m.folder ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : null}
    </>
  );
}
