/**
 * Canonical HTML written from a browser DOM, with exactly the escaping of the service's sanitiser
 * (shared/content/rich-text.ts): text escapes `& < >` and U+00A0, attribute values `& " < >` and
 * U+00A0, always double-quoted; `br hr img` have no end tag; a leading newline of a `<pre>`'s first
 * text is written twice (a browser drops one). The editor keeps what it cannot edit (galleries,
 * embeds, plugin blocks, figures, definition lists, table captions) as this HTML, so a value the
 * service stored comes back from the editor byte for byte.
 */

const VOID = new Set(["br", "hr", "img"]);

export function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\u00a0/g, "&nbsp;");
}

export function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\u00a0/g, "&nbsp;");
}

/** ` name="value"` for each pair, in order. */
export function attributeText(attrs: readonly (readonly [string, string])[]): string {
  return attrs.map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`).join("");
}

/** An element's attributes in document order, names lower-case. */
export function elementAttributes(element: Element): [string, string][] {
  return Array.from(element.attributes, (a) => [a.name.toLowerCase(), a.value] as [string, string]);
}

/** The children of `node` as canonical HTML. */
export function innerHtml(node: Node): string {
  let out = "";
  const parent = node.nodeType === Node.ELEMENT_NODE ? (node as Element).tagName.toLowerCase() : "";
  node.childNodes.forEach((child, index) => {
    out += nodeHtml(child, parent, index === 0);
  });
  return out;
}

/** One element and its content as canonical HTML. */
export function outerHtml(element: Element): string {
  const name = element.tagName.toLowerCase();
  const open = `<${name}${attributeText(elementAttributes(element))}>`;
  return VOID.has(name) ? open : `${open}${innerHtml(element)}</${name}>`;
}

function nodeHtml(node: Node, parent: string, first: boolean): string {
  if (node.nodeType === Node.TEXT_NODE) {
    const value = node.nodeValue ?? "";
    return (parent === "pre" && first && value.startsWith("\n") ? "\n" : "") + escapeText(value);
  }
  if (node.nodeType === Node.ELEMENT_NODE) return outerHtml(node as Element);
  return ""; // comments are never in canonical HTML
}
