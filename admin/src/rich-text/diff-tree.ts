import type { RichNode } from "../../../shared/content/rich-text-blocks";

/**
 * A rich-text value (canonical HTML) as the neutral tree the diff reads
 * (shared/content/rich-text-diff.ts), parsed by the browser's own parser into an inert document:
 * nothing in it loads or runs, and nothing of it is inserted into the page.
 */
export function richTree(html: string): RichNode[] {
  const doc = new DOMParser().parseFromString(`<!doctype html><body>${html}`, "text/html");
  const convert = (nodes: NodeListOf<ChildNode>): RichNode[] => {
    const out: RichNode[] = [];
    nodes.forEach((node) => {
      if (node.nodeType === Node.TEXT_NODE) out.push({ kind: "text", text: node.nodeValue ?? "" });
      else if (node instanceof Element) {
        const attrs: Record<string, string> = {};
        for (const a of Array.from(node.attributes)) attrs[a.name] = a.value;
        out.push({ kind: "element", tag: node.tagName.toLowerCase(), attrs, children: convert(node.childNodes) });
      }
    });
    return out;
  };
  return convert(doc.body.childNodes);
}
