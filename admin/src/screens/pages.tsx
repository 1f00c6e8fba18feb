import { useRef, useState } from "preact/hooks";
import { ApiError, manage, newActionKey } from "../api/client";
import { describeError, fieldIssues } from "../api/error-words";
import { navigate, paths } from "../router";
import { Button, Field, Link, Loading, Notice, PageHeader, StateBadge } from "../ui/controls";
import "../styles/review.css";
import type { ScreenProps } from "./types";
import { useLoad } from "./use-load";

/**
 * Pages (issue #29 item 2, docs/pages.md): the site's pages in one language (`?lang=`, default the
 * site's) as a tree by path, each opening in the entry editor, and "New page" — a title, an
 * optional slug and a parent — saved with `savePage` (one write), then the editor. Without a page
 * model the screen says how to make one.
 */
export default function Pages({ site, search }: ScreenProps) {
  const lang = search.get("lang") ?? undefined;
  const loaded = useLoad(
    async (signal) => {
      const [pages, models] = await Promise.all([manage("listPages", { query: lang ? { lang } : {}, signal }), manage("listModels", { signal })]);
      const model = models.data.find((m) => m.slug === "page");
      const fields = (model?.definition.fields ?? []) as { key: string; label?: string; title?: boolean }[];
      return { pages: pages.data, titleField: fields.find((f) => f.title === true) ?? null };
    },
    [lang],
  );
  const key = useRef(newActionKey());
  const [title, setTitle] = useState("");
  const [slug, setSlug] = useState("");
  const [parent, setParent] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const missing = loaded.error instanceof ApiError && loaded.error.code === "page_model_missing";
  const pages = loaded.data?.pages ?? [];
  const titleField = loaded.data?.titleField ?? null;
  const issues = fieldIssues(error);
  const words = error ? describeError(error) : null;

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const fields = titleField && title.trim() ? { [titleField.key]: title } : {};
      const page = await manage("savePage", { body: { ...(lang ? { lang } : {}), ...(slug.trim() ? { slug: slug.trim() } : {}), ...(parent ? { parent_id: parent } : {}), fields }, key: key.current });
      navigate(paths.entry(site, page.instance_id, page.lang));
    } catch (e) {
      // A refusal the service decided is final for this key: the next try is a new action.
      if (e instanceof ApiError && e.status < 500) key.current = newActionKey();
      setError(e);
      setBusy(false);
    }
  };

  return (
    <>
      <PageHeader title="Pages" />
      {missing ? (
        <Notice kind="info" title="This site has no page model yet.">
          <p>Pages are entries of the collection model with the address “page”. Create that model (a title field and a parent link to itself) to build the site's pages here.</p>
        </Notice>
      ) : loaded.error ? (
        <Notice kind="error" title={describeError(loaded.error).title} />
      ) : null}
      {loaded.loading && !loaded.data ? <Loading label="Loading pages…" /> : null}
      {loaded.data ? (
        <section aria-labelledby="pages-heading" class="stack">
          <h2 id="pages-heading">Site pages</h2>
          {pages.length === 0 ? (
            <p class="muted" role="status">
              No page yet.
            </p>
          ) : (
            <table class="list responsive">
              <caption class="visually-hidden">Pages by path</caption>
              <thead>
                <tr>
                  <th scope="col">Path</th>
                  <th scope="col">Title</th>
                  <th scope="col">State</th>
                </tr>
              </thead>
              <tbody>
                {pages.map((p) => (
                  <tr>
                    <td class="mono">
                      <span style={{ paddingInlineStart: `${Math.max(0, (p.path ?? "").split("/").length - 2) * 1.25}rem` }}>{p.path ?? `(no path) ${p.slug ?? ""}`}</span>
                    </td>
                    <td>
                      <Link href={paths.entry(site, p.instance_id, p.lang)}>{p.label ?? p.slug ?? p.instance_id}</Link>
                    </td>
                    <td>
                      <StateBadge state={p.published_version_id ? "published" : "draft"} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <form class="stack" aria-labelledby="new-page-heading" onSubmit={(e) => void submit(e)}>
            <h2 id="new-page-heading">New page</h2>
            {words && issues.size === 0 ? <Notice kind="error" title={words.title}>{words.detail}</Notice> : null}
            {titleField ? (
              <Field label={titleField.label ?? "Title"} errors={issues.get(titleField.key)}>
                {({ id, describedBy, invalid }) => <input id={id} type="text" value={title} required aria-describedby={describedBy} aria-invalid={invalid ? "true" : undefined} onInput={(e) => setTitle((e.currentTarget as HTMLInputElement).value)} />}
              </Field>
            ) : null}
            <Field label="Slug (address segment, optional)" hint="Lower-case letters, digits and single hyphens. Left empty, the service makes one from the title." errors={issues.get("slug")}>
              {({ id, describedBy, invalid }) => <input id={id} type="text" class="mono" value={slug} maxLength={200} autoCapitalize="off" spellcheck={false} aria-describedby={describedBy} aria-invalid={invalid ? "true" : undefined} onInput={(e) => setSlug((e.currentTarget as HTMLInputElement).value)} />}
            </Field>
            <Field label="Parent page">
              {({ id }) => (
                <select id={id} value={parent} onChange={(e) => setParent((e.currentTarget as HTMLSelectElement).value)}>
                  <option value="">None (a top-level page)</option>
                  {pages.map((p) => (
                    <option value={p.instance_id}>{p.path ?? p.slug ?? p.instance_id}</option>
                  ))}
                </select>
              )}
            </Field>
            {words && issues.size > 0 ? <Notice kind="error" title={words.title} /> : null}
            <div class="row">
              <Button type="submit" variant="primary" busy={busy}>
                Create and edit
              </Button>
            </div>
          </form>
        </section>
      ) : null}
    </>
  );
}
