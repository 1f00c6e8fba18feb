import { useEffect, useState } from "preact/hooks";
import { manage, type ManageAnswer } from "../api/client";
import { describeError } from "../api/error-words";
import type { Entry } from "../fields/types";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { Loading, Notice } from "../ui/controls";
import { useAction } from "../ui/use-action";

type Assignees = ManageAnswer<"listEntryAssignees">;

/**
 * Who acts next on an entry (workflow assignment): the people the service lists as eligible, the
 * assigned ones ticked; saving sends the whole list with the workflow revision it was read at.
 */
export function AssignDialog(props: { open: boolean; entry: Entry; headers?: Record<string, string>; onClose: () => void; onAssigned: () => void }) {
  const [list, setList] = useState<Assignees | null>(null);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [error, setError] = useState<unknown>(null);
  const action = useAction();

  useEffect(() => {
    if (!props.open) return;
    setList(null);
    setError(null);
    manage("listEntryAssignees", { params: { id: props.entry.instance_id } })
      .then((answer) => {
        setList(answer);
        setChosen(new Set(answer.assigned.map((p) => p.id)));
      })
      .catch(setError);
  }, [props.open, props.entry.instance_id]);

  const save = async () => {
    setError(null);
    try {
      await action.run("assign", (key) =>
        manage("assignEntry", { params: { id: props.entry.instance_id }, body: { assignee_ids: [...chosen], expected_workflow_revision: props.entry.workflow.revision }, key, headers: props.headers }),
      );
      props.onAssigned();
    } catch (e) {
      setError(e);
    }
  };

  const words = error ? describeError(error) : null;
  return (
    <ConfirmDialog open={props.open} title="Assign" confirm="Save assignment" busy={action.busy !== null} onConfirm={() => void save()} onClose={props.onClose}>
      {words ? <Notice kind="error" title={words.title}>{words.detail ? <p>{words.detail}</p> : null}</Notice> : null}
      {list === null && !error ? <Loading label="Loading people…" /> : null}
      {list ? (
        list.eligible.length === 0 ? (
          <p class="muted">Nobody can be assigned to this entry.</p>
        ) : (
          <fieldset class="assignees">
            <legend>People who act next</legend>
            {list.eligible.map((person) => (
              <label class="check">
                <input
                  type="checkbox"
                  checked={chosen.has(person.id)}
                  onChange={(event) => {
                    const next = new Set(chosen);
                    if ((event.currentTarget as HTMLInputElement).checked) next.add(person.id);
                    else next.delete(person.id);
                    setChosen(next);
                  }}
                />
                {person.name} <span class="muted">({person.role})</span>
              </label>
            ))}
          </fieldset>
        )
      ) : null}
    </ConfirmDialog>
  );
}
