import type { Mark, Node as PmNode } from "@tiptap/pm/model";
import { attributeText, escapeText } from "./dom-html";

/**
 * The editor's document written as the service's canonical rich-text HTML (docs/rich-text.md,
 * docs/admin-ui-fields.md "Mapping"): only allowed elements and attributes, escaped as the sanitiser
 * escapes, so the service stores what the editor sends unchanged (no `rich_markup_dropped`).
 * TipTap's own `getHTML()` is not used: it writes `class`, `style`, `colwidth`, `rel` without
 * `target`, and `<p>` inside every cell and list item.
 */

const HEADING_LEVELS = new Set([1, 2, 3, 4, 5, 6]);

/** The document as canonical HTML; an empty document (one empty paragraph) is "". */
export function canonicalHtml(doc: PmNode): string {
  if (doc.childCount === 1 && doc.firstChild?.type.name === "paragraph" && doc.firstChild.content.size === 0) return "";
  return blocks(doc);
}

function blocks(node: PmNode): string {
  let out = "";
  node.forEach((child) => {
    out += block(child);
  });
  return out;
}

/** Children of a list item or cell: a first paragraph the source wrote implied goes without `<p>`. */
function impliedContent(node: PmNode): string {
  const first = node.firstChild;
  if (node.attrs.implied === true && first?.type.name === "paragraph") {
    let out = inline(first);
    node.forEach((child, _offset, index) => {
      if (index > 0) out += block(child);
    });
    return out;
  }
  return blocks(node);
}

function block(node: PmNode): string {
  const attrs = node.attrs as Record<string, unknown>;
  switch (node.type.name) {
    case "paragraph":
      return `<p>${inline(node)}</p>`;
    case "heading": {
      const level = HEADING_LEVELS.has(Number(attrs.level)) ? Number(attrs.level) : 2;
      return `<h${level}>${inline(node)}</h${level}>`;
    }
    case "blockquote":
      return `<blockquote${typeof attrs.cite === "string" && attrs.cite ? attributeText([["cite", attrs.cite]]) : ""}>${blocks(node)}</blockquote>`;
    case "bulletList":
      return `<ul>${blocks(node)}</ul>`;
    case "orderedList": {
      const start = Number(attrs.start ?? 1);
      return `<ol${Number.isInteger(start) && start !== 1 ? attributeText([["start", String(start)]]) : ""}>${blocks(node)}</ol>`;
    }
    case "listItem":
      return `<li>${impliedContent(node)}</li>`;
    case "codeBlock": {
      const text = node.textContent;
      // Without <code>, a leading newline is written twice: a browser drops the first after <pre>.
      return attrs.bare === true ? `<pre>${text.startsWith("\n") ? "\n" : ""}${escapeText(text)}</pre>` : `<pre><code>${escapeText(text)}</code></pre>`;
    }
    case "horizontalRule":
      return "<hr>";
    case "table":
      return table(node);
    case "preservedBlock":
      return String(attrs.html ?? "");
    default:
      // A node of no known kind is written as its text: never markup the service would drop.
      return node.isTextblock ? `<p>${inline(node)}</p>` : blocks(node);
  }
}

const SECTION_TAG: Record<string, string> = { head: "thead", body: "tbody", foot: "tfoot" };

function table(node: PmNode): string {
  const caption = node.attrs.caption as string | null;
  let out = caption === null ? "<table>" : `<table><caption>${caption}</caption>`;
  let open: string | null = null;
  node.forEach((row) => {
    const tag = SECTION_TAG[String(row.attrs.section)] ?? "tbody";
    if (tag !== open) {
      if (open) out += `</${open}>`;
      out += `<${tag}>`;
      open = tag;
    }
    out += "<tr>";
    row.forEach((cell) => {
      out += tableCell(cell);
    });
    out += "</tr>";
  });
  if (open) out += `</${open}>`;
  return `${out}</table>`;
}

function tableCell(cell: PmNode): string {
  const tag = cell.type.name === "tableHeader" ? "th" : "td";
  const attrs: [string, string][] = [];
  const colspan = Number(cell.attrs.colspan ?? 1);
  const rowspan = Number(cell.attrs.rowspan ?? 1);
  if (colspan > 1) attrs.push(["colspan", String(colspan)]);
  if (rowspan > 1) attrs.push(["rowspan", String(rowspan)]);
  if (tag === "th" && typeof cell.attrs.scope === "string") attrs.push(["scope", cell.attrs.scope]);
  return `<${tag}${attributeText(attrs)}>${impliedContent(cell)}</${tag}>`;
}

function markOpen(mark: Mark): string {
  switch (mark.type.name) {
    case "bold":
      return "<strong>";
    case "italic":
      return "<em>";
    case "code":
      return "<code>";
    case "link": {
      const attrs: [string, string][] = [["href", String(mark.attrs.href ?? "")]];
      if (typeof mark.attrs.title === "string" && mark.attrs.title) attrs.push(["title", mark.attrs.title]);
      // "Open in a new tab": the service keeps exactly this pair (docs/rich-text.md), rel last.
      if (opensNewTab(mark)) attrs.push(["target", "_blank"], ["rel", "noopener noreferrer"]);
      return `<a${attributeText(attrs)}>`;
    }
    case "preservedInline":
      return `<${String(mark.attrs.tag)}${attributeText(mark.attrs.attrs as [string, string][])}>`;
    default:
      return "";
  }
}

/** Whether a link mark opens a new tab (read from `target="_blank"`, however cased). */
export function opensNewTab(mark: Mark): boolean {
  return typeof mark.attrs.target === "string" && mark.attrs.target.trim().toLowerCase() === "_blank";
}

function markClose(mark: Mark): string {
  switch (mark.type.name) {
    case "bold":
      return "</strong>";
    case "italic":
      return "</em>";
    case "code":
      return "</code>";
    case "link":
      return "</a>";
    case "preservedInline":
      return `</${String(mark.attrs.tag)}>`;
    default:
      return "";
  }
}

/** Inline content with marks nested as the schema orders them, reopened only where they change. */
function inline(node: PmNode): string {
  let out = "";
  let open: readonly Mark[] = [];
  node.forEach((child) => {
    const marks = child.marks;
    let keep = 0;
    while (keep < open.length && keep < marks.length && open[keep]?.eq(marks[keep] as Mark)) keep += 1;
    for (let i = open.length - 1; i >= keep; i -= 1) out += markClose(open[i] as Mark);
    for (let i = keep; i < marks.length; i += 1) out += markOpen(marks[i] as Mark);
    open = marks;
    if (child.isText) out += escapeText(child.text ?? "");
    else if (child.type.name === "hardBreak") out += "<br>";
    else if (child.type.name === "preservedImage") out += String(child.attrs.html ?? "");
    else out += escapeText(child.textContent);
  });
  for (let i = open.length - 1; i >= 0; i -= 1) out += markClose(open[i] as Mark);
  return out;
}
