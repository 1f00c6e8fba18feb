import { useEffect, useState } from "preact/hooks";
import { ApiError, admin, manage, type ManageAnswer, type ManageOperations } from "../api/client";
import { describeError } from "../api/error-words";
import { navigate, paths } from "../router";
import type { ScreenProps } from "../screens/types";
import { useLoad } from "../screens/use-load";
import { Button, Field, Link, Loading, Notice, PageHeader } from "../ui/controls";
import { OrderedList } from "../ui/ordered-list";
import { useAction } from "../ui/use-action";
import { ChangesPreview, type DefinitionPlan } from "./changes-preview";
import { draftFields, fieldForRequest, keyFromLabel, modelForRequest, newUid, TYPE_WORDS, UNIQUE_TYPES, type DraftField, type DraftModel } from "./definition";
import { FieldEditor } from "./field-editor";
import "../styles/models.css";

type Model = ManageAnswer<"getModel">;
/** The fields of a definition as the contract types them; the builder's are checked by the service. */
type RequestFields = ManageOperations["replaceModelDefinition"]["body"]["definition"]["fields"];

/** The builder's own words for refusals whose general words would mislead here. */
const OWN_WORDS: Record<string, string> = {
  model_changed: "Someone changed this model after you opened it, so nothing was saved. Your edits are still here: reload the model to see the other changes, then make yours again.",
  missing_permission: "Your role may not change models (it needs the “change models” permission).",
  model_slug_taken: "Another model already uses this address (slug).",
  model_name_collision: "Another model already has this name.",
  duplicate_field_key: "Two fields use the same key. Give each field its own key.",
  invalid_field_key: "A field key must start with a letter and hold only letters, digits and underscores.",
  invalid_field_validation: "A validation rule cannot work (for example a minimum above its maximum, or a pattern that does not compile).",
  invalid_field_condition: "A show condition names a field or a test that does not fit.",
  invalid_field_config: "A field's settings do not fit its type.",
  invalid_unique_combination: "A unique combination needs 2 to 4 text, slug or number fields.",
  unique_unsupported: "Only text, slug and number fields can hold unique values.",
};

/** What the builder said before it moved to a new model's own address (the screen starts afresh there). */
let carried = "";

const EMPTY_MODEL: DraftModel = { name: "", slug: "", description: "", kind: "collection", is_public: true, enableI18n: false, folder: "", unique_combinations: [] };

function fromModel(model: Model): DraftModel {
  const m = model.definition.model;
  return { name: m.name, slug: m.slug, description: m.description ?? "", kind: m.kind, is_public: m.is_public, enableI18n: m.enableI18n, folder: model.folder ?? "", unique_combinations: m.unique_combinations };
}

/**
 * The model builder (issue #30 item 1, docs/admin-ui-models.md) at /sites/:site/settings/models/:model
 * (`new` for a new model): the model's own settings, its fields (every type, reordered by keyboard
 * or pointer), unique combinations; "Review and save" asks the service for the plan of the change
 * and shows it — blocked changes with their counts and suggestions — before anything is written.
 */
export default function ModelBuilder({ site, params }: ScreenProps) {
  const modelId = params.model === "new" ? null : (params.model ?? null);
  const loaded = useLoad(
    async (signal) => {
      const [models, me, model] = await Promise.all([manage("listModels", { signal }), admin("getPermissions", { signal }), modelId ? manage("getModel", { params: { id: modelId }, signal }) : Promise.resolve(null)]);
      const system = ((me.permissions as { system?: string[] }).system ?? []) as string[];
      return { models: models.data, model, canApply: system.includes("model:apply") };
    },
    [modelId],
  );
  const [draft, setDraft] = useState<DraftModel>(EMPTY_MODEL);
  const [fields, setFields] = useState<DraftField[]>([]);
  const [openField, setOpenField] = useState<string | null>(null);
  const [plan, setPlan] = useState<DefinitionPlan | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const [said, say] = useState(() => {
    const words = carried;
    carried = "";
    return words;
  });
  const action = useAction();
  const base = loaded.data?.model ?? null;

  useEffect(() => {
    if (!loaded.data) return;
    setDraft(base ? fromModel(base) : EMPTY_MODEL);
    setFields(base ? draftFields(base.definition.fields) : []);
  }, [loaded.data]);

  if (loaded.loading && !loaded.data) return <Loading label="Loading the model…" />;
  if (loaded.error || !loaded.data) {
    return (
      <>
        <PageHeader title="Model" />
        <Notice kind="error" title={describeError(loaded.error, OWN_WORDS).title} />
      </>
    );
  }
  const { models, canApply } = loaded.data;
  const setModel = (patch: Partial<DraftModel>) => setDraft((d) => ({ ...d, ...patch }));
  const definition = () => ({ model: modelForRequest(draft), fields: fields.map(fieldForRequest) as RequestFields });
  const choices = [...models.filter((m) => m.id !== modelId).map((m) => ({ id: m.id, name: m.name })), ...(modelId ? [{ id: modelId, name: draft.name || "This model" }] : [])];
  const uniqueable = fields.filter((f) => UNIQUE_TYPES.includes(f.type) && f.key);

  const review = async (event: Event) => {
    event.preventDefault();
    setPlan(null);
    if (!base) {
      setPreviewing(true);
      return;
    }
    const outcome = await action.attempt("plan", () => manage("planModelDefinition", { params: { id: base.id }, body: { expected_revision: base.revision, definition: definition() } }));
    if (outcome?.ok) {
      setPlan(outcome.value);
      setPreviewing(true);
    }
  };

  const fileInFolder = async (id: string, key: string) => {
    const folder = draft.folder.trim() || null;
    if ((base?.folder ?? null) !== folder) await manage("setModelFolder", { params: { id }, body: { folder }, key: `${key}-folder` });
  };

  const save = async () => {
    const outcome = await action.attempt("save", async (key) => {
      if (base) {
        const answer = await manage("replaceModelDefinition", { params: { id: base.id }, body: { expected_revision: base.revision, definition: definition() }, key });
        await fileInFolder(base.id, key);
        return answer;
      }
      const body = { definition: { model: modelForRequest(draft), fields: fields.map((f) => { const { id: _id, ...rest } = fieldForRequest(f); return rest; }) } };
      const answer = await manage("createModel", { body: body as never, key });
      await fileInFolder(answer.model_id, key);
      return answer;
    });
    setPreviewing(false);
    if (outcome?.ok) {
      say(base ? `Saved ${draft.name} (revision ${outcome.value.revision}).` : `Created ${draft.name}.`);
      if (base) loaded.reload();
      else {
        carried = `Created ${draft.name}.`;
        navigate(paths.model(site, outcome.value.model_id), { replace: true });
      }
    }
  };

  const propose = async () => {
    const outcome = await action.attempt("propose", (key) =>
      manage("createModelProposal", {
        body: { mode: base ? "update" : "create", ...(base ? { model_id: base.id, base_updated_at: base.updated_at } : {}), definition: definition() as never, note: `Proposed from the model builder by the admin.` },
        key,
      }),
    );
    setPreviewing(false);
    if (outcome?.ok) say(`Proposed. The proposal waits under Review; nothing changed in the model yet.`);
  };

  const refusal = action.error ? describeError(action.error, OWN_WORDS) : null;
  const stale = action.error instanceof ApiError && action.error.code === "model_changed";
  const title = base ? `Model: ${base.name}` : "New model";
  return (
    <>
      <PageHeader title={title}>
        <Link href={paths.models(site)}>All models</Link>
      </PageHeader>
      <p class="visually-hidden" role="status" aria-live="polite">
        {said}
      </p>
      {said ? <Notice kind="success" title={said} /> : null}
      {!canApply ? <Notice kind="info" title="Your role may not change models. You can build a change here and propose it for review." /> : null}
      <form class="stack model-builder" aria-label={title} onSubmit={(e) => void review(e)}>
        <section class="card stack" aria-labelledby="model-settings-heading">
          <h2 id="model-settings-heading">Model</h2>
          <div class="builder-grid">
            <Field label="Name">
              {({ id }) => (
                <input
                  id={id}
                  type="text"
                  required
                  maxLength={120}
                  value={draft.name}
                  onInput={(e) => {
                    const name = (e.currentTarget as HTMLInputElement).value;
                    const follows = !base && (draft.slug === "" || draft.slug === keyFromLabel(draft.name).replace(/_/g, "-"));
                    setModel({ name, ...(follows ? { slug: keyFromLabel(name).replace(/_/g, "-") } : {}) });
                  }}
                />
              )}
            </Field>
            <Field label="Slug (API address)" hint={base ? "Changing it renames the model's addresses." : "Lower-case letters, digits and hyphens."}>
              {({ id, describedBy }) => <input id={id} type="text" class="mono" required maxLength={64} value={draft.slug} aria-describedby={describedBy} onInput={(e) => setModel({ slug: (e.currentTarget as HTMLInputElement).value })} />}
            </Field>
            <Field label="Display folder" hint="Groups models on the content screen; empty for none.">
              {({ id, describedBy }) => <input id={id} type="text" maxLength={40} value={draft.folder} aria-describedby={describedBy} onInput={(e) => setModel({ folder: (e.currentTarget as HTMLInputElement).value })} />}
            </Field>
          </div>
          <Field label="Description">
            {({ id }) => <textarea id={id} rows={2} maxLength={2000} value={draft.description} onInput={(e) => setModel({ description: (e.currentTarget as HTMLTextAreaElement).value })} />}
          </Field>
          <fieldset class="row">
            <legend>Entries</legend>
            <label class="row check">
              <input type="radio" name="kind" checked={draft.kind === "collection"} onChange={() => setModel({ kind: "collection" })} />
              Collection (many entries)
            </label>
            <label class="row check">
              <input type="radio" name="kind" checked={draft.kind === "single"} onChange={() => setModel({ kind: "single" })} />
              Single (one entry, like a home page)
            </label>
          </fieldset>
          <fieldset class="row">
            <legend>Reading and languages</legend>
            <label class="row check">
              <input type="checkbox" checked={draft.is_public} onChange={(e) => setModel({ is_public: (e.currentTarget as HTMLInputElement).checked })} />
              Public (readable without a token)
            </label>
            <label class="row check">
              <input type="checkbox" checked={draft.enableI18n} onChange={(e) => setModel({ enableI18n: (e.currentTarget as HTMLInputElement).checked })} />
              Translated (entries in several languages)
            </label>
          </fieldset>
        </section>

        <section class="card stack" aria-labelledby="fields-heading">
          <h2 id="fields-heading">Fields</h2>
          {fields.length === 0 ? <p class="muted">No field yet.</p> : null}
          <p class="muted">Drag a field to move it, or use its Move up and Move down buttons.</p>
          <OrderedList
            label="Fields in order"
            items={fields}
            keyOf={(f) => f.uid}
            nameOf={(f) => f.label || f.key || "new field"}
            reorderable
            onReorder={setFields}
            onRemove={(f) => setFields((all) => all.filter((x) => x.uid !== f.uid))}
            render={(f) => (
              <div class="stack">
                <div class="row field-head">
                  <strong>{f.label || "New field"}</strong>
                  <span class="mono muted">{f.key}</span>
                  <span class="badge">{TYPE_WORDS[f.type]}</span>
                  {f.required === true ? <span class="badge">Required</span> : null}
                  {f.private === true ? <span class="badge">Private</span> : null}
                  {f.condition ? <span class="badge">Conditional</span> : null}
                  <Button variant="ghost" aria-expanded={openField === f.uid ? "true" : "false"} onClick={() => setOpenField(openField === f.uid ? null : f.uid)}>
                    {openField === f.uid ? "Close" : "Edit"} <span class="visually-hidden">{f.label || "new field"}</span>
                  </Button>
                </div>
                {openField === f.uid ? <FieldEditor field={f} siblings={fields} models={choices} selfModelId={modelId} onChange={(next) => setFields((all) => all.map((x) => (x.uid === f.uid ? next : x)))} /> : null}
              </div>
            )}
          />
          <div class="row">
            <Button
              onClick={() => {
                const uid = newUid();
                setFields((all) => [...all, { uid, key: "", label: "", type: "text" }]);
                setOpenField(uid);
              }}
            >
              Add a field
            </Button>
          </div>
        </section>

        <section class="card stack" aria-labelledby="combinations-heading">
          <h2 id="combinations-heading">Unique combinations</h2>
          <p class="muted">Values of 2 to 4 fields that, taken together, no two entries may share.</p>
          {draft.unique_combinations.map((c, i) => (
            <div class="stack" role="group" aria-label={`Combination ${i + 1}`}>
              <div class="builder-grid">
                <Field label={`Combination ${i + 1} name`}>
                  {({ id }) => <input id={id} type="text" class="mono" value={c.name} onInput={(e) => setModel({ unique_combinations: draft.unique_combinations.map((x, j) => (j === i ? { ...x, name: (e.currentTarget as HTMLInputElement).value } : x)) })} />}
                </Field>
                <Field label={`Combination ${i + 1} scope`}>
                  {({ id }) => (
                    <select id={id} value={c.scope} onChange={(e) => setModel({ unique_combinations: draft.unique_combinations.map((x, j) => (j === i ? { ...x, scope: (e.currentTarget as HTMLSelectElement).value as "model" | "language" } : x)) })}>
                      <option value="model">Among all entries</option>
                      <option value="language">Per language</option>
                    </select>
                  )}
                </Field>
              </div>
              <fieldset class="row">
                <legend>Fields of combination {i + 1}</legend>
                {uniqueable.map((f) => (
                  <label class="row check">
                    <input type="checkbox" checked={c.fields.includes(f.key)} onChange={(e) => setModel({ unique_combinations: draft.unique_combinations.map((x, j) => (j === i ? { ...x, fields: (e.currentTarget as HTMLInputElement).checked ? [...x.fields, f.key] : x.fields.filter((k) => k !== f.key) } : x)) })} />
                    {f.label || f.key}
                  </label>
                ))}
              </fieldset>
              <Button variant="ghost" onClick={() => setModel({ unique_combinations: draft.unique_combinations.filter((_, j) => j !== i) })}>
                Remove combination {i + 1}
              </Button>
            </div>
          ))}
          <div class="row">
            <Button disabled={uniqueable.length < 2} onClick={() => setModel({ unique_combinations: [...draft.unique_combinations, { name: "", fields: [], scope: "model" }] })}>
              Add a unique combination
            </Button>
          </div>
        </section>

        {refusal && !previewing ? (
          <Notice kind="error" title={refusal.title}>
            {refusal.detail ? <p>{refusal.detail}</p> : null}
            {stale ? (
              <Button onClick={() => loaded.reload()}>Reload the model (your edits here are dropped)</Button>
            ) : null}
          </Notice>
        ) : null}
        <div class="row sticky-actions">
          <Button type="submit" variant="primary" busy={action.busy === "plan"}>
            Review and save
          </Button>
        </div>
      </form>
      <ChangesPreview
        open={previewing}
        isNew={!base}
        plan={plan}
        fieldCount={fields.length}
        busy={action.busy}
        canApply={canApply}
        onSave={() => void save()}
        onPropose={() => void propose()}
        onClose={() => setPreviewing(false)}
      />
    </>
  );
}
