import { useState } from "preact/hooks";
import { manage, newActionKey, type ManageAnswer } from "../api/client";
import { Button, Field } from "../ui/controls";
import { ResultBlocks } from "./result-blocks";

type Operation = ManageAnswer<"listPluginOperations">["data"][number];
type Blocks = ManageAnswer<"invokePluginOperation">["result"]["blocks"];
type Property = { type?: string; minimum?: number; maximum?: number; description?: string; title?: string };

/**
 * One operation with its input form (from `input_schema`'s properties: numbers, text and yes/no;
 * the service checks the input again before calling the plugin) and the answer's result blocks.
 * An entry operation asks for the entry's id; a destructive one says so on its button.
 */
export function OperationCard({ op, onStart, onDone, onFailed }: { op: Operation; onStart: () => void; onDone: (title: string) => void; onFailed: (e: unknown) => void }) {
  const properties = ((op.input_schema as { properties?: Record<string, Property> }).properties ?? {}) as Record<string, Property>;
  const [values, setValues] = useState<Record<string, string | boolean>>({});
  const [entry, setEntry] = useState("");
  const [busy, setBusy] = useState(false);
  const [blocks, setBlocks] = useState<Blocks | null>(null);
  const name = `${op.label} (${op.plugin_name})`;

  const input = () =>
    Object.fromEntries(
      Object.entries(values)
        .filter(([, v]) => v !== "")
        .map(([k, v]) => [k, typeof v === "boolean" ? v : properties[k]?.type === "integer" || properties[k]?.type === "number" ? Number(v) : v]),
    );

  const run = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    // A run again after a refusal: the old refusal leaves the live region at once.
    onStart();
    try {
      const body = { ...(op.scope === "entry" ? { instance_id: entry.trim() } : {}), ...(op.input === "none" ? {} : { input: input() }) };
      const answer = await manage("invokePluginOperation", { params: { id: op.plugin_id, operation: op.id }, body, key: newActionKey() });
      setBlocks(answer.result.blocks);
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
        <Field label={`Entry id for ${op.label}`} hint="The entry's id, as in its address (…/entries/<id>).">
          {(f) => <input id={f.id} required aria-describedby={f.describedBy} value={entry} onInput={(e) => setEntry(e.currentTarget.value)} />}
        </Field>
      ) : null}
      {Object.entries(properties).map(([key, p]) =>
        p.type === "boolean" ? (
          <label class="row">
            <input type="checkbox" checked={values[key] === true} onChange={(e) => setValues({ ...values, [key]: e.currentTarget.checked })} />
            {p.title ?? key}
          </label>
        ) : (
          <Field label={p.title ?? key.replace(/_/g, " ")} hint={[p.description, p.minimum !== undefined && p.maximum !== undefined ? `${p.minimum} to ${p.maximum}` : null].filter(Boolean).join(" · ") || undefined}>
            {(f) => (
              <input
                id={f.id}
                aria-describedby={f.describedBy}
                type={p.type === "integer" || p.type === "number" ? "number" : "text"}
                min={p.minimum}
                max={p.maximum}
                value={String(values[key] ?? "")}
                onInput={(e) => setValues({ ...values, [key]: e.currentTarget.value })}
              />
            )}
          </Field>
        ),
      )}
      <Button type="submit" variant={op.destructive ? "danger" : undefined} busy={busy} aria-label={`Run ${name}`}>
        Run
      </Button>
      {blocks ? <ResultBlocks blocks={blocks} label={`Result of ${op.label}`} /> : null}
    </form>
  );
}
