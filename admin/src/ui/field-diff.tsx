/**
 * A readable field-by-field comparison of two sets of values (versions, proposals): only changed
 * fields, each with its label, the value before and after as text. Rich text is compared as
 * its visible text, lists and objects as indented JSON.
 */
export function FieldDiff({ before, after, labels, caption }: { before: Record<string, unknown>; after: Record<string, unknown>; labels?: Record<string, string>; caption: string }) {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => show(before[k]) !== show(after[k]));
  if (keys.length === 0) return <p class="muted">No field differs.</p>;
  return (
    <table class="list responsive diff">
      <caption class="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Before</th>
          <th scope="col">After</th>
        </tr>
      </thead>
      <tbody>
        {keys.map((k) => (
          <tr>
            <th scope="row">{labels?.[k] ?? k}</th>
            <td>
              <del>{show(before[k]) || "(empty)"}</del>
            </td>
            <td>
              <ins>{show(after[k]) || "(empty)"}</ins>
            </td>
          </tr>
        ))}
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
