import type { ComponentChildren, JSX } from "preact";
import { useId } from "preact/hooks";
import { navigate } from "../router";
import { STATE_NAMES } from "./state-names";

/**
 * The admin's small component set (docs/admin-ui.md, "Design system"): every control labelled,
 * errors tied to their input with aria-describedby, states in words as well as colour.
 */

type ButtonProps = JSX.HTMLAttributes<HTMLButtonElement> & { variant?: "primary" | "danger" | "ghost"; busy?: boolean; disabled?: boolean; type?: "button" | "submit" };

export function Button({ variant, busy, children, class: cls, type = "button", disabled, ...rest }: ButtonProps) {
  return (
    <button {...rest} type={type} disabled={disabled || busy} aria-busy={busy ? "true" : undefined} class={[variant ? `button-${variant}` : "", cls ?? ""].join(" ").trim() || undefined}>
      {children}
    </button>
  );
}

/** An in-app link: a real <a href> (open in a new tab works) that navigates without a reload. */
export function Link({ href, children, ...rest }: JSX.HTMLAttributes<HTMLAnchorElement> & { href: string }) {
  return (
    <a
      {...rest}
      href={href}
      onClick={(event) => {
        if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(href);
      }}
    >
      {children}
    </a>
  );
}

/**
 * A labelled field: `children` receives the input's id and the ids describing it (hint, errors),
 * so every input is labelled and its messages are read with it.
 */
export function Field(props: { label: ComponentChildren; hint?: ComponentChildren; errors?: readonly string[]; children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ComponentChildren; labelFor?: boolean }) {
  const id = useId();
  const hintId = props.hint ? `${id}-hint` : undefined;
  const errorId = props.errors?.length ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div class="field">
      {props.labelFor === false ? <span class="label" id={`${id}-label`}>{props.label}</span> : <label for={id}>{props.label}</label>}
      {props.children({ id, describedBy, invalid: Boolean(errorId) })}
      {props.hint ? (
        <div class="hint" id={hintId}>
          {props.hint}
        </div>
      ) : null}
      {errorId ? (
        <div class="error" id={errorId} role="alert">
          {props.errors?.join(" ")}
        </div>
      ) : null}
    </div>
  );
}

/** A message box: errors are alerts (read out at once), others status messages. */
export function Notice({ kind = "info", title, children }: { kind?: "info" | "error" | "success" | "warning"; title?: ComponentChildren; children?: ComponentChildren }) {
  return (
    <div class={`notice notice-${kind}`} role={kind === "error" ? "alert" : "status"}>
      {title ? <strong>{title}</strong> : null}
      {children}
    </div>
  );
}

const STATE_WORDS: Record<string, string> = { ...STATE_NAMES, trash: "In Trash", changed: "Changed since publishing" };
const STATE_MARKS: Record<string, string> = { draft: "○", in_review: "◐", published: "●", unpublished: "◌", trash: "✕", changed: "◑" };

/** A workflow state as a badge: symbol and word, never colour alone. */
export function StateBadge({ state }: { state: string }) {
  return (
    <span class={`badge badge-${state}`}>
      <span aria-hidden="true">{STATE_MARKS[state] ?? "•"}</span>
      {STATE_WORDS[state] ?? state}
    </span>
  );
}

export function PageHeader({ title, children }: { title: ComponentChildren; children?: ComponentChildren }) {
  return (
    <div class="page-header">
      <h1>{title}</h1>
      {children}
    </div>
  );
}

export function Loading({ label = "Loading…" }: { label?: string }) {
  return (
    <p class="muted" role="status" aria-live="polite">
      {label}
    </p>
  );
}
