import { useEffect, useId, useState } from "preact/hooks";
import { manage } from "../api/client";
import type { Entry } from "../fields/types";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { useAction } from "../ui/use-action";

/** An `<input type="datetime-local">` value an hour from now, in the person's own clock. */
function inAnHour(): string {
  const at = new Date(Date.now() + 60 * 60 * 1000);
  at.setSeconds(0, 0);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/**
 * "Schedule…" (issue #30 item 8; docs/scheduled-publishing.md): a publish or unpublish of this
 * language (or every language) at a time in the person's own clock, sent as UTC to
 * `createSchedule` with the version the person sees pinned (`expected_version_id`), so a later
 * draft is not published unseen. Refusals (`schedule_time_past`, `version_conflict`…) in words.
 */
export function ScheduleDialog(props: { open: boolean; entry: Entry; canPublish: boolean; canUnpublish: boolean; onClose: () => void; onScheduled: (words: string) => void }) {
  const { entry } = props;
  const id = useId();
  const [kind, setKind] = useState<"publish" | "unpublish">(props.canPublish ? "publish" : "unpublish");
  const [when, setWhen] = useState(inAnHour);
  const [languageOnly, setLanguageOnly] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const action = useAction();

  useEffect(() => {
    if (!props.open) return;
    setKind(props.canPublish ? "publish" : "unpublish");
    setWhen(inAnHour());
    setError(null);
  }, [props.open]);

  const schedule = async () => {
    setError(null);
    const at = new Date(when);
    try {
      if (Number.isNaN(at.getTime())) throw new Error("Choose a date and time.");
      const version = kind === "publish" ? entry.current_version_id : entry.published_version_id;
      const answer = await action.run("schedule", (key) =>
        manage("createSchedule", { body: { entry_id: entry.instance_id, action: kind, at: at.toISOString(), language_only: languageOnly, ...(version ? { expected_version_id: version } : {}) }, key }),
      );
      if (answer === undefined) return;
      props.onScheduled(`${kind === "publish" ? "Publishing" : "Unpublishing"} scheduled for ${at.toLocaleString([], { dateStyle: "medium", timeStyle: "short" })}.`);
    } catch (e) {
      setError(e);
    }
  };

  return (
    <ConfirmDialog open={props.open} title="Schedule" confirm="Schedule" busy={action.busy !== null} error={error} onConfirm={() => void schedule()} onClose={props.onClose}>
      <fieldset class="stack">
        <legend>What happens</legend>
        {props.canPublish ? (
          <label class="check">
            <input type="radio" name={`${id}-kind`} checked={kind === "publish"} onChange={() => setKind("publish")} />
            Publish the saved draft
          </label>
        ) : null}
        {props.canUnpublish ? (
          <label class="check">
            <input type="radio" name={`${id}-kind`} checked={kind === "unpublish"} onChange={() => setKind("unpublish")} />
            Unpublish
          </label>
        ) : null}
      </fieldset>
      <div class="field">
        <label for={`${id}-at`}>When (your time)</label>
        <input id={`${id}-at`} type="datetime-local" value={when} onInput={(e) => setWhen(e.currentTarget.value)} />
      </div>
      <label class="check">
        <input type="checkbox" checked={languageOnly} onChange={(e) => setLanguageOnly(e.currentTarget.checked)} />
        Only this language ({entry.lang})
      </label>
    </ConfirmDialog>
  );
}
