import { useEffect, useState } from "preact/hooks";
import { admin, manage, type AdminAnswer, type ManageAnswer } from "../api/client";
import { describeError } from "../api/error-words";
import { useMemberNames } from "../editor/person-names";
import { RefusalPanel } from "../editor/refusal-panel";
import { useAction } from "../ui/use-action";
import type { Entry, FieldDefinition } from "../fields/types";
import { paths } from "../router";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { Button, Link, Loading, Notice, PageHeader, StateBadge } from "../ui/controls";
import { FieldDiff, richTextKeys } from "../ui/field-diff";
import type { ScreenProps } from "./types";
import "../styles/lifecycle.css";

type Version = ManageAnswer<"listEntryVersions">["data"][number];
type VersionValues = AdminAnswer<"getEntryVersion">;

/**
 * Versions of an entry language (issue #15 item 6; docs/admin-ui-lifecycle.md): newest first with
 * author and time; choosing one shows what differs from the current draft field by field; Restore
 * makes it the draft again (`restoreEntryVersion` with `expected_version_id`, so a draft saved in
 * the meantime is refused, not overwritten). No lease is taken here: a restore is checked against
 * whoever holds the entry (423 `locked` in words), and taking one would take it from this person's
 * own editor in another tab.
 */
export default function Versions({ site, params }: ScreenProps) {
  const entryId = params.entry ?? "";
  const [entry, setEntry] = useState<Entry | null>(null);
  const [labels, setLabels] = useState<Record<string, string>>({});
  const [order, setOrder] = useState<string[]>([]);
  const [richKeys, setRichKeys] = useState<ReadonlySet<string>>(new Set());
  const [versions, setVersions] = useState<Version[] | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [values, setValues] = useState<VersionValues | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [error, setError] = useState<unknown>(null);
  const [asking, setAsking] = useState(false);
  const [status, setStatus] = useState("");
  const action = useAction();
  const names = useMemberNames(site, versions?.map((v) => v.created_by) ?? []);

  const load = async () => {
    const [fresh, list] = await Promise.all([manage("getEntry", { params: { id: entryId } }), manage("listEntryVersions", { params: { id: entryId } })]);
    setEntry(fresh);
    setVersions(list.data);
    return { fresh, list };
  };

  useEffect(() => {
    load()
      .then(async ({ fresh, list }) => {
        const model = await manage("getModel", { params: { id: fresh.model_id } });
        const fields = model.definition.fields as FieldDefinition[];
        setLabels(Object.fromEntries(fields.map((f) => [f.key, f.label ?? f.key])));
        setOrder(fields.map((f) => f.key));
        setRichKeys(richTextKeys(fields));
        // Start on the version before the current draft: what the last save changed.
        const previous = list.data.find((v) => v.id !== fresh.current_version_id);
        if (previous) setSelected(previous.id);
      })
      .catch(setFailure);
  }, [entryId]);

  useEffect(() => {
    if (!selected) return;
    setValues(null);
    admin("getEntryVersion", { params: { id: entryId, version_id: selected } })
      .then(setValues)
      .catch(setError);
  }, [selected, entry?.current_version_id]);

  const restore = async () => {
    if (!entry || !selected) return;
    setError(null);
    try {
      const answer = await action.run("restore", (key) => manage("restoreEntryVersion", { params: { id: entryId, version_id: selected }, body: { expected_version_id: entry.current_version_id ?? undefined }, key }));
      if (!answer) return;
      setAsking(false);
      const from = versions?.find((v) => v.id === selected);
      await load();
      setStatus(`Version ${from?.number ?? ""} is the draft again (saved as a new version).`);
    } catch (e) {
      setAsking(false);
      setError(e);
    }
  };

  if (failure) {
    const words = describeError(failure);
    return (
      <>
        <PageHeader title="Versions" />
        <Notice kind="error" title={words.title}>
          {words.detail}
        </Notice>
      </>
    );
  }
  if (!entry || !versions) return <Loading />;

  const chosen = versions.find((v) => v.id === selected) ?? null;
  const who = (v: Version) => (v.created_by ? (names.get(v.created_by) ?? "another person") : "the system");
  const when = (iso: string) => new Date(iso).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
  const title = entry.label ?? entry.instance_id;

  return (
    <>
      <PageHeader title={`Versions of ${title}`}>
        <Link class="button" href={paths.entry(site, entry.instance_id, entry.lang)}>
          Back to the editor
        </Link>
      </PageHeader>
      <div class="row entry-state">
        <StateBadge state={entry.trashed_at ? "trash" : entry.workflow.state} />
        <span class="muted">Language: {entry.lang}</span>
      </div>
      <p class="action-status" role="status" aria-live="polite">
        {status}
      </p>
      {error ? <RefusalPanel site={site} error={error} onReload={() => void load().then(() => setError(null))} /> : null}
      <div class="versions-layout">
        <section aria-labelledby="version-list-title">
          <h2 id="version-list-title">History, newest first</h2>
          <ul class="version-list">
            {versions.map((v) => (
              <li>
                <button type="button" aria-pressed={v.id === selected ? "true" : "false"} onClick={() => setSelected(v.id)}>
                  Version {v.number}
                  {v.id === entry.current_version_id ? " · current draft" : ""}
                  {v.id === entry.published_version_id ? " · published" : ""}
                  <span class="version-meta">
                    by {who(v)}, {when(v.created_at)}
                    {v.restored_from ? ` · restored from version ${versions.find((o) => o.id === v.restored_from)?.number ?? "?"}` : ""}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="version-diff-title" class="stack">
          {chosen ? (
            <>
              <h2 id="version-diff-title">
                Version {chosen.number} compared with the current draft
              </h2>
              {chosen.id === entry.current_version_id ? (
                <p class="muted">This is the current draft.</p>
              ) : values && values.id === chosen.id ? (
                <FieldDiff before={values.fields} after={entry.fields} labels={labels} order={order} richKeys={richKeys} caption={`Fields that differ between version ${chosen.number} and the current draft`} headings={[`Version ${chosen.number}`, "Current draft"]} />
              ) : (
                <Loading label="Loading the version…" />
              )}
              <div class="row">
                <Button variant="primary" disabled={chosen.id === entry.current_version_id || entry.trashed_at !== null || action.busy !== null} onClick={() => setAsking(true)}>
                  Restore version {chosen.number}
                </Button>
              </div>
            </>
          ) : (
            <h2 id="version-diff-title">Only one version so far</h2>
          )}
        </section>
      </div>
      <ConfirmDialog open={asking} title={`Restore version ${chosen?.number ?? ""}?`} confirm="Restore" busy={action.busy === "restore"} onConfirm={() => void restore()} onClose={() => setAsking(false)}>
        <p>Its values become the draft again, saved as a new version. The current draft stays in the history. Publishing is a separate step.</p>
      </ConfirmDialog>
    </>
  );
}
