/**
 * TEST-ONLY page (not part of the admin build: nothing in admin/src imports it). The browser test
 * test/e2e/admin-ui-fields.test.mjs bundles it with esbuild and serves it on the admin origin
 * (under the page's real CSP) to drive the rich text, relation and media inputs against the real
 * API until the entry editor screen renders them: it shows an entry's fields of those types
 * through FIELD_INPUTS and saves the changed values with `saveEntry` (one Idempotency-Key per
 * click), then shows the answer's warnings.
 */
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { manage, newActionKey, type ManageAnswer } from "../api/client";
import { describeError, fieldIssues } from "../api/error-words";
import { FIELD_INPUTS } from "../fields/registry";
import type { FieldDefinition } from "../fields/types";
import { chooseSite, loadSession } from "../state/session";
import { Button, Field, Loading, Notice } from "../ui/controls";
import "../styles/tokens.css";
import "../styles/base.css";

type Entry = ManageAnswer<"getEntry">;

function Harness({ site, entryId }: { site: string; entryId: string }) {
  const [entry, setEntry] = useState<Entry | null>(null);
  const [fields, setFields] = useState<FieldDefinition[]>([]);
  const [changes, setChanges] = useState<Record<string, unknown>>({});
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ kind: "success" | "error" | "warning"; title: string; detail?: string } | null>(null);
  const [issues, setIssues] = useState<Map<string, string[]>>(new Map());
  const [key, setKey] = useState<string | null>(null);

  useEffect(() => {
    void (async () => {
      const read = await manage("getEntry", { params: { id: entryId } });
      const model = await manage("getModel", { params: { id: read.model_id } });
      setFields((model.definition as unknown as { fields: FieldDefinition[] }).fields.filter((f) => FIELD_INPUTS[f.type]));
      setEntry(read);
    })();
  }, []);

  if (!entry) return <Loading />;
  const save = async () => {
    const actionKey = key ?? newActionKey();
    setKey(actionKey);
    setBusy(true);
    try {
      const saved = await manage("saveEntry", { params: { id: entry.instance_id }, body: { expected_version_id: entry.current_version_id ?? "", fields: changes as never }, key: actionKey });
      setEntry(saved);
      setChanges({});
      setKey(null);
      setIssues(new Map());
      const dropped = saved.warnings?.flatMap((w) => w.dropped) ?? [];
      setResult(dropped.length ? { kind: "warning", title: "Saved, but markup was dropped.", detail: dropped.join(", ") } : { kind: "success", title: "Saved." });
    } catch (error) {
      setKey(null);
      setIssues(fieldIssues(error));
      const words = describeError(error);
      setResult({ kind: "error", title: words.title, ...(words.detail ? { detail: words.detail } : {}) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="page stack">
      <h1>{entry.label ?? entry.instance_id}</h1>
      {fields.map((field) => {
        const Input = FIELD_INPUTS[field.type];
        if (!Input) return null;
        const value = field.key in changes ? changes[field.key] : entry.fields[field.key];
        return (
          <Field label={field.label ?? field.key} errors={issues.get(field.key)}>
            {({ id, describedBy }) => (
              <Input site={site} lang={entry.lang} field={field} value={value} path={field.key} errors={issues.get(field.key) ?? []} readOnly={false} id={id} describedBy={describedBy} onChange={(next) => setChanges((c) => ({ ...c, [field.key]: next }))} />
            )}
          </Field>
        );
      })}
      <div class="row">
        <Button variant="primary" busy={busy} onClick={() => void save()}>
          Save draft
        </Button>
      </div>
      <div aria-live="polite">{result ? <Notice kind={result.kind} title={result.title}>{result.detail}</Notice> : null}</div>
    </main>
  );
}

const params = new URLSearchParams(window.location.search);
const site = params.get("site") ?? "";
void loadSession().then(() => {
  chooseSite(site);
  const root = document.getElementById("app");
  if (root) render(<Harness site={site} entryId={params.get("entry") ?? ""} />, root);
});
