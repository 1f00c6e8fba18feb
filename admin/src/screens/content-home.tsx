import { manage, type ManageAnswer } from "../api/client";
import { describeError } from "../api/error-words";
import { paths } from "../router";
import { Link, Loading, Notice, PageHeader } from "../ui/controls";
import type { ScreenProps } from "./types";
import { useLoad } from "./use-load";
import "../styles/content.css";

type Model = ManageAnswer<"listModels">["data"][number];

/**
 * Content home (issue #15 item 3): the site's models in their folders (`folder`, models without
 * one last under "Other models"), each with its kind and description. A collection opens its
 * entries list; a single model opens its one entry (the list screen finds or creates it).
 */
export default function ContentHome({ site }: ScreenProps) {
  const models = useLoad((signal) => manage("listModels", { signal }), [site]);
  const groups = groupByFolder(models.data?.data ?? []);
  return (
    <>
      <PageHeader title="Content">
        <Link href={paths.trash(site)}>Trash</Link>
      </PageHeader>
      {models.loading && !models.data ? <Loading /> : null}
      {models.error ? <Notice kind="error" title={describeError(models.error).title}>{describeError(models.error).detail}</Notice> : null}
      {models.data && models.data.data.length === 0 ? <Notice kind="info" title="This site has no models yet, or your role may read none." /> : null}
      {groups.map(([folder, list], index) => (
        <section class="model-folder" aria-labelledby={`folder-${index}`}>
          <h2 id={`folder-${index}`}>{folder ?? (groups.length > 1 ? "Other models" : "Models")}</h2>
          <ul class="model-cards">
            {list.map((model) => (
              <li class="card model-card">
                <h3>
                  <Link href={paths.entries(site, model.id)}>{model.name}</Link>
                </h3>
                <p class="row">
                  <span class="badge">{model.kind === "single" ? "Single entry" : "Collection"}</span>
                  {model.i18n ? <span class="badge">Translated</span> : null}
                  {model.is_public ? null : <span class="badge">Not public</span>}
                </p>
                {model.description ? <p class="muted model-description">{model.description}</p> : null}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}

/** Models by folder name in alphabetical order; models without a folder last. */
function groupByFolder(models: readonly Model[]): [string | null, Model[]][] {
  const by = new Map<string | null, Model[]>();
  for (const m of [...models].sort((a, b) => a.name.localeCompare(b.name))) by.set(m.folder, [...(by.get(m.folder) ?? []), m]);
  return [...by.entries()].sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : a.localeCompare(b)));
}
