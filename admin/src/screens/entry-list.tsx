import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, manage, newActionKey, type ManageAnswer } from "../api/client";
import { describeError } from "../api/error-words";
import { paths } from "../router";
import { Button, Link, Loading, Notice, PageHeader, StateBadge } from "../ui/controls";
import { NewEntryDialog } from "./new-entry-dialog";
import { BulkBar, entryName, type BulkOutcome } from "./entry-bulk";
import { languageLabel } from "../media/types";
import { useMemberNames } from "../editor/person-names";
import type { ScreenProps } from "./types";
import { useLoad } from "./use-load";
import { SingleEntry } from "./single-entry";
import { EntryFilters, PAGE_SIZES, withFilter, type State } from "./entry-filters";
import { formatWhen, grouped, updatedBy, type EntryRow } from "./entry-rows";
import { SortHeader } from "../ui/sort-header";
import "../styles/content.css";

type Entry = EntryRow;
type Model = ManageAnswer<"getModel">;

/**
 * A model's entries (issue #15 item 3): filters by language, workflow state and title (`listEntries`
 * with `lang`, `state`, `q`), kept in the address so they survive a reload; "Load more" follows the
 * cursor; `?view=trash` lists Trash with Restore. A single model opens its one entry instead.
 */
export default function EntryList({ site, params, search }: ScreenProps) {
  const modelId = params.model ?? "";
  const trash = search.get("view") === "trash";
  const lang = search.get("lang") ?? "";
  const state = (search.get("state") ?? "") as State | "";
  const q = search.get("q") ?? "";
  const size = PAGE_SIZES.includes(search.get("size") ?? "") ? (search.get("size") as string) : "20";
  // Only sorts the service knows: a hand-edited address falls back to the default order, not a refusal.
  const sort = (SORTS.includes(search.get("sort") as SortKey) ? search.get("sort") : "") as SortKey | "";
  const setup = useLoad(async (signal) => {
    const [model, siteInfo] = await Promise.all([manage("getModel", { params: { id: modelId }, signal }), manage("getSite", { signal })]);
    return { model, siteInfo };
  }, [site, modelId]);
  const model = setup.data?.model;

  if (setup.error) {
    const words = describeError(setup.error);
    return (
      <>
        <PageHeader title="Entries" />
        <Notice kind="error" title={words.title}>{words.detail}</Notice>
        <p><Link href={paths.content(site)}>Back to Content</Link></p>
      </>
    );
  }
  if (!model || !setup.data) return <Loading />;
  if (model.kind === "single") return <SingleEntry site={site} model={model} lang={setup.data.siteInfo.default_lang} />;
  return <Collection site={site} model={model} languages={setup.data.siteInfo.languages} defaultLang={setup.data.siteInfo.default_lang} trash={trash} lang={lang} state={state} q={q} size={size} sort={sort} />;
}

type SortKey = NonNullable<NonNullable<NonNullable<Parameters<typeof manage<"listEntries">>[1]>["query"]>["sort"]>;
const SORTS: readonly SortKey[] = ["title", "-title", "lang", "-lang", "state", "-state", "owner", "-owner", "updated", "-updated", "created", "-created", "updated_by", "-updated_by"];

function Collection(props: { site: string; model: Model; languages: string[]; defaultLang: string; trash: boolean; lang: string; state: State | ""; q: string; size: string; sort: SortKey | "" }) {
  const { site, model, trash } = props;
  const [rows, setRows] = useState<Entry[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const [message, setMessage] = useState<{ kind: "success" | "error"; title: string; detail?: string } | null>(null);
  const [creating, setCreating] = useState(false);
  const restoreKeys = useRef(new Map<string, string>());
  const [busy, setBusy] = useState<string | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [outcomes, setOutcomes] = useState<BulkOutcome[] | null>(null);
  const owners = useMemberNames(site, rows.map((r) => r.owner_id));
  const current = new URLSearchParams();
  if (trash) current.set("view", "trash");
  if (props.lang) current.set("lang", props.lang);
  if (props.state && !trash) current.set("state", props.state);
  if (props.q) current.set("q", props.q);
  if (props.size !== "20") current.set("size", props.size);
  if (props.sort) current.set("sort", props.sort);

  // Each list (filters) is a generation: a "Load more" answer of an older list is not appended.
  const generation = useRef(0);
  const load = async (cursor: string | null, signal?: AbortSignal) => {
    if (!cursor) generation.current += 1;
    const mine = generation.current;
    setLoading(true);
    try {
      const answer = await manage("listEntries", {
        query: { model_id: model.id, lang: props.lang || undefined, state: trash ? "trash" : props.state || undefined, q: props.q || undefined, sort: props.sort || undefined, cursor: cursor ?? undefined, limit: props.size },
        signal,
      });
      if (mine !== generation.current) return;
      setRows((prior) => (cursor ? [...prior, ...answer.data] : answer.data));
      setNext(answer.page.next_cursor);
      setError(null);
    } catch (e) {
      if (!signal?.aborted && mine === generation.current) setError(e);
    } finally {
      if (!signal?.aborted && mine === generation.current) setLoading(false);
    }
  };
  useEffect(() => {
    const abort = new AbortController();
    void load(null, abort.signal);
    return () => abort.abort();
  }, [model.id, trash, props.lang, props.state, props.q, props.size, props.sort]);
  useEffect(() => {
    setSelected(new Set());
    setOutcomes(null);
  }, [model.id, trash, props.lang, props.state, props.q, props.size, props.sort]);

  const restore = async (entry: Entry) => {
    // One key per entry's restore action: a double click or a retry restores once.
    const key = restoreKeys.current.get(entry.instance_id) ?? newActionKey();
    restoreKeys.current.set(entry.instance_id, key);
    setBusy(entry.instance_id);
    try {
      // The item comes back with every language it has in Trash (the service's default).
      const answer = await manage("restoreEntry", { params: { id: entry.instance_id }, body: {}, key });
      restoreKeys.current.delete(entry.instance_id);
      const back = new Set(answer.instance_ids);
      setRows((prior) => prior.filter((r) => !back.has(r.instance_id)));
      setMessage({ kind: "success", title: `Restored “${entry.label ?? entry.slug ?? "(untitled)"}” from Trash.` });
    } catch (e) {
      if (e instanceof ApiError && e.status < 500) restoreKeys.current.delete(entry.instance_id);
      const words = describeError(e);
      setMessage({ kind: "error", title: words.title, detail: words.detail });
    } finally {
      setBusy(null);
    }
  };

  const title = trash ? `${model.name}: Trash` : model.name;
  return (
    <>
      <p class="breadcrumb">
        <Link href={paths.content(site)}>Content</Link> <span aria-hidden="true">›</span> {model.name}
      </p>
      <PageHeader title={title}>
        {trash ? null : (
          <Button variant="primary" onClick={() => setCreating(true)}>
            New entry
          </Button>
        )}
      </PageHeader>
      {model.description ? <p class="muted">{model.description}</p> : null}
      <nav aria-label="Views" class="row view-links">
        <Link href={paths.entries(site, model.id)} aria-current={trash ? undefined : "page"}>
          Entries
        </Link>
        <Link href={paths.entries(site, model.id, "trash")} aria-current={trash ? "page" : undefined}>
          Trash
        </Link>
        {trash ? <Link href={paths.trash(site, model.id)}>Trash screen (purge dates, bulk restore)</Link> : null}
      </nav>
      <EntryFilters site={site} modelId={model.id} current={current} languages={props.languages} trash={trash} lang={props.lang} state={props.state} q={props.q} size={props.size} sort={props.sort} />
      <div aria-live="polite" role="status" class="list-status">
        {loading ? "Loading entries…" : error ? "" : `${rows.length} ${rows.length === 1 ? "entry" : "entries"} shown${next ? "; more to load" : ""}.`}
      </div>
      {message ? <Notice kind={message.kind} title={message.title}>{message.detail}</Notice> : null}
      {error ? <Notice kind="error" title={describeError(error).title}>{describeError(error).detail}</Notice> : null}
      {!loading && !error && rows.length === 0 ? <p class="muted">{trash ? "Trash is empty." : props.q || props.lang || props.state ? "No entry matches these filters." : "No entries yet."}</p> : null}
      {outcomes ? (
        <section class="bulk-outcomes" aria-label="Bulk results">
          <ul>
            {outcomes.map((o) => (
              <li class={o.ok ? "bulk-ok" : "bulk-refused"}>
                <span aria-hidden="true">{o.ok ? "✓ " : "✕ "}</span>
                {o.name}: {o.words}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {!trash && rows.length > 0 ? (
        <BulkBar
          selected={rows.filter((r) => selected.has(r.instance_id))}
          onDone={(results, kind) => {
            setOutcomes(results);
            setSelected(new Set());
            const ok = results.filter((r) => r.ok).length;
            setMessage({ kind: ok === results.length ? "success" : "error", title: `${ok} of ${results.length} done.` });
            if (kind === "trash") setRows((prior) => prior.filter((r) => !results.some((o) => o.ok && o.instance_id === r.instance_id)));
            else void load(null);
          }}
        />
      ) : null}
      {rows.length > 0 ? (
        <table class="list responsive entries" aria-busy={loading ? "true" : undefined}>
          <caption class="visually-hidden">{title}</caption>
          <thead>
            <tr>
              {trash ? null : (
                <th scope="col">
                  <input
                    type="checkbox"
                    aria-label="Select every entry shown"
                    checked={rows.length > 0 && rows.every((r) => selected.has(r.instance_id))}
                    onChange={(e) => setSelected(e.currentTarget.checked ? new Set(rows.map((r) => r.instance_id)) : new Set())}
                  />
                </th>
              )}
              <SortHeader label="Title" column="title" sort={props.sort} href={(v) => withFilter(site, model.id, current, "sort", v)} />
              <SortHeader label="Language" column="lang" sort={props.sort} href={(v) => withFilter(site, model.id, current, "sort", v)} />
              <SortHeader label="State" column="state" sort={props.sort} href={(v) => withFilter(site, model.id, current, "sort", v)} />
              <SortHeader label="Owner" column="owner" sort={props.sort} href={(v) => withFilter(site, model.id, current, "sort", v)} />
              <SortHeader label="Updated" column="updated" sort={props.sort} href={(v) => withFilter(site, model.id, current, "sort", v)} />
              <SortHeader label="Updated by" column="updated_by" sort={props.sort} href={(v) => withFilter(site, model.id, current, "sort", v)} />
              {trash ? <th scope="col">Actions</th> : null}
            </tr>
          </thead>
          <tbody>
            {grouped(rows).map(({ entry, translation }) => {
              const name = entry.label ?? entry.slug ?? "(untitled)";
              return (
                <tr class={translation ? "translation-row" : undefined}>
                  {trash ? null : (
                    <td data-label="Select">
                      <input
                        type="checkbox"
                        aria-label={`Select ${entryName(entry)}`}
                        checked={selected.has(entry.instance_id)}
                        onChange={(e) => {
                          const next = new Set(selected);
                          if (e.currentTarget.checked) next.add(entry.instance_id);
                          else next.delete(entry.instance_id);
                          setSelected(next);
                        }}
                      />
                    </td>
                  )}
                  <td data-label="Title">
                    {translation ? <span class="muted">↳ Translation: </span> : null}
                    <Link href={paths.entry(site, entry.instance_id, entry.lang)}>{name}</Link>
                  </td>
                  <td data-label="Language">{languageLabel(entry.lang)}</td>
                  <td data-label="State">
                    <StateBadge state={entry.trashed_at ? "trash" : entry.workflow.state} />
                  </td>
                  <td data-label="Owner">{entry.owner_id ? (owners.get(entry.owner_id) ?? "Someone") : "Nobody"}</td>
                  <td data-label="Updated">
                    <time dateTime={entry.updated_at}>{formatWhen(entry.updated_at)}</time>
                  </td>
                  <td data-label="Updated by">{updatedBy(entry)}</td>
                  {trash ? (
                    <td data-label="Actions">
                      <Button busy={busy === entry.instance_id} disabled={busy !== null && busy !== entry.instance_id} onClick={() => void restore(entry)} aria-label={`Restore ${name} (${entry.lang})`}>
                        Restore
                      </Button>
                    </td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
      {next ? (
        <p>
          <Button busy={loading} onClick={() => void load(next)}>
            Load more
          </Button>
        </p>
      ) : null}
      {creating ? <NewEntryDialog site={site} model={model} languages={props.languages} defaultLang={props.lang || props.defaultLang} onClose={() => setCreating(false)} /> : null}
    </>
  );
}

