import { Table, TableCell, TableHeader, TableRow } from "@tiptap/extension-table";
import { innerHtml } from "./dom-html";
import { impliedParagraph } from "./preserved";

/**
 * The table of the service's canonical HTML (docs/content-rules-rich-text.md, "Tables") on TipTap's
 * table: a `<caption>` kept as the table's attribute (its canonical HTML), each row's section
 * (`thead`, `tbody`, `tfoot`) kept on the row, `scope` on header cells, and whether a cell's
 * paragraph was implied (`<td>06:12</td>` comes back as written, not as `<td><p>06:12</p></td>`).
 */

export type RowSection = "head" | "body" | "foot";

export const CanonicalTable = Table.extend({
  addAttributes() {
    return {
      ...this.parent?.(),
      caption: {
        default: null,
        rendered: false,
        parseHTML: (element: HTMLElement) => {
          const caption = element.querySelector(":scope > caption");
          return caption ? innerHtml(caption) : null;
        },
      },
    };
  },
  parseHTML() {
    // The caption is the table's attribute: its text must not become a row.
    return [{ tag: "table" }, { tag: "caption", ignore: true }];
  },
  renderHTML({ node }) {
    const caption = node.attrs.caption as string | null;
    const text = caption === null ? "" : new DOMParser().parseFromString(`<body>${caption}</body>`, "text/html").body.textContent ?? "";
    return ["div", { class: "rt-table-wrap" }, ["table", {}, ...(caption === null ? [] : [["caption", { contenteditable: "false" }, text]]), ["tbody", 0]]];
  },
});

export const CanonicalRow = TableRow.extend({
  addAttributes() {
    return {
      section: {
        default: "body",
        parseHTML: (element: HTMLElement) => {
          const parent = element.parentElement?.tagName;
          return parent === "THEAD" ? "head" : parent === "TFOOT" ? "foot" : "body";
        },
        renderHTML: (attributes: Record<string, unknown>) => ({ "data-section": attributes.section }),
      },
    };
  },
});

const implied = {
  default: true,
  parseHTML: (element: HTMLElement) => impliedParagraph(element),
  rendered: false,
};

export const CanonicalCell = TableCell.extend({
  addAttributes() {
    return { ...this.parent?.(), implied };
  },
});

export const CanonicalHeader = TableHeader.extend({
  addAttributes() {
    return {
      ...this.parent?.(),
      implied,
      scope: {
        default: null,
        parseHTML: (element: HTMLElement) => {
          const scope = element.getAttribute("scope")?.trim().toLowerCase();
          return scope === "row" || scope === "col" || scope === "rowgroup" || scope === "colgroup" ? scope : null;
        },
        renderHTML: (attributes: Record<string, unknown>) => (attributes.scope ? { scope: attributes.scope } : {}),
      },
    };
  },
});
