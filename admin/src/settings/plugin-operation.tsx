import { useState } from "preact/hooks";
import { newActionKey } from "../api/client";
import { OperationInputFields, runOperation, type Blocks, type InputValues, type Operation } from "../plugins/operation-input";
import { ResultBlocks } from "../plugins/result-blocks";
import { Button, Field } from "../ui/controls";
import "../styles/plugins.css";

/**
 * One operation with its input form (admin/src/plugins/operation-input.tsx, shared with the entry
 * editor's plugin actions) and the answer's result blocks. An entry operation asks for the entry's
 * id here (the editor runs it on the open entry); a destructive one says so on its button.
 */
export function OperationCard({ op, onStart, onDone, onFailed }: { op: Operation; onStart: () => void; onDone: (title: string) => void; onFailed: (e: unknown) => void }) {
  const [values, setValues] = useState<InputValues>({});
  const [entry, setEntry] = useState("");
  const [busy, setBusy] = useState(false);
  const [blocks, setBlocks] = useState<Blocks | null>(null);
  const name = `${op.label} (${op.plugin_name})`;

  const run = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    // A run again after a refusal: the old refusal leaves the live region at once.
    onStart();
    try {
      setBlocks(await runOperation(op, values, newActionKey(), entry.trim()));
      onDone(`${name} ran.`);
    } catch (error) {
      setBlocks(null);
      onFailed(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="settings-item settings-operation" onSubmit={run} aria-label={name}>
      <div>
        <strong>{op.label}</strong> <span class="muted">{`· ${op.plugin_name} · ${op.scope === "entry" ? "on one entry" : "on the site"}${op.destructive ? " · changes or removes content" : ""}`}</span>
      </div>
      {op.scope === "entry" ? (
        <Field label={`Entry id for ${op.label}`} hint="The entry's id, as in its address (…/entries/<id>). The entry editor offers it under Plugin actions too.">
          {(f) => <input id={f.id} required aria-describedby={f.describedBy} value={entry} onInput={(e) => setEntry(e.currentTarget.value)} />}
        </Field>
      ) : null}
      <OperationInputFields op={op} values={values} onChange={setValues} />
      <Button type="submit" variant={op.destructive ? "danger" : undefined} busy={busy} aria-label={`Run ${name}`}>
        Run
      </Button>
      {blocks ? <ResultBlocks blocks={blocks} label={`Result of ${op.label}`} /> : null}
    </form>
  );
}
