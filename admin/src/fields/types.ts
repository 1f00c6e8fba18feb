import type { FunctionComponent } from "preact";
import type { ManageAnswer } from "../api/client";

/** A model as the management API answers it, and one field of its definition. */
export type Model = ManageAnswer<"getModel">;
/** A field definition (schema/model-definition.ts): `key`, `type`, `label`, `required`, … */
export type FieldDefinition = { key: string; type: string; label?: string; required?: boolean; [rule: string]: unknown };
/** An entry language (instance) as the management API answers it. */
export type Entry = ManageAnswer<"getEntry">;

/**
 * What every field input of the entry editor receives (admin/src/fields/registry.ts picks the
 * input by `field.type`). `path` is the field's full path as the service names it in errors
 * (`seo.title`, `faq[1].question`); `errors` are the service's messages for exactly that path.
 */
export interface FieldInputProps {
  site: string;
  lang: string;
  field: FieldDefinition;
  value: unknown;
  onChange: (value: unknown) => void;
  path: string;
  errors: readonly string[];
  /** The person's role may read but not write this field (or the entry is locked to them). */
  readOnly: boolean;
  /** The input's element id and the ids describing it (label, hint, errors), from <Field>. */
  id: string;
  describedBy: string | undefined;
}

export type FieldInput = FunctionComponent<FieldInputProps>;
