import { useEffect, useState } from "preact/hooks";
import { manage } from "../api/client";
import { describeError } from "../api/error-words";
import type { Entry, FieldDefinition, Model } from "../fields/types";
import type { ScreenProps } from "../screens/types";
import { Field, Loading, Notice, PageHeader } from "../ui/controls";
import { EntryActions } from "./entry-actions";
import { useLease } from "./use-lease";

/**
 * TEMPORARY stand-in for the entry editor (screens/entry-editor.tsx is built in parallel, issue #15
 * item 4): the text and long-text fields of an entry as plain inputs, wired to the lease and the
 * lifecycle bar exactly as the editor is to be — `useLease(site, entryId, lang)` and
 * `<EntryActions site entry values dirty lease onEntry onIssues onRestore />` — so the lifecycle
 * can be used and tested in a browser before the real form lands. The real editor replaces it.
 */
const EDITABLE = new Set(["text", "long_text"]);

export default function LifecycleHarness({ site, params }: ScreenProps) {
  const entryId = params.entry ?? "";
  const [entry, setEntry] = useState<Entry | null>(null);
  const [model, setModel] = useState<Model | null>(null);
  const [values, setValues] = useState<Record<string, unknown>>({});
  const [issues, setIssues] = useState<Map<string, string[]>>(new Map());
  const [failure, setFailure] = useState<unknown>(null);
  const lease = useLease(site, entryId, entry?.lang ?? "");

  useEffect(() => {
    manage("getEntry", { params: { id: entryId } })
      .then(async (found) => {
        setModel(await manage("getModel", { params: { id: found.model_id } }));
        adopt(found);
      })
      .catch(setFailure);
  }, [entryId]);

  const fields: FieldDefinition[] = ((model?.definition.fields ?? []) as FieldDefinition[]).filter((f) => EDITABLE.has(f.type));
  function adopt(next: Entry) {
    setEntry(next);
    setValues(Object.fromEntries(Object.entries(next.fields).filter(([key]) => typeof next.fields[key] === "string" || next.fields[key] === null)));
  }
  const editable = fields.map((f) => f.key);
  const sent = Object.fromEntries(editable.map((k) => [k, values[k] ?? null]));
  const dirty = entry !== null && editable.some((k) => (values[k] ?? null) !== (entry.fields[k] ?? null));

  if (failure) {
    const words = describeError(failure);
    return <Notice kind="error" title={words.title}>{words.detail}</Notice>;
  }
  if (!entry || !model) return <Loading />;
  const readOnly = lease.status !== "held";
  return (
    <>
      <PageHeader title={entry.label ?? entry.instance_id} />
      <EntryActions
        site={site}
        entry={entry}
        values={sent}
        dirty={dirty}
        lease={lease}
        onEntry={adopt}
        onIssues={setIssues}
        onRestore={(restored) => setValues({ ...values, ...restored })}
        fieldLabels={Object.fromEntries(fields.map((f) => [f.key, f.label ?? f.key]))}
      />
      <form class="stack card" onSubmit={(event) => event.preventDefault()} aria-label="Entry fields">
        {fields.map((f) => (
          <Field label={f.label ?? f.key} errors={issues.get(f.key)}>
            {({ id, describedBy, invalid }) =>
              f.type === "long_text" ? (
                <textarea id={id} aria-describedby={describedBy} aria-invalid={invalid ? "true" : undefined} readOnly={readOnly} value={String(values[f.key] ?? "")} onInput={(e) => setValues({ ...values, [f.key]: (e.currentTarget as HTMLTextAreaElement).value })} />
              ) : (
                <input type="text" id={id} aria-describedby={describedBy} aria-invalid={invalid ? "true" : undefined} readOnly={readOnly} value={String(values[f.key] ?? "")} onInput={(e) => setValues({ ...values, [f.key]: (e.currentTarget as HTMLInputElement).value })} />
              )
            }
          </Field>
        ))}
      </form>
    </>
  );
}
