import type { ManageAnswer } from "../api/client";
import { Dialog } from "../ui/dialog";
import { Button, Notice } from "../ui/controls";

export type DefinitionPlan = ManageAnswer<"planModelDefinition">;

/** Kinds of blocked changes in words (the service's `kind`; its message and suggestion follow). */
const KIND_WORDS: Record<string, string> = {
  field_removed_with_values: "Removing a field that holds values",
  type_changed: "Changing the type of a field that holds values",
  required_added: "Making a field required",
  option_removed: "Removing choices in use",
  i18n_disabled: "Turning translation off",
  validation_tightened: "Tighter validation than entries meet",
  unique_conflict: "Unique values where entries repeat one",
  unique_combination_conflict: "A unique combination entries repeat",
  relation_target_model_removed: "Removing a linked model in use",
  relation_kind_changed: "Changing the relation kind",
  relation_target_shared: "One-to-… kind over shared links",
  relation_hierarchy_cycle: "A hierarchy over looping links",
};

const list = (keys: readonly string[]) => keys.map((k) => `“${k}”`).join(", ");

/**
 * What saving would do, shown before anything is written (docs/admin-ui-models.md): the plan's
 * field summary, then each change the content blocks with how many entries it touches and what to
 * do first. Saving is offered only when nothing blocks; "Propose instead" records the definition
 * as a model proposal for review (blocked changes stay listed on the proposal).
 */
export function ChangesPreview({ open, isNew, plan, fieldCount, busy, canApply, onSave, onPropose, onClose }: {
  open: boolean;
  isNew: boolean;
  plan: DefinitionPlan | null;
  fieldCount: number;
  busy: string | null;
  canApply: boolean;
  onSave: () => void;
  onPropose: () => void;
  onClose: () => void;
}) {
  const blocked = plan?.changes ?? [];
  const f = plan?.fields;
  const nothing = f && f.added.length + f.removed.length + f.changed.length + f.renamed.length === 0;
  return (
    <Dialog open={open} title="Changes before saving" onClose={onClose} busy={busy !== null} dismiss="Close">
      <div class="stack">
        {isNew ? (
          <p>A new model with {fieldCount === 1 ? "one field" : `${fieldCount} fields`}. Nothing holds content yet, so nothing blocks it.</p>
        ) : f ? (
          <ul class="plan-summary">
            {f.added.length ? <li>Adds {list(f.added)}.</li> : null}
            {f.removed.length ? <li>Removes {list(f.removed)}.</li> : null}
            {f.renamed.map((r) => (
              <li>
                Renames “{r.from}” to “{r.to}”; stored values follow.
              </li>
            ))}
            {f.changed.length ? <li>Changes the settings of {list(f.changed)}.</li> : null}
            {nothing ? <li>No field changes; only the model's own settings or the field order.</li> : null}
          </ul>
        ) : null}
        {blocked.length > 0 ? (
          <section aria-labelledby="blocked-heading" class="stack">
            <h3 id="blocked-heading">Blocked by existing content</h3>
            <ul class="blocked-list">
              {blocked.map((c) => (
                <li class="card">
                  <strong>
                    {KIND_WORDS[c.kind] ?? c.kind}
                    {c.field ? ` — “${c.field}”` : ""}
                  </strong>
                  <p>
                    {c.message} Affected: {c.affected_count} {c.affected_count === 1 ? "entry" : "entries"}.
                  </p>
                  <p>
                    <span class="muted">What to do: </span>
                    {c.suggestion}
                  </p>
                </li>
              ))}
            </ul>
            <Notice kind="warning" title="Nothing can be saved while a change is blocked.">
              Do what each suggestion says first, or change the model back — or propose the change for later review.
            </Notice>
          </section>
        ) : null}
        {!canApply ? <Notice kind="info" title="Your role may not change models, so you can only propose this change." /> : null}
        <div class="row dialog-actions">
          {canApply ? (
            <Button variant="primary" busy={busy === "save"} disabled={blocked.length > 0} onClick={onSave}>
              {isNew ? "Create the model" : "Save the model"}
            </Button>
          ) : null}
          <Button variant={canApply && blocked.length === 0 ? undefined : "primary"} busy={busy === "propose"} onClick={onPropose}>
            Propose instead
          </Button>
          <Button variant="ghost" onClick={onClose}>
            Back to editing
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
