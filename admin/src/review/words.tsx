import type { ManageAnswer } from "../api/client";
import { session } from "../state/session";

/** An entry proposal and a model proposal as the management API answers them. */
export type Proposal = ManageAnswer<"getProposal">;
export type ModelProposal = ManageAnswer<"getModelProposal">;
export type ProposalSource = Proposal["source"];

const SOURCE_KINDS: Record<ProposalSource["kind"], string> = {
  management: "Management credential",
  person: "Person",
  plugin: "Plugin",
  ai: "AI assistant",
};

/**
 * Who proposed, in words: the kind of source (a management credential an agent or script uses,
 * a person in their own session, a plugin, an AI assistant) and its name, and the person it acted
 * for when the source says so.
 */
export function sourceWords(source: ProposalSource): { kind: string; name: string; onBehalf?: string } {
  const onBehalf = source.requested_by ? personWords(source.requested_by) : undefined;
  return { kind: SOURCE_KINDS[source.kind] ?? source.kind, name: source.label || source.id, ...(onBehalf ? { onBehalf } : {}) };
}

/** A source as one line: "Management credential “Docs bot”" (and "for you" when it acted for you). */
export function SourceLine({ source }: { source: ProposalSource }) {
  const words = sourceWords(source);
  return (
    <span class="review-source">
      <span class="muted">{words.kind}</span> <strong>{words.name}</strong>
      {words.onBehalf ? <span class="muted"> · requested by {words.onBehalf}</span> : null}
    </span>
  );
}

/**
 * A table cell's column name, shown (and read) only on a narrow screen, where the stacked table
 * hides its header row.
 */
export function CellLabel({ children }: { children: string }) {
  return (
    <span class="review-cell-label">
      {children}
    </span>
  );
}

/** A person id as words: "you" for the signed-in person, else the id itself. */
export function personWords(id: string): string {
  return session.value?.person.id === id ? "you" : id;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** A moment as a <time> a person reads, the exact instant kept in `datetime`. */
export function When({ at }: { at: string }) {
  const date = new Date(at);
  return <time dateTime={at}>{Number.isNaN(date.getTime()) ? at : dateFormat.format(date)}</time>;
}

const STATE_WORDS: Record<string, { mark: string; word: string }> = {
  open: { mark: "◐", word: "Open" },
  applied: { mark: "✓", word: "Applied" },
  rejected: { mark: "✕", word: "Rejected" },
  dismissed: { mark: "✕", word: "Dismissed" },
  stale: { mark: "!", word: "Out of date" },
};

/** A proposal's state as a badge: symbol and word, never colour alone. */
export function ProposalState({ state }: { state: string }) {
  const w = STATE_WORDS[state] ?? { mark: "•", word: state };
  return (
    <span class={`badge review-state-${state}`}>
      <span aria-hidden="true">{w.mark}</span>
      {w.word}
    </span>
  );
}

/** The kinds of a content-breaking model change (409 model_change_blocked, a proposal's `changes`). */
export const CHANGE_KINDS: Record<string, string> = {
  field_removed_with_values: "A removed field still holds values in entries",
  type_changed: "A field changes type while entries hold values",
  required_added: "A field becomes required while published entries have no value",
  option_removed: "A removed option is still chosen in entries",
  i18n_disabled: "Languages are turned off while entries exist in other languages",
  unique_conflict: "A field becomes unique while entries already share a value",
};

/** Field types in words. */
export const TYPE_WORDS: Record<string, string> = {
  text: "Text",
  long_text: "Long text",
  rich_text: "Rich text",
  integer: "Whole number",
  decimal: "Decimal number",
  boolean: "Yes / no",
  date: "Date",
  datetime: "Date and time",
  select: "Select",
  slug: "Slug",
  media: "Media",
  relation: "Relation",
  location: "Location",
  component: "Component",
};

export const typeWords = (type: unknown): string => (typeof type === "string" ? (TYPE_WORDS[type] ?? type) : "Unknown type");

/** Review addresses: the list (tab, state filter) and one proposal. */
export const reviewPaths = {
  list: (base: string, tab: "entries" | "models", state?: string) => {
    const q = new URLSearchParams();
    if (tab === "models") q.set("tab", "models");
    if (state && state !== "open") q.set("state", state);
    const text = q.toString();
    return text ? `${base}?${text}` : base;
  },
  proposal: (base: string, id: string) => `${base}?proposal=${encodeURIComponent(id)}`,
  modelProposal: (base: string, id: string) => `${base}?tab=models&model_proposal=${encodeURIComponent(id)}`,
};
