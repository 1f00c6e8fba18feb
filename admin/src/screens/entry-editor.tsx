import { useEffect, useState } from "preact/hooks";
import { manage, type ManageAnswer } from "../api/client";
import { describeError } from "../api/error-words";
import { EntryActions } from "../editor/entry-actions";
import { EntrySidePanel } from "../editor/entry-side-panel";
import { EntryOperations } from "../editor/entry-operations";
import { PublishingDetails } from "../editor/publishing-details";
import { AddressField } from "../editor/form-address";
import { FormFields } from "../editor/form-fields";
import { entryReadOnlyReason, fieldReadable, fieldWritable, loadPermissions, type Permissions } from "../editor/form-permissions";
import { useEntryForm } from "../editor/form-state";
import { AddLanguageDialog, LanguageTabs } from "../editor/form-languages";
import { useLease } from "../editor/use-lease";
import type { Entry, FieldDefinition } from "../fields/types";
import { navigate, paths, setLeaveGuard } from "../router";
import { Link, Loading, Notice, PageHeader, StateBadge } from "../ui/controls";
import type { ScreenProps } from "./types";
import { useLoad } from "./use-load";
import "../styles/editor.css";

type Model = ManageAnswer<"getModel">;
type Sibling = ManageAnswer<"listEntries">["data"][number];

/**
 * The entry editor (issue #15 item 4): one language of an entry (`getEntry`), its model's form,
 * the language tabs of its translation group (`listEntries` by `translation_group_id`), "Add
 * language", and the lifecycle bar (`EntryActions`, which saves and publishes). `?lang=` picks
 * another language of the same item.
 */
export default function EntryEditor({ site, params, search }: ScreenProps) {
  const wanted = search.get("lang");
  const loaded = useLoad(async (signal) => {
    const entry = await manage("getEntry", { params: { id: params.entry ?? "" }, signal });
    const [model, siteInfo, permissions, group, trashed] = await Promise.all([
      manage("getModel", { params: { id: entry.model_id }, signal }),
      manage("getSite", { signal }),
      loadPermissions(),
      manage("listEntries", { query: { model_id: entry.model_id, translation_group_id: entry.translation_group_id, limit: "100" }, signal }),
      // Trash leaves lists; the language tabs ask for it, so a language in Trash keeps its tab (restore there).
      manage("listEntries", { query: { model_id: entry.model_id, translation_group_id: entry.translation_group_id, state: "trash", limit: "100" }, signal }),
    ]);
    return { entry, model, languages: siteInfo.languages, permissions, group: [...group.data, ...trashed.data] };
  }, [site, params.entry]);

  if (loaded.error) {
    const words = describeError(loaded.error);
    return (
      <>
        <PageHeader title="Entry" />
        <Notice kind="error" title={words.title}>{words.detail}</Notice>
        <p><Link href={paths.content(site)}>Back to Content</Link></p>
      </>
    );
  }
  if (!loaded.data) return <Loading label="Opening the entry…" />;
  const { entry, group } = loaded.data;
  if (wanted && wanted !== entry.lang) {
    const sibling = group.find((e) => e.lang === wanted);
    if (sibling) {
      queueMicrotask(() => navigate(paths.entry(site, sibling.instance_id, sibling.lang), { replace: true }));
      return <Loading />;
    }
  }
  return <Editor key={entry.instance_id} site={site} {...loaded.data} onGroupChange={loaded.reload} />;
}

function Editor(props: { site: string; entry: Entry; model: Model; languages: string[]; permissions: Permissions; group: Sibling[]; onGroupChange: () => void }) {
  const { site, model, permissions } = props;
  const [entry, setEntry] = useState<Entry>(props.entry);
  const [adding, setAdding] = useState(false);
  const form = useEntryForm(entry);
  const lease = useLease(site, entry.instance_id, entry.lang);
  // Fields the role may not read are not answered by the service, so they are not drawn either.
  const fields = (model.definition.fields as unknown as FieldDefinition[]).filter((f) => fieldReadable(permissions, model.id, f));
  const roleReason = entryReadOnlyReason(permissions, entry);
  // Only the lease holder types: while the lease is being taken, held by someone else, lost, or
  // could not be taken at all ("none": Save is disabled then), the inputs are read-only — text
  // typed there could not be saved, and an observer's refresh would replace it.
  const leaseLocked = lease.status !== "held";
  const locked = roleReason !== null || leaseLocked;
  const readOnly = (field: FieldDefinition) => locked || !fieldWritable(permissions, model.id, field);
  // An observer's refresh (every lease check, and once when the lease comes free to this editor)
  // is EntryActions' own: it calls onEntry with the fresh entry, or — when the form holds the
  // person's own unsaved text — says a newer version exists and leaves the form (and the version
  // the next save expects) alone, so that save is refused as a conflict rather than overwriting.
  const issues = form.issues;
  const name = entry.label ?? entry.slug ?? "(untitled)";
  const changed = entry.published_version_id !== null && entry.current_version_id !== entry.published_version_id;
  // The tabs show each language's publish state: the open language from the entry as it is now
  // (after this page's saves and publishes), the others as the group was read.
  const group = [...props.group.filter((e) => e.instance_id !== entry.instance_id), entry];
  const issueList = [...issues.entries()];

  // Leaving with unsaved changes asks first (issue #30 item 7): in-app links and Back through the
  // router's leave guard; reload and closing the tab through EntryActions' beforeunload.
  const dirty = form.dirty;
  useEffect(() => {
    if (!dirty) return;
    setLeaveGuard(() => window.confirm("Leave this entry? You have unsaved changes. They stay in your recovery draft and are offered back when you return."));
    return () => setLeaveGuard(null);
  }, [dirty]);

  // A plugin operation acts through its own door: when it moved the entry's version, workflow or
  // Trash state, the editor shows the entry as it is now — unless the form holds unsaved text,
  // which is never overwritten (the next save is then refused as a conflict, said in words).
  const afterOperation = async (): Promise<string | null> => {
    const fresh = await manage("getEntry", { params: { id: entry.instance_id } });
    const moved = fresh.current_version_id !== entry.current_version_id || fresh.workflow.revision !== entry.workflow.revision || fresh.published_version_id !== entry.published_version_id || fresh.trashed_at !== entry.trashed_at;
    if (!moved) return null;
    if (form.dirty) return "It changed this entry. Your unsaved changes are still in the form; save them or reload to see the entry as it is now.";
    setEntry(fresh);
    form.reset(fresh);
    return "It changed this entry: the editor shows the entry as it is now.";
  };

  return (
    <>
      <p class="breadcrumb">
        <Link href={paths.content(site)}>Content</Link> <span aria-hidden="true">›</span> <Link href={paths.entries(site, model.id)}>{model.name}</Link>
      </p>
      <PageHeader title={name}>
        <span class="row">
          <StateBadge state={entry.trashed_at ? "trash" : entry.workflow.state} />
          {changed ? <StateBadge state="changed" /> : null}
        </span>
      </PageHeader>
      {model.i18n ? (
        <LanguageTabs
          group={group}
          current={entry}
          canAdd={props.languages.some((l) => !group.some((e) => e.lang === l))}
          onSelect={(sibling) => navigate(paths.entry(site, sibling.instance_id, sibling.lang))}
          onAdd={() => {
            if (form.dirty && !window.confirm("Add a language and open it? Your unsaved changes here will be lost.")) return;
            setAdding(true);
          }}
        />
      ) : null}
      <div class="entry-layout">
        <div id="entry-panel" role={model.i18n ? "tabpanel" : undefined} aria-labelledby={model.i18n ? `entry-panel-tab-${entry.lang}` : undefined} class="entry-panel">
          <EntryActions
            site={site}
            entry={entry}
            values={form.changes}
            slug={form.slug}
            dirty={form.dirty}
            lease={lease}
            onEntry={(next) => {
              setEntry(next);
              form.reset(next);
            }}
            onIssues={(next) => form.setIssues(next)}
            onRestore={(values) => form.restore(values)}
            fieldLabels={Object.fromEntries(fields.map((f) => [f.key, f.label ?? f.key]))}
          />
          {/* The lease's own banner (in EntryActions) says who holds it; the role's reason is said here. */}
          {roleReason ? <Notice kind="info" title="Read-only">{roleReason}</Notice> : null}
          {issueList.length ? (
            <Notice kind="error" title={`${issueList.length} ${issueList.length === 1 ? "field needs" : "fields need"} attention`}>
              <ul class="issue-list">
                {issueList.map(([path, messages]) => (
                  <li>
                    <code>{path || "entry"}</code>: {messages.join(" ")}
                  </li>
                ))}
              </ul>
            </Notice>
          ) : null}
          <PublishingDetails model={model} entry={entry} fields={fields} values={form.values} readOnly={locked} onFill={form.setValue} />
          <form class="entry-form stack" aria-label={`${model.name} fields`} onSubmit={(e) => e.preventDefault()} novalidate>
            {model.kind === "single" && !entry.slug ? null : (
              <AddressField modelId={model.id} lang={entry.lang} instanceId={entry.instance_id} saved={entry.slug ?? ""} value={form.slug} onChange={form.setSlug} readOnly={locked} errors={issues.get("slug") ?? []} />
            )}
            <FormFields site={site} lang={entry.lang} fields={fields} values={form.values} onChange={form.setValue} prefix="" issues={issues} readOnly={readOnly} />
          </form>
        </div>
        <EntrySidePanel site={site} entry={entry}>
          <EntryOperations entry={entry} onRan={afterOperation} />
        </EntrySidePanel>
      </div>
      {adding ? (
        <AddLanguageDialog
          site={site}
          entry={entry}
          languages={props.languages.filter((l) => !group.some((e) => e.lang === l))}
          onClose={() => setAdding(false)}
          onAdded={(added) => {
            setAdding(false);
            props.onGroupChange();
            // The person was asked before "Add language" opened.
            navigate(paths.entry(site, added.instance_id, added.lang), { force: true });
          }}
        />
      ) : null}
    </>
  );
}
