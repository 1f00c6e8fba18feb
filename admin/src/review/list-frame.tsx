import type { ComponentChildren } from "preact";
import { describeError } from "../api/error-words";
import { Field, Loading, Notice } from "../ui/controls";

/**
 * The frame of a proposal list (entry-proposal-list.tsx, model-proposal-list.tsx): the heading
 * with the "Show" filter of states, the refusal in words, the empty-list sentence (a status), the
 * table with its hidden caption and column headings (the last one, "Actions", hidden), the
 * loading sign and what follows (e.g. "Show more").
 */
export function ProposalListFrame(props: {
  id: string;
  heading: string;
  states: readonly { value: string; label: string }[];
  state: string;
  onState: (state: string) => void;
  error: unknown;
  /** The sentence for an empty answer, or null while there is none (or rows). */
  empty: string | null;
  caption: string;
  columns: readonly string[];
  loading: string | null;
  rows: ComponentChildren[];
  children?: ComponentChildren;
}) {
  const failure = props.error ? describeError(props.error) : null;
  return (
    <section aria-labelledby={props.id} class="stack">
      <div class="row review-toolbar">
        <h2 id={props.id}>{props.heading}</h2>
        <Field label="Show">
          {({ id }) => (
            <select id={id} value={props.state} onChange={(e) => props.onState((e.currentTarget as HTMLSelectElement).value)}>
              {props.states.map((s) => (
                <option value={s.value}>{s.label}</option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {failure ? (
        <Notice kind="error" title={failure.title}>
          {failure.detail ? <p>{failure.detail}</p> : null}
        </Notice>
      ) : null}
      {props.empty !== null && !failure ? (
        <p class="muted" role="status">
          {props.empty}
        </p>
      ) : null}
      {props.rows.length > 0 ? (
        <table class="list responsive review-list">
          <caption class="visually-hidden">{props.caption}</caption>
          <thead>
            <tr>
              {props.columns.map((c) => (
                <th scope="col">{c}</th>
              ))}
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>{props.rows}</tbody>
        </table>
      ) : null}
      {props.loading !== null ? <Loading label={props.loading} /> : null}
      {props.children}
    </section>
  );
}
