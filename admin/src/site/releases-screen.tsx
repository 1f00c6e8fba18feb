import { useState } from "preact/hooks";
import { ApiError, manage, newActionKey, type ManageAnswer } from "../api/client";
import { describeError } from "../api/error-words";
import type { ScreenProps } from "../screens/types";
import { useLoad } from "../screens/use-load";
import { Button, Field, Loading, Notice, PageHeader } from "../ui/controls";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { EntryPicker, type PickedEntry } from "../ui/entry-picker";
import { OutcomeNotice, SiteNav, localToIso, useOutcome, when } from "./shared";
import "../styles/site.css";

type Release = ManageAnswer<"getRelease">;
type Problem = Release["problems"][number];
type Preview = ManageAnswer<"previewRelease">;
type Draft = { id: string; label: string; action: "publish" | "unpublish" };

const STATE_WORDS: Record<Release["state"], string> = { open: "Open", published: "Published", stale: "Not published: an entry changed", failed: "Not published: refused" };

/**
 * Releases (issue #27 item 3, docs/releases.md): entry-language changes published together, all
 * or nothing. The list, a release made or edited here (entries picked, each published or
 * unpublished), its preview (what would be refused, what each item will be), and publishing now
 * or at a time. A refused publication lists every refused change in words, and nothing is written.
 */
export default function ReleasesScreen({ site }: ScreenProps) {
  const loaded = useLoad(async (signal) => {
    const [releases, models] = await Promise.all([manage("listReleases", { query: { limit: "100" }, signal }), manage("listModels", { signal })]);
    return { releases: releases.data, models: models.data.map((m) => ({ id: m.id, name: m.name })) };
  }, []);
  const [open, setOpen] = useState<string | "new" | null>(null);
  const [labels, setLabels] = useState<Record<string, string>>({});
  const note = useOutcome();
  const releases = loaded.data?.releases ?? [];
  const chosen = open && open !== "new" ? releases.find((r) => r.id === open) ?? null : null;
  const nameOf = (instanceId: string) => labels[instanceId] ?? instanceId;

  return (
    <>
      <PageHeader title="Releases">
        <Button variant="primary" onClick={() => setOpen("new")}>
          New release
        </Button>
      </PageHeader>
      <SiteNav site={site} />
      <OutcomeNotice outcome={note.outcome} />
      {loaded.loading && !loaded.data ? <Loading label="Loading releases…" /> : null}
      {loaded.error ? <Notice kind="error" title={describeError(loaded.error).title} /> : null}
      {loaded.data ? (
        <section class="stack site-panel" aria-labelledby="releases-heading">
          <h2 id="releases-heading">All releases</h2>
          {releases.length === 0 ? (
            <p class="muted">No release yet. A release publishes several entries together, at once or at a time.</p>
          ) : (
            <table class="list responsive">
              <caption class="visually-hidden">Releases, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">State</th>
                  <th scope="col">Changes</th>
                  <th scope="col">When</th>
                </tr>
              </thead>
              <tbody>
                {releases.map((r) => (
                  <tr>
                    <td>
                      <Button variant="ghost" aria-label={`Open the release ${r.name}`} onClick={() => setOpen(r.id)}>
                        {r.name}
                      </Button>
                    </td>
                    <td>{STATE_WORDS[r.state]}</td>
                    <td>{r.changes.length}</td>
                    <td>{r.published_at ? `published ${when(r.published_at)}` : r.at ? `at ${when(r.at)}` : "on demand"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      ) : null}
      {open === "new" && loaded.data ? (
        <ReleaseForm
          models={loaded.data.models}
          nameOf={nameOf}
          onLabels={(more) => setLabels({ ...labels, ...more })}
          onSaved={(r) => {
            note.say(`The release ${r.name} is saved with ${r.changes.length} changes.`);
            loaded.reload();
            setOpen(r.id);
          }}
          onCancel={() => setOpen(null)}
        />
      ) : null}
      {chosen && loaded.data ? (
        <ReleaseDetail
          key={`${chosen.id}-${chosen.revision}`}
          release={chosen}
          models={loaded.data.models}
          nameOf={nameOf}
          onLabels={(more) => setLabels({ ...labels, ...more })}
          onChanged={(words) => {
            note.say(words);
            loaded.reload();
          }}
          onDeleted={(words) => {
            note.say(words);
            setOpen(null);
            loaded.reload();
          }}
        />
      ) : null}
    </>
  );
}

/** A new release, or the name, time and changes of an open one (updateRelease with its revision). */
function ReleaseForm(props: { release?: Release; models: { id: string; name: string }[]; nameOf: (id: string) => string; onLabels: (l: Record<string, string>) => void; onSaved: (r: Release) => void; onCancel: () => void }) {
  const r = props.release;
  const [name, setName] = useState(r?.name ?? "");
  const [at, setAt] = useState("");
  const [changes, setChanges] = useState<Draft[]>(r ? r.changes.map((c) => ({ id: c.instance_id, label: props.nameOf(c.instance_id), action: c.action })) : []);
  const [picking, setPicking] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const add = (picked: PickedEntry[]) => {
    setPicking(false);
    props.onLabels(Object.fromEntries(picked.map((p) => [p.id, p.label])));
    setChanges([...changes, ...picked.filter((p) => !changes.some((c) => c.id === p.id)).map((p) => ({ id: p.id, label: p.label, action: p.state === "published" ? ("unpublish" as const) : ("publish" as const) }))]);
  };

  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const list = changes.map((c) => ({ entry_id: c.id, action: c.action }));
      const time = localToIso(at);
      const saved = r
        ? await manage("updateRelease", { params: { id: r.id }, body: { expected_revision: r.revision, name, changes: list, ...(at ? { at: time } : {}) }, key: newActionKey() })
        : await manage("createRelease", { body: { name, changes: list, ...(time ? { at: time } : {}) }, key: newActionKey() });
      props.onSaved(saved);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const refusal = error ? describeError(error) : null;
  const change = error instanceof ApiError && typeof error.details.change === "number" ? changes[error.details.change] : undefined;
  return (
    <form class="stack site-panel" aria-labelledby="release-form-heading" onSubmit={(e) => void save(e)}>
      <h2 id="release-form-heading">{r ? `Edit ${r.name}` : "New release"}</h2>
      <Field label="Name">{({ id }) => <input id={id} type="text" required maxLength={200} value={name} onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} />}</Field>
      <Field label="Publish at (optional)" hint="Your local time. Empty: it is published when you press Publish now.">
        {({ id, describedBy }) => <input id={id} type="datetime-local" value={at} aria-describedby={describedBy} onInput={(e) => setAt((e.currentTarget as HTMLInputElement).value)} />}
      </Field>
      <fieldset class="stack">
        <legend>Changes ({changes.length})</legend>
        {changes.length === 0 ? <p class="muted">No change yet. Add the entries this release publishes or unpublishes.</p> : null}
        <ul class="stack" aria-label="Changes of the release">
          {changes.map((c, i) => (
            <li class="row">
              <span>{c.label}</span>
              <select aria-label={`What happens to ${c.label}`} value={c.action} onChange={(e) => setChanges(changes.map((x, j) => (j === i ? { ...x, action: (e.currentTarget as HTMLSelectElement).value as Draft["action"] } : x)))}>
                <option value="publish">Publish its draft</option>
                <option value="unpublish">Unpublish it</option>
              </select>
              <Button variant="ghost" aria-label={`Remove ${c.label} from the release`} onClick={() => setChanges(changes.filter((_, j) => j !== i))}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
        <div class="row">
          <Button onClick={() => setPicking(true)}>Add entries</Button>
        </div>
      </fieldset>
      {refusal ? (
        <Notice kind="error" title={refusal.title}>
          {change ? <p>About {change.label}.</p> : null}
          {refusal.detail ? <p class="muted">{refusal.detail}</p> : null}
        </Notice>
      ) : null}
      <div class="row">
        <Button type="submit" variant="primary" busy={busy} disabled={changes.length === 0 || !name.trim()}>
          {r ? "Save the release" : "Create the release"}
        </Button>
        <Button variant="ghost" onClick={props.onCancel}>
          Cancel
        </Button>
      </div>
      <EntryPicker open={picking} title="Add entries to the release" targets={props.models} multiple exclude={changes.map((c) => c.id)} onPick={add} onClose={() => setPicking(false)} />
    </form>
  );
}

/** A refused change in words: the entry, its language, and why. */
function problemWords(p: Problem, nameOf: (id: string) => string): string {
  const why = describeError(new ApiError(422, p.code, p.message, p.details ?? {})).title;
  return `${nameOf(p.instance_id)} (${p.lang}, ${p.action}): ${why}`;
}

function ReleaseDetail(props: { release: Release; models: { id: string; name: string }[]; nameOf: (id: string) => string; onLabels: (l: Record<string, string>) => void; onChanged: (words: string) => void; onDeleted: (words: string) => void }) {
  const r = props.release;
  const [editing, setEditing] = useState(false);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [confirm, setConfirm] = useState<"publish" | "delete" | null>(null);
  const [at, setAt] = useState("");
  const [busy, setBusy] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<{ title: string; detail?: string | undefined; items: string[] } | null>(null);
  const editable = r.state !== "published";

  const act = async (name: string, run: () => Promise<unknown>, done: string) => {
    setBusy(name);
    setRefusal(null);
    try {
      await run();
      setConfirm(null);
      props.onChanged(done);
    } catch (error) {
      setConfirm(null);
      const words = describeError(error);
      const problems = error instanceof ApiError && Array.isArray(error.details.problems) ? (error.details.problems as Problem[]) : [];
      setRefusal({ title: words.title, detail: words.detail, items: problems.map((p) => problemWords(p, props.nameOf)) });
    } finally {
      setBusy(null);
    }
  };

  const runPreview = async () => {
    setBusy("preview");
    setRefusal(null);
    try {
      setPreview(await manage("previewRelease", { params: { id: r.id }, body: {} }));
    } catch (error) {
      setRefusal({ ...describeError(error), items: [] });
    } finally {
      setBusy(null);
    }
  };

  if (editing) return <ReleaseForm release={r} models={props.models} nameOf={props.nameOf} onLabels={props.onLabels} onSaved={(saved) => props.onChanged(`The release ${saved.name} is saved with ${saved.changes.length} changes.`)} onCancel={() => setEditing(false)} />;

  return (
    <section class="stack site-panel" aria-labelledby="release-heading">
      <h2 id="release-heading">{r.name}</h2>
      <dl class="site-facts">
        <dt>State</dt>
        <dd>{STATE_WORDS[r.state]}</dd>
        <dt>When</dt>
        <dd>{r.published_at ? `Published ${when(r.published_at)}` : r.at ? `At ${when(r.at)}` : "When you publish it"}</dd>
        {r.outcome_message ? (
          <>
            <dt>Last outcome</dt>
            <dd>{r.outcome_message}</dd>
          </>
        ) : null}
      </dl>
      <table class="list responsive">
        <caption>Changes</caption>
        <thead>
          <tr>
            <th scope="col">Entry</th>
            <th scope="col">Language</th>
            <th scope="col">Change</th>
          </tr>
        </thead>
        <tbody>
          {r.changes.map((c) => (
            <tr>
              <td>{props.nameOf(c.instance_id)}</td>
              <td>{c.lang}</td>
              <td>{c.action === "publish" ? "Publish" : "Unpublish"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {r.problems.length ? (
        <Notice kind="warning" title="The last try was refused:">
          <ul>
            {r.problems.map((p) => (
              <li>{problemWords(p, props.nameOf)}</li>
            ))}
          </ul>
        </Notice>
      ) : null}
      {refusal ? (
        <Notice kind="error" title={refusal.title}>
          {refusal.items.length ? (
            <ul>
              {refusal.items.map((i) => (
                <li>{i}</li>
              ))}
            </ul>
          ) : refusal.detail ? (
            <p class="muted">{refusal.detail}</p>
          ) : null}
        </Notice>
      ) : null}
      {preview ? (
        <div class="stack" aria-labelledby="preview-heading">
          <h3 id="preview-heading">Preview</h3>
          <p>{preview.valid ? "Every change can be published." : "Publishing now would be refused:"}</p>
          {preview.problems.length ? (
            <ul>
              {preview.problems.map((p) => (
                <li>{problemWords(p, props.nameOf)}</li>
              ))}
            </ul>
          ) : null}
          <ul>
            {preview.items.map((i) => (
              <li>
                {props.nameOf(i.instance_id)} ({i.lang}): {i.action === "publish" ? "published" : "withdrawn"}
                {i.url ? (
                  <>
                    {" "}
                    at <span class="mono">{i.url}</span>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
          <p class="muted">
            Preview capability, valid until {when(preview.expires_at)}: <span class="mono">{preview.preview}</span>
          </p>
        </div>
      ) : null}
      {editable ? (
        <>
          <div class="row">
            <Button busy={busy === "preview"} onClick={() => void runPreview()}>
              Preview
            </Button>
            <Button variant="primary" busy={busy === "publish"} onClick={() => setConfirm("publish")}>
              Publish now
            </Button>
            <Button onClick={() => setEditing(true)}>Edit</Button>
            <Button variant="danger" busy={busy === "delete"} onClick={() => setConfirm("delete")}>
              Delete
            </Button>
          </div>
          <form
            class="row"
            aria-label="Publish at a time"
            onSubmit={(e) => {
              e.preventDefault();
              void act("time", () => manage("updateRelease", { params: { id: r.id }, body: { expected_revision: r.revision, at: localToIso(at) }, key: newActionKey() }), at ? `The release ${r.name} will be published at ${when(localToIso(at))}.` : `The release ${r.name} is published on demand only.`);
            }}
          >
            <Field label="Publish at">{({ id }) => <input id={id} type="datetime-local" value={at} onInput={(e) => setAt((e.currentTarget as HTMLInputElement).value)} />}</Field>
            <Button type="submit" busy={busy === "time"}>
              {at ? "Set the time" : "Publish on demand only"}
            </Button>
          </form>
        </>
      ) : null}
      <ConfirmDialog
        open={confirm === "publish"}
        title={`Publish ${r.name} now?`}
        confirm="Publish every change"
        busy={busy === "publish"}
        onClose={() => setConfirm(null)}
        onConfirm={() => void act("publish", () => manage("publishRelease", { params: { id: r.id }, body: { expected_revision: r.revision }, key: newActionKey() }), `The release ${r.name} is published: ${r.changes.length} changes made together.`)}
      >
        <p>All {r.changes.length} changes are made together, or none if one is refused.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === "delete"}
        title={`Delete ${r.name}?`}
        confirm="Delete the release"
        danger
        busy={busy === "delete"}
        onClose={() => setConfirm(null)}
        onConfirm={() => {
          setBusy("delete");
          manage("deleteRelease", { params: { id: r.id }, key: newActionKey() }).then(
            () => props.onDeleted(`The release ${r.name} is deleted; its entries are untouched.`),
            (error: unknown) => {
              setConfirm(null);
              setBusy(null);
              setRefusal({ ...describeError(error), items: [] });
            },
          );
        }}
      >
        <p>Its entries are untouched.</p>
      </ConfirmDialog>
    </section>
  );
}
