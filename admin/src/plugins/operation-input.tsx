import { manage, type ManageAnswer } from "../api/client";
import { Field } from "../ui/controls";

/** An operation as `GET /plugins/operations` lists it, and the blocks of a completed run. */
export type Operation = ManageAnswer<"listPluginOperations">["data"][number];
export type Blocks = ManageAnswer<"invokePluginOperation">["result"]["blocks"];
/** What the person typed or ticked, by property name (numbers are kept as typed until sent). */
export type InputValues = Record<string, string | boolean>;

type Property = { type?: string; minimum?: number; maximum?: number; description?: string; title?: string };

/** The properties of an operation's `input_schema` the form draws (numbers, text and yes/no). */
function properties(op: Operation): Record<string, Property> {
  return ((op.input_schema as { properties?: Record<string, Property> }).properties ?? {}) as Record<string, Property>;
}

function required(op: Operation): readonly string[] {
  const list = (op.input_schema as { required?: unknown }).required;
  return Array.isArray(list) ? list.filter((k): k is string => typeof k === "string") : [];
}

/** The operation's `input` from the form: empty fields left out, numbers as numbers. */
export function operationInput(op: Operation, values: InputValues): Record<string, unknown> {
  const props = properties(op);
  return Object.fromEntries(
    Object.entries(values)
      .filter(([, v]) => v !== "")
      .map(([k, v]) => [k, typeof v === "boolean" ? v : props[k]?.type === "integer" || props[k]?.type === "number" ? Number(v) : v]),
  );
}

/**
 * Runs the operation as the signed-in person (`invokePluginOperation` through the session's
 * management API, docs/plugin-operations.md): the entry's id for an entry operation, the input
 * unless the operation takes none. One key per user action (`key`).
 */
export async function runOperation(op: Operation, values: InputValues, key: string, instanceId?: string): Promise<Blocks> {
  const body = { ...(op.scope === "entry" && instanceId ? { instance_id: instanceId } : {}), ...(op.input === "none" ? {} : { input: operationInput(op, values) }) };
  const answer = await manage("invokePluginOperation", { params: { id: op.plugin_id, operation: op.id }, body, key });
  return answer.result.blocks;
}

/**
 * The operation's input form, from `input_schema`'s properties: numbers with their bounds, text
 * and yes/no; required ones marked. The service checks the input again before calling the plugin
 * (`input_invalid` with issues).
 */
export function OperationInputFields({ op, values, onChange }: { op: Operation; values: InputValues; onChange: (next: InputValues) => void }) {
  const must = required(op);
  return (
    <>
      {Object.entries(properties(op)).map(([key, p]) =>
        p.type === "boolean" ? (
          <label class="row">
            <input type="checkbox" checked={values[key] === true} onChange={(e) => onChange({ ...values, [key]: e.currentTarget.checked })} />
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
                required={must.includes(key)}
                value={String(values[key] ?? "")}
                onInput={(e) => onChange({ ...values, [key]: e.currentTarget.value })}
              />
            )}
          </Field>
        ),
      )}
    </>
  );
}
