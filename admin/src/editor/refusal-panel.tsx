import { ApiError } from "../api/client";
import { describeError, fieldIssues } from "../api/error-words";
import { paths } from "../router";
import { Button, Link, Notice } from "../ui/controls";

/** One entry linking to the one being changed (listEntryDependents, or a refusal's details). */
export interface Dependent {
  instance_id: string;
  lang?: string;
  label?: string | null;
  published?: boolean;
}

/**
 * A refusal of a save or a transition in words (issue #15: "the service's refusals shown in
 * words"): the sentence from error-words.ts, the service's message, the fields named by a
 * `field_validation_failed`, the entries named by a `dependent_content`, and the way out the code
 * calls for (Reload after a conflict, Try again after a failure without an answer).
 */
export function RefusalPanel(props: { site: string; error: unknown; dependents?: readonly Dependent[]; fieldLabels?: Record<string, string>; onReload?: () => void; onRetry?: () => void; reloading?: boolean }) {
  const words = describeError(props.error);
  const code = props.error instanceof ApiError ? props.error.code : null;
  const issues = [...fieldIssues(props.error)];
  const conflict = code === "version_conflict" || code === "workflow_conflict" || code === "write_conflict";
  return (
    <div class="refusal-panel">
      <Notice kind="error" title={words.title}>
        {words.detail ? <p>{words.detail}</p> : null}
        {issues.length > 0 ? (
          <ul class="issue-list">
            {issues.map(([path, messages]) => (
              <li>
                <strong class="issue-path">{props.fieldLabels?.[path.split(/[.[]/)[0] ?? path] ?? path}</strong>: {messages.join(" ")}
              </li>
            ))}
          </ul>
        ) : null}
        {props.dependents && props.dependents.length > 0 ? (
          <>
            <p>These entries link to it:</p>
            <ul>
              {props.dependents.map((d) => (
                <li>
                  <Link href={paths.entry(props.site, d.instance_id, d.lang)}>{d.label ?? d.instance_id}</Link>
                  {d.lang ? ` (${d.lang})` : ""}
                </li>
              ))}
            </ul>
          </>
        ) : null}
        <div class="row">
          {conflict && props.onReload ? (
            <Button onClick={props.onReload} busy={props.reloading}>
              Reload
            </Button>
          ) : null}
          {!(props.error instanceof ApiError) && props.onRetry ? <Button onClick={props.onRetry}>Try again</Button> : null}
        </div>
      </Notice>
    </div>
  );
}
