import { useEffect, useState } from "preact/hooks";
import { manage } from "../api/client";
import { describeError } from "../api/error-words";
import type { Entry } from "../fields/types";
import { OperationInputFields, runOperation, type Blocks, type InputValues, type Operation } from "../plugins/operation-input";
import { ResultBlocks } from "../plugins/result-blocks";
import { PLUGIN_WORDS } from "../plugins/words";
import { Button, Notice } from "../ui/controls";
import { Dialog } from "../ui/dialog";
import { useAction } from "../ui/use-action";
import "../styles/plugins.css";

/**
 * The editor's "Plugin actions" (issue #26; docs/admin-ui-plugin-actions.md): the entry operations
 * the signed-in person may run on this entry now — `GET /plugins/operations` decides (plugin
 * active, grant covering the operation's capabilities, the entry's model granted and readable, a
 * destructive one needing update), this keeps those whose `model_ids` hold the entry's model.
 * Each opens a dialog: the operation's input form, a warning on a destructive one (its Run button
 * is the confirmation), then the result blocks or the refusal in words. `onRan` re-reads the entry
 * after a completed run and answers words when the run changed it (null otherwise).
 */
export function EntryOperations({ entry, onRan }: { entry: Entry; onRan: () => Promise<string | null> }) {
  const [offered, setOffered] = useState<Operation[] | null>(null);
  const [open, setOpen] = useState<Operation | null>(null);

  useEffect(() => {
    let live = true;
    manage("listPluginOperations").then(
      (answer) => live && setOffered(answer.data.filter((op) => op.scope === "entry" && !op.automation && op.model_ids.includes(entry.model_id))),
      // A list that cannot be read offers nothing; the editor works without it.
      () => live && setOffered([]),
    );
    return () => {
      live = false;
    };
  }, [entry.instance_id, entry.model_id]);

  if (!offered || offered.length === 0) return null;
  const headingId = `side-plugins-${entry.instance_id}`;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>Plugin actions</h2>
      <div class="plugin-actions" role="group" aria-labelledby={headingId}>
        {offered.map((op) => (
          // Named "Summarize (Demo helper)": the visible label first (WCAG 2.5.3), then whose it is.
          <Button aria-haspopup="dialog" variant={op.destructive ? "danger" : undefined} onClick={() => setOpen(op)} aria-label={`${op.label} (${op.plugin_name})`}>
            {op.label}
          </Button>
        ))}
      </div>
      {open ? <OperationDialog key={`${open.installation_id}/${open.id}`} op={open} entry={entry} onRan={onRan} onClose={() => setOpen(null)} /> : null}
    </section>
  );
}

function OperationDialog({ op, entry, onRan, onClose }: { op: Operation; entry: Entry; onRan: () => Promise<string | null>; onClose: () => void }) {
  const action = useAction();
  const [values, setValues] = useState<InputValues>({});
  const [blocks, setBlocks] = useState<Blocks | null>(null);
  const [changed, setChanged] = useState<string | null>(null);
  const busy = action.busy !== null;
  const name = `${op.label} (${op.plugin_name})`;
  const refusal = action.error ? describeError(action.error, PLUGIN_WORDS) : null;
  const issues = (action.error as { details?: { issues?: { path: string; message: string }[] } } | null)?.details?.issues ?? [];
  const pluginSays = (action.error as { details?: { refusal?: { code: string; message: string } } } | null)?.details?.refusal;

  const run = async (event: Event) => {
    event.preventDefault();
    setBlocks(null);
    setChanged(null);
    const outcome = await action.attempt(`run ${op.id}`, (key) => runOperation(op, values, key, entry.instance_id));
    if (!outcome?.ok) return;
    setBlocks(outcome.value);
    // The plugin acts through its own door (as the person, within its grant): whether it changed
    // the entry shows in the entry's version and workflow revision, read again here.
    setChanged(await onRan().catch(() => null));
  };

  return (
    <Dialog open title={name} onClose={onClose} busy={busy} dismiss="Close" class="plugin-operation-dialog">
      <form class="plugin-operation-form" onSubmit={run} aria-label={`Run ${name}`} noValidate>
        <p class="muted">{`Runs on this entry (${entry.label ?? entry.slug ?? entry.instance_id}, ${entry.lang}) as you, within what ${op.plugin_name} is granted.`}</p>
        {op.destructive ? (
          <Notice kind="warning" title="This changes or removes content.">
            <p>{`${op.plugin_name} may change this entry, its publication or other content when it runs ${op.label}. Run it only if you mean to.`}</p>
          </Notice>
        ) : null}
        <OperationInputFields op={op} values={values} onChange={setValues} />
        {refusal ? (
          <Notice kind="error" title={refusal.title}>
            {pluginSays ? <p>{`${op.plugin_name}: ${pluginSays.message}`}</p> : refusal.detail ? <p class="muted">{refusal.detail}</p> : null}
            {issues.length ? (
              <ul>
                {issues.map((i) => (
                  <li>{`${i.path || "input"}: ${i.message}`}</li>
                ))}
              </ul>
            ) : null}
          </Notice>
        ) : null}
        {blocks ? (
          <Notice kind="success" title={`${op.label} ran.`}>
            {changed ? <p>{changed}</p> : null}
          </Notice>
        ) : null}
        {blocks ? <ResultBlocks blocks={blocks} label={`Result of ${op.label}`} /> : null}
        <div class="row dialog-actions">
          {/* The form is checked by the service (input_invalid, in words with its issues), not by the browser. */}
          <Button type="submit" variant={op.destructive ? "danger" : "primary"} busy={busy} data-autofocus={op.destructive ? undefined : true}>
            {`Run ${op.label}`}
          </Button>
          <Button onClick={onClose} disabled={busy} data-autofocus={op.destructive ? true : undefined}>
            {blocks ? "Done" : "Cancel"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
