import { useState } from "preact/hooks";
import { ApiError, manage, newActionKey, type ManageAnswer } from "../api/client";
import { describeError } from "../api/error-words";
import type { ScreenProps } from "../screens/types";
import { useLoad } from "../screens/use-load";
import { Button, Field, Loading, Notice, PageHeader } from "../ui/controls";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { OutcomeNotice, SiteNav, useOutcome } from "./shared";
import "../styles/site.css";

type Query = ManageAnswer<"listSavedQueries">["data"][number];
type ModelField = { key: string; label?: string; type: string; private?: boolean };
type Order = "asc" | "desc" | "manual";
type Filter = { kind: "relation" | "tag"; field: string; value: string };
type Draft = { name: string; model: string; fields: string[]; order: Order; limit: string; filters: Filter[] };

const EMPTY: Draft = { name: "", model: "", fields: [], order: "desc", limit: "20", filters: [] };
const ORDERS: readonly { value: Order; label: string }[] = [
  { value: "desc", label: "Newest first" },
  { value: "asc", label: "Oldest first" },
  { value: "manual", label: "The model's manual order" },
];

/** The refusal's issues in words (`issues[]` of 400 and 422): "fields[1]: "secret" is a private field". */
const issuesOf = (error: unknown) => (error instanceof ApiError && Array.isArray(error.details.issues) ? (error.details.issues as { message?: string }[]).map((i) => i.message ?? "") : []);

/**
 * Saved queries (issue #29 item 6, docs/saved-queries.md): named list queries of one model the
 * website reads at /v1/_queries/{name} — fields kept, relation and tag filters, order, page size.
 * Every saved query is on a public route, so one naming a private field is refused (422
 * `private_field_on_public_route`), said in words naming the field; private fields are marked here.
 */
export default function QueriesScreen({ site }: ScreenProps) {
  const loaded = useLoad(async (signal) => {
    const [queries, models] = await Promise.all([manage("listSavedQueries", { signal }), manage("listModels", { signal })]);
    return { queries: queries.data, models: models.data.map((m) => ({ id: m.id, name: m.name, fields: (m.definition.fields ?? []) as ModelField[] })) };
  }, []);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [editing, setEditing] = useState<Query | null>(null);
  const [removing, setRemoving] = useState<Query | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const note = useOutcome();
  const models = loaded.data?.models ?? [];
  const model = models.find((m) => m.id === draft.model) ?? null;

  const save = async (event: Event) => {
    event.preventDefault();
    setBusy("save");
    const definition = { fields: draft.fields, order: draft.order, limit: Math.max(1, Math.min(100, Number(draft.limit) || 20)), filters: draft.filters.filter((f) => f.field && f.value.trim()).map((f) => ({ ...f, value: f.value.trim() })) };
    try {
      const saved = editing
        ? await manage("updateSavedQuery", { params: { id: editing.id }, body: { name: draft.name, expected_revision: editing.revision, ...definition }, key: newActionKey() })
        : await manage("createSavedQuery", { body: { name: draft.name, model_id: draft.model, ...definition }, key: newActionKey() });
      note.say(`The saved query ${saved.name} is saved. The website reads it at /v1/_queries/${saved.name}.`);
      setDraft(EMPTY);
      setEditing(null);
      loaded.reload();
    } catch (error) {
      note.fail(error, { invalid_request: "Some parts of this query need attention." }, issuesOf(error));
    } finally {
      setBusy(null);
    }
  };

  const remove = async (q: Query) => {
    setBusy("remove");
    try {
      await manage("deleteSavedQuery", { params: { id: q.id }, key: newActionKey() });
      note.say(`The saved query ${q.name} is deleted; its public address answers 404.`);
      loaded.reload();
    } catch (error) {
      note.fail(error);
    } finally {
      setRemoving(null);
      setBusy(null);
    }
  };

  const toggleField = (key: string, on: boolean) => setDraft({ ...draft, fields: on ? [...draft.fields.filter((k) => k !== key), key] : draft.fields.filter((k) => k !== key) });

  return (
    <>
      <PageHeader title="Saved queries" />
      <SiteNav site={site} />
      <OutcomeNotice outcome={note.outcome} />
      {loaded.loading && !loaded.data ? <Loading label="Loading saved queries…" /> : null}
      {loaded.error ? <Notice kind="error" title={describeError(loaded.error).title} /> : null}
      {loaded.data ? (
        <section class="stack site-panel" aria-labelledby="queries-heading">
          <h2 id="queries-heading">The site's saved queries</h2>
          {loaded.data.queries.length === 0 ? (
            <p class="muted">No saved query yet.</p>
          ) : (
            <table class="list responsive">
              <caption class="visually-hidden">Saved queries by name</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Model</th>
                  <th scope="col">Public address</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {loaded.data.queries.map((q) => (
                  <tr>
                    <td class="mono">{q.name}</td>
                    <td>{models.find((m) => m.id === q.model_id)?.name ?? q.model_slug}</td>
                    <td class="mono">/v1/_queries/{q.name}</td>
                    <td>
                      <span class="row">
                        <Button
                          aria-label={`Edit the saved query ${q.name}`}
                          onClick={() => {
                            setEditing(q);
                            setDraft({ name: q.name, model: q.model_id, fields: q.fields ?? [], order: q.order as Order, limit: String(q.limit), filters: q.filters.map((f) => ({ kind: f.kind as Filter["kind"], field: f.field, value: f.value })) });
                          }}
                        >
                          Edit
                        </Button>
                        <Button variant="danger" aria-label={`Delete the saved query ${q.name}`} onClick={() => setRemoving(q)}>
                          Delete
                        </Button>
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      ) : null}
      {loaded.data ? (
        <form class="stack site-panel" aria-labelledby="query-form-heading" onSubmit={(e) => void save(e)}>
          <h2 id="query-form-heading">{editing ? `Edit the saved query ${editing.name}` : "New saved query"}</h2>
          <Field label="Name (its public address)" hint="Lower-case letters, digits and hyphens, starting with a letter.">
            {({ id, describedBy }) => <input id={id} type="text" class="mono" required maxLength={64} value={draft.name} aria-describedby={describedBy} onInput={(e) => setDraft({ ...draft, name: (e.currentTarget as HTMLInputElement).value })} />}
          </Field>
          <Field label="Model">
            {({ id }) => (
              <select id={id} required disabled={editing !== null} value={draft.model} onChange={(e) => setDraft({ ...draft, model: (e.currentTarget as HTMLSelectElement).value, fields: [], filters: [] })}>
                <option value="">Choose a model</option>
                {models.map((m) => (
                  <option value={m.id}>{m.name}</option>
                ))}
              </select>
            )}
          </Field>
          {model ? (
            <fieldset class="stack">
              <legend>Fields each item keeps (none ticked: every public field)</legend>
              {model.fields.map((f) => (
                <label class="row">
                  <input type="checkbox" checked={draft.fields.includes(f.key)} onChange={(e) => toggleField(f.key, (e.currentTarget as HTMLInputElement).checked)} />
                  <span>
                    {f.label ?? f.key}
                    {f.private ? " (private: not on a public route)" : ""}
                  </span>
                </label>
              ))}
            </fieldset>
          ) : null}
          {model ? (
            <fieldset class="stack">
              <legend>Filters</legend>
              {draft.filters.map((f, i) => (
                <div class="row">
                  <select aria-label={`Filter ${i + 1}: field`} value={f.field} onChange={(e) => setDraft({ ...draft, filters: draft.filters.map((x, j) => (j === i ? { ...x, field: (e.currentTarget as HTMLSelectElement).value } : x)) })}>
                    <option value="">Choose a relation field</option>
                    {model.fields
                      .filter((x) => x.type === "relation")
                      .map((x) => (
                        <option value={x.key}>{x.label ?? x.key}</option>
                      ))}
                  </select>
                  <select aria-label={`Filter ${i + 1}: match by`} value={f.kind} onChange={(e) => setDraft({ ...draft, filters: draft.filters.map((x, j) => (j === i ? { ...x, kind: (e.currentTarget as HTMLSelectElement).value as Filter["kind"] } : x)) })}>
                    <option value="relation">links to the entry id</option>
                    <option value="tag">links to the item at the slug</option>
                  </select>
                  <input type="text" class="mono" aria-label={`Filter ${i + 1}: value`} maxLength={200} value={f.value} onInput={(e) => setDraft({ ...draft, filters: draft.filters.map((x, j) => (j === i ? { ...x, value: (e.currentTarget as HTMLInputElement).value } : x)) })} />
                  <Button variant="ghost" aria-label={`Remove filter ${i + 1}`} onClick={() => setDraft({ ...draft, filters: draft.filters.filter((_, j) => j !== i) })}>
                    Remove
                  </Button>
                </div>
              ))}
              <div class="row">
                <Button onClick={() => setDraft({ ...draft, filters: [...draft.filters, { kind: "relation", field: "", value: "" }] })}>Add a filter</Button>
              </div>
            </fieldset>
          ) : null}
          <Field label="Order">
            {({ id }) => (
              <select id={id} value={draft.order} onChange={(e) => setDraft({ ...draft, order: (e.currentTarget as HTMLSelectElement).value as Order })}>
                {ORDERS.map((o) => (
                  <option value={o.value}>{o.label}</option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Items per page (1 to 100)">{({ id }) => <input id={id} type="number" min={1} max={100} value={draft.limit} onInput={(e) => setDraft({ ...draft, limit: (e.currentTarget as HTMLInputElement).value })} />}</Field>
          <div class="row">
            <Button type="submit" variant="primary" busy={busy === "save"} disabled={!draft.model}>
              {editing ? "Save the query" : "Create the query"}
            </Button>
            {editing ? (
              <Button
                variant="ghost"
                onClick={() => {
                  setEditing(null);
                  setDraft(EMPTY);
                }}
              >
                Cancel editing
              </Button>
            ) : null}
          </div>
        </form>
      ) : null}
      <ConfirmDialog open={removing !== null} title={`Delete the saved query ${removing?.name ?? ""}?`} confirm="Delete the query" danger busy={busy === "remove"} onClose={() => setRemoving(null)} onConfirm={() => removing && void remove(removing)}>
        <p>Its public address answers 404 at once.</p>
      </ConfirmDialog>
    </>
  );
}
