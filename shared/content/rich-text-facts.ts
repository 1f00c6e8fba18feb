/**
 * The structure of canonical rich text that the content rules judge (rich-text-rules.ts): table
 * sizes, galleries, embeds, media references and plugin blocks. Read from the parse5 tree of the
 * sanitiser's stable pass (rich-text.ts), so it describes exactly the HTML that is stored.
 */
import type { DefaultTreeAdapterTypes } from "parse5";

type Node = DefaultTreeAdapterTypes.ChildNode;
type Element = DefaultTreeAdapterTypes.Element;

export interface TableFacts {
  /** Rows (`tr`) of the table itself, nested tables not counted. */
  rows: number;
  /** The widest row, counting cells spanned into it from rows above (`rowspan`) and `colspan`. */
  columns: number;
}

export interface BlockFacts {
  /** `data-block`: `<plugin id>/<block name>`. */
  name: string;
  /** `data-version` as written, or null when absent. */
  version: string | null;
  /** `data-values` as written, or null when absent. */
  values: string | null;
}

export interface RichTextFacts {
  tables: TableFacts[];
  /** Per `<figure data-gallery>`: how many images it holds and how many are library images (`data-media`). */
  galleries: { images: number; libraryImages: number }[];
  /** Every `data-media` id (gallery or not), in order. */
  mediaIds: string[];
  /** Every `data-embed` URL, in order. */
  embeds: string[];
  blocks: BlockFacts[];
  /** Per `<div data-block-group>`, and per block holding blocks: its nesting level (1 = not inside another) and direct items (blocks and groups). */
  groups: { level: number; items: number }[];
}

function isElement(node: Node): node is Element {
  return "tagName" in node;
}

function attribute(element: Element, name: string): string | null {
  return element.attrs.find((a) => a.name === name && !a.namespace)?.value ?? null;
}

function childElements(element: Element): Element[] {
  return element.childNodes.filter(isElement);
}

/** Rows and widest row of one table, spans bounded as the sanitiser bounds them. */
function tableFacts(table: Element): TableFacts {
  const rows: Element[] = [];
  for (const child of childElements(table)) {
    if (child.tagName === "tr") rows.push(child);
    else if (child.tagName === "thead" || child.tagName === "tbody" || child.tagName === "tfoot") rows.push(...childElements(child).filter((e) => e.tagName === "tr"));
  }
  // Remaining rows each column is still covered by a cell spanning down from a row above.
  const covered: number[] = [];
  let columns = 0;
  for (const row of rows) {
    let column = 0;
    for (const cell of childElements(row)) {
      if (cell.tagName !== "td" && cell.tagName !== "th") continue;
      while ((covered[column] ?? 0) > 0) column += 1;
      const colspan = Math.max(1, Number(attribute(cell, "colspan") ?? 1) || 1);
      const rowspan = Math.max(1, Number(attribute(cell, "rowspan") ?? 1) || 1);
      for (let k = 0; k < colspan; k += 1) covered[column + k] = rowspan;
      column += colspan;
    }
    let width = 0;
    for (let c = 0; c < covered.length; c += 1) if ((covered[c] ?? 0) > 0) width = c + 1;
    columns = Math.max(columns, column, width);
    for (let c = 0; c < covered.length; c += 1) covered[c] = Math.max(0, (covered[c] ?? 0) - 1);
  }
  return { rows: rows.length, columns };
}

/** The facts of a canonical fragment's nodes. Recursion is bounded: canonical HTML nests at most 128 kept elements. */
export function richTextFacts(nodes: readonly Node[]): RichTextFacts {
  const facts: RichTextFacts = { tables: [], galleries: [], mediaIds: [], embeds: [], blocks: [], groups: [] };
  const galleryStack: { images: number; libraryImages: number }[] = [];
  // Returns whether the children hold a block or a group: a block holding blocks (in its fallback
  // content) is a container as a group is, so blocks nested in blocks meet the same level bound.
  const walk = (children: readonly Node[], groupLevel: number): boolean => {
    let holdsBlocks = false;
    for (const node of children) {
      if (!isElement(node)) continue;
      let level = groupLevel;
      let block = false;
      let gallery: { images: number; libraryImages: number } | undefined;
      switch (node.tagName) {
        case "table":
          facts.tables.push(tableFacts(node));
          break;
        case "img": {
          const media = attribute(node, "data-media");
          if (media !== null) facts.mediaIds.push(media);
          for (const open of galleryStack) {
            open.images += 1;
            if (media !== null) open.libraryImages += 1;
          }
          break;
        }
        case "figure": {
          const embed = attribute(node, "data-embed");
          if (embed !== null) facts.embeds.push(embed);
          if (attribute(node, "data-gallery") !== null) {
            gallery = { images: 0, libraryImages: 0 };
            facts.galleries.push(gallery);
            galleryStack.push(gallery);
          }
          break;
        }
        case "div": {
          const name = attribute(node, "data-block");
          if (name !== null) {
            facts.blocks.push({ name, version: attribute(node, "data-version"), values: attribute(node, "data-values") });
            block = true;
          }
          if (attribute(node, "data-block-group") !== null) {
            level = groupLevel + 1;
            const items = childElements(node).filter((e) => e.tagName === "div" && (attribute(e, "data-block") !== null || attribute(e, "data-block-group") !== null)).length;
            facts.groups.push({ level, items });
            block = true;
          } else if (name !== null) {
            level = groupLevel + 1;
          }
          break;
        }
        default:
          break;
      }
      const inner = walk(node.childNodes, level);
      if (gallery) galleryStack.pop();
      if (block && inner && attribute(node, "data-block-group") === null) {
        const items = childElements(node).filter((e) => e.tagName === "div" && (attribute(e, "data-block") !== null || attribute(e, "data-block-group") !== null)).length;
        facts.groups.push({ level, items });
      }
      holdsBlocks ||= block || inner;
    }
    return holdsBlocks;
  };
  walk(nodes, 0);
  return facts;
}
