import { isShown } from "../../../shared/content/conditions";
import type { FieldDefinition as SchemaField } from "../../../schema/model-definition";
import { FIELD_INPUTS } from "../fields/registry";
import { ReadOnlyValue } from "../fields/read-only-value";
import { lengthHint, validationOf } from "../fields/field-rules";
import type { FieldDefinition } from "../fields/types";
import { Button, Field } from "../ui/controls";
import type { Issues } from "./form-state";

/**
 * The entry editor's form, generated from a model definition's fields (or a component's): one
 * labelled input per shown field, the service's messages under it by full path (`seo.title`,
 * `faq[1].question`), conditional fields shown and hidden by the service's own rule
 * (`isShown` of shared/content/conditions.ts, imported, never re-written), read-only fields marked
 * in words. A hidden field keeps its value (the service keeps it too).
 */
export interface FormFieldsProps {
  site: string;
  lang: string;
  fields: readonly FieldDefinition[];
  values: Readonly<Record<string, unknown>>;
  onChange: (key: string, value: unknown) => void;
  /** Path of these fields' parent ("" at the top, `seo`, `faq[1]`). */
  prefix: string;
  issues: Issues;
  /** Whether a top-level field is read-only (role, lease, Trash); nested fields follow their component. */
  readOnly: (field: FieldDefinition) => boolean;
}

const join = (prefix: string, key: string) => (prefix ? `${prefix}.${key}` : key);

export function FormFields(props: FormFieldsProps) {
  const schemaFields = props.fields as unknown as readonly SchemaField[];
  return (
    <>
      {props.fields.map((field, index) => {
        if (!isShown(schemaFields[index] as SchemaField, schemaFields, props.values)) return null;
        return <FormField key={field.key} {...props} field={field} />;
      })}
    </>
  );
}

function FormField(props: FormFieldsProps & { field: FieldDefinition }) {
  const { field } = props;
  const path = join(props.prefix, field.key);
  const readOnly = props.readOnly(field);
  const value = props.values[field.key];
  const own = props.issues.get(path) ?? [];
  if (field.type === "component") return <ComponentField {...props} path={path} locked={readOnly} value={value} errors={own} />;
  // A value's parts (`where.lat`, `categories[2]`) have no input of their own: their messages show here.
  const errors = [...own, ...[...props.issues].filter(([p]) => p.startsWith(`${path}.`) || p.startsWith(`${path}[`)).flatMap(([, m]) => m)];
  const Input = FIELD_INPUTS[field.type] ?? ReadOnlyValue;
  const group = field.type === "location" || (field.type === "select" && field.multiple === true);
  const hint = [typeof field.help === "string" ? field.help : "", field.type === "datetime" ? "Date and time in UTC." : "", lengthHint(field) ?? ""].filter(Boolean).join(" ");
  return (
    <Field label={<FieldLabel field={field} readOnly={readOnly} />} hint={hint || undefined} errors={errors} labelFor={!group}>
      {({ id, describedBy }) => (
        <Input site={props.site} lang={props.lang} field={field} value={value} onChange={(next) => props.onChange(field.key, next)} path={path} errors={errors} readOnly={readOnly} id={id} describedBy={describedBy} />
      )}
    </Field>
  );
}

/** A field's label with its marks in words: required, read-only. */
export function FieldLabel({ field, readOnly }: { field: FieldDefinition; readOnly: boolean }) {
  return (
    <>
      {field.label ?? field.key}
      {field.required ? <span class="mark"> (required)</span> : null}
      {readOnly ? <span class="mark mark-read-only"> (read-only)</span> : null}
    </>
  );
}

type ComponentProps = FormFieldsProps & { field: FieldDefinition; path: string; locked: boolean; value: unknown; errors: readonly string[] };

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

/**
 * A component field: its own fields in a fieldset; a repeatable one as a list of items, each with
 * move up / move down / remove (keyboard-reachable buttons, no drag needed) and "Add".
 */
function ComponentField(props: ComponentProps) {
  const { field, path, errors } = props;
  const readOnly = props.locked;
  const nested = (Array.isArray(field.fields) ? field.fields : []) as FieldDefinition[];
  const label = field.label ?? field.key;
  const nestedProps = (prefix: string, values: Record<string, unknown>, set: (next: Record<string, unknown>) => void): FormFieldsProps => ({
    site: props.site,
    lang: props.lang,
    fields: nested,
    values,
    prefix,
    issues: props.issues,
    readOnly: () => readOnly,
    onChange: (key, next) => {
      const copy = { ...values };
      if (next === null || next === undefined) delete copy[key];
      else copy[key] = next;
      set(copy);
    },
  });
  const errorId = errors.length ? `${path}-error` : undefined;
  const help = typeof field.help === "string" ? field.help : undefined;
  const legend = (
    <legend>
      <FieldLabel field={field} readOnly={readOnly} />
    </legend>
  );
  if (field.multiple !== true) {
    const values = isRecord(props.value) ? props.value : {};
    return (
      <fieldset class="component" aria-describedby={errorId}>
        {legend}
        {help ? <p class="hint">{help}</p> : null}
        {errors.length ? <p class="error" id={errorId} role="alert">{errors.join(" ")}</p> : null}
        <FormFields {...nestedProps(path, values, (next) => props.onChange(field.key, Object.keys(next).length ? next : null))} />
      </fieldset>
    );
  }
  const items = Array.isArray(props.value) ? (props.value as unknown[]) : [];
  const max = validationOf(field).max_items;
  const setItems = (next: unknown[]) => props.onChange(field.key, next.length ? next : null);
  const move = (from: number, to: number) => {
    const next = [...items];
    const [item] = next.splice(from, 1);
    next.splice(to, 0, item);
    setItems(next);
  };
  return (
    <fieldset class="component component-list" aria-describedby={errorId}>
      {legend}
      {help ? <p class="hint">{help}</p> : null}
      {errors.length ? <p class="error" id={errorId} role="alert">{errors.join(" ")}</p> : null}
      {items.length === 0 ? <p class="muted">No items yet.</p> : null}
      <ol class="component-items">
        {items.map((item, index) => {
          const itemPath = `${path}[${index}]`;
          const values = isRecord(item) ? item : {};
          const itemErrors = props.issues.get(itemPath) ?? [];
          const name = `${label} item ${index + 1}`;
          return (
            <li class="component-item" aria-label={name}>
              <div class="row component-item-bar">
                <strong>{name}</strong>
                <span class="spacer" />
                {readOnly ? null : (
                  <>
                    <Button class="button-ghost" disabled={index === 0} aria-label={`Move ${name} up`} onClick={() => move(index, index - 1)}>
                      ↑ Up
                    </Button>
                    <Button class="button-ghost" disabled={index === items.length - 1} aria-label={`Move ${name} down`} onClick={() => move(index, index + 1)}>
                      ↓ Down
                    </Button>
                    <Button variant="danger" aria-label={`Remove ${name}`} onClick={() => setItems(items.filter((_, i) => i !== index))}>
                      Remove
                    </Button>
                  </>
                )}
              </div>
              {itemErrors.length ? <p class="error" role="alert">{itemErrors.join(" ")}</p> : null}
              <FormFields {...nestedProps(itemPath, values, (next) => setItems(items.map((it, i) => (i === index ? next : it))))} />
            </li>
          );
        })}
      </ol>
      {readOnly ? null : (
        <Button disabled={max !== undefined && items.length >= max} onClick={() => setItems([...items, {}])}>
          Add {label} item
        </Button>
      )}
    </fieldset>
  );
}
