import { diffRichText, type RichTextDiff as Diff } from "../../../shared/content/rich-text-diff";
import { richTree } from "../rich-text/diff-tree";
import { RichTextDiff } from "./rich-text-diff";
import "../styles/field-diff.css";

/**
 * A readable field-by-field comparison of two sets of values (versions, proposals): only changed
 * fields, each with its label, the value before and after as text. Rich text is compared as
 * its visible text, lists and objects as indented JSON — except the fields named in `richKeys`
 * (rich_text fields): those are compared block by block with their formatting (ui/rich-text-diff.tsx),
 * so a word made bold or a heading level changed shows, and the field is listed even when its text
 * alone is the same.
 *
 * Optional: `order` (field keys in the model's order; keys not named follow), `headings` for the
 * two columns (e.g. "When proposed" / "Now"). On a narrow screen each value carries its column's
 * heading, since the table's header row is hidden there.
 */
export function FieldDiff({
  before,
  after,
  labels,
  caption,
  order,
  headings = ["Before", "After"],
  richKeys,
}: {
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  labels?: Record<string, string>;
  caption: string;
  order?: readonly string[];
  headings?: readonly [string, string];
  richKeys?: ReadonlySet<string>;
}) {
  const all = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const rank = (k: string) => {
    const i = order ? order.indexOf(k) : -1;
    return i === -1 ? Number.MAX_SAFE_INTEGER : i;
  };
  const rich = new Map<string, Diff>();
  for (const k of all) {
    const [b, a] = [before[k], after[k]];
    if (richKeys?.has(k) && (typeof b === "string" || typeof a === "string") && b !== a) {
      const diff = diffRichText(richTree(typeof b === "string" ? b : ""), richTree(typeof a === "string" ? a : ""));
      if (diff.changed) rich.set(k, diff);
    }
  }
  const differs = (k: string) => (richKeys?.has(k) ? rich.has(k) : show(before[k]) !== show(after[k]));
  const keys = all.filter(differs).sort((a, b) => rank(a) - rank(b));
  if (keys.length === 0) return <p class="muted">No field differs.</p>;
  return (
    <table class="list responsive diff">
      <caption class="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">{headings[0]}</th>
          <th scope="col">{headings[1]}</th>
        </tr>
      </thead>
      <tbody>
        {keys.map((k) => {
          const diff = rich.get(k);
          return diff ? (
            <tr>
              <th scope="row">{labels?.[k] ?? k}</th>
              <td colSpan={2}>
                <p class="rich-diff-direction">
                  From {headings[0]} to {headings[1]}, with formatting:
                </p>
                <RichTextDiff diff={diff} />
              </td>
            </tr>
          ) : (
            <tr>
              <th scope="row">{labels?.[k] ?? k}</th>
              <td>
                <span class="diff-heading">
                  {headings[0]}
                </span>
                <del>{show(before[k]) || "(empty)"}</del>
              </td>
              <td>
                <span class="diff-heading">
                  {headings[1]}
                </span>
                <ins>{show(after[k]) || "(empty)"}</ins>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** A value as text a person reads: HTML as its text, structures as JSON. */
export function show(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return /<[a-z][\s\S]*>/i.test(value) ? htmlText(value) : value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value, null, 2);
}

function htmlText(html: string): string {
  const doc = new DOMParser().parseFromString(html, "text/html");
  return (doc.body.textContent ?? "").replace(/\s+/g, " ").trim();
}

/** The keys of a model's rich_text fields: what FieldDiff compares with formatting. */
export function richTextKeys(fields: readonly { key: string; type?: string }[]): ReadonlySet<string> {
  return new Set(fields.filter((f) => f.type === "rich_text").map((f) => f.key));
}
