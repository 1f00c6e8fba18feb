import { Mark, Node } from "@tiptap/core";
import { elementAttributes, innerHtml, outerHtml } from "./dom-html";

/**
 * What the editor keeps without editing it (docs/admin-ui-fields.md, "Kept as atoms"): galleries
 * (`figure[data-gallery]`), embeds (`figure[data-embed]`), plugin blocks (`div[data-block]`), block
 * groups (`div[data-block-group]`), other figures and definition lists are one atom block each
 * holding its canonical HTML; an image outside a gallery is an inline atom; inline elements the
 * toolbar has no button for (`sub`, `mark`, `abbr`, `time`, `del`…) are one generic mark keeping
 * the element's name and attributes. The editor shows each atom as a labelled placeholder and
 * writes its HTML back unchanged.
 */

export type AtomKind = "gallery" | "embed" | "block" | "block-group" | "figure" | "list";

function kindOf(element: Element): AtomKind {
  if (element.tagName === "DIV") return element.hasAttribute("data-block") ? "block" : "block-group";
  if (element.tagName === "DL") return "list";
  if (element.hasAttribute("data-gallery")) return "gallery";
  if (element.hasAttribute("data-embed")) return "embed";
  return "figure";
}

/** A person-readable label of an atom, from its HTML (what it is and what it holds). */
export function atomLabel(kind: AtomKind, html: string): string {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, "text/html");
  const root = doc.body.firstElementChild;
  const caption = root?.querySelector(":scope > figcaption")?.textContent?.trim();
  const withCaption = (text: string) => (caption ? `${text}: “${caption}”` : text);
  switch (kind) {
    case "gallery":
      return withCaption(`Gallery of ${root?.querySelectorAll("img").length ?? 0} images`);
    case "embed":
      return withCaption(`Embedded video ${root?.getAttribute("data-embed") ?? ""}`.trim());
    case "block": {
      const name = root?.getAttribute("data-block") ?? "";
      return `Plugin block ${name}`;
    }
    case "block-group":
      return `Group of ${root?.querySelectorAll(":scope > div").length ?? 0} plugin blocks`;
    case "list":
      return "Definition list";
    default:
      return withCaption("Figure");
  }
}

/** A block the editor keeps as its canonical HTML (shown as a labelled, non-editable placeholder). */
export const PreservedBlock = Node.create({
  name: "preservedBlock",
  group: "block",
  atom: true,
  selectable: true,
  draggable: true,
  addAttributes() {
    return {
      html: { default: "", rendered: false },
      kind: { default: "figure", rendered: false },
    };
  },
  parseHTML() {
    const keep = (element: HTMLElement) => ({ html: outerHtml(element), kind: kindOf(element) });
    return [
      // The editor's own placeholder (copy and paste, drag inside the editor).
      { tag: "div[data-rt-atom]", priority: 100, getAttrs: (element) => ({ html: element.getAttribute("data-html") ?? "", kind: element.getAttribute("data-rt-atom") ?? "figure" }) },
      { tag: "figure", priority: 100, getAttrs: keep },
      { tag: "div[data-block]", priority: 100, getAttrs: keep },
      { tag: "div[data-block-group]", priority: 100, getAttrs: keep },
      { tag: "dl", priority: 100, getAttrs: keep },
    ];
  },
  renderHTML({ node }) {
    const kind = node.attrs.kind as AtomKind;
    const html = node.attrs.html as string;
    return ["div", { "data-rt-atom": kind, "data-html": html, class: `rt-atom rt-atom-${kind}`, contenteditable: "false" }, ["span", { class: "rt-atom-label" }, atomLabel(kind, html)]];
  },
});

/** An image outside a gallery, kept with its attributes (an inline atom shown as a labelled chip). */
export const PreservedImage = Node.create({
  name: "preservedImage",
  group: "inline",
  inline: true,
  atom: true,
  selectable: true,
  draggable: true,
  addAttributes() {
    return { html: { default: "", rendered: false } };
  },
  parseHTML() {
    return [
      { tag: "span[data-rt-image]", priority: 100, getAttrs: (element) => ({ html: element.getAttribute("data-html") ?? "" }) },
      { tag: "img", priority: 100, getAttrs: (element) => ({ html: outerHtml(element) }) },
    ];
  },
  renderHTML({ node }) {
    const html = node.attrs.html as string;
    const alt = /\salt="([^"]*)"/.exec(html)?.[1];
    return ["span", { "data-rt-image": "", "data-html": html, class: "rt-atom rt-atom-image", contenteditable: "false" }, alt ? `Image: ${decode(alt)}` : "Image"];
  },
});

function decode(text: string): string {
  return new DOMParser().parseFromString(`<body>${text}</body>`, "text/html").body.textContent ?? text;
}

/** Inline elements without their own toolbar button, kept with their name and attributes. */
export const INLINE_TAGS = ["b", "i", "u", "s", "sub", "sup", "small", "mark", "span", "kbd", "samp", "var", "abbr", "cite", "dfn", "q", "del", "ins", "time"] as const;

/** Attributes the service keeps on those elements (docs/rich-text.md); others would only be dropped there. */
const INLINE_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = { q: ["cite"], del: ["cite", "datetime"], ins: ["cite", "datetime"], time: ["datetime"] };
const GLOBAL_ATTRIBUTES = ["title", "lang", "dir"];

export const PreservedInline = Mark.create({
  name: "preservedInline",
  // Several at once (`<sub><small>`), and spanning other marks.
  excludes: "",
  addAttributes() {
    return {
      tag: { default: "span", rendered: false },
      attrs: { default: [], rendered: false },
    };
  },
  parseHTML() {
    return INLINE_TAGS.map((tag) => ({
      tag,
      getAttrs: (element: HTMLElement) => {
        const allowed = [...GLOBAL_ATTRIBUTES, ...(INLINE_ATTRIBUTES[tag] ?? [])];
        return { tag, attrs: elementAttributes(element).filter(([name]) => allowed.includes(name)) };
      },
    }));
  },
  renderHTML({ mark }) {
    return [mark.attrs.tag as string, Object.fromEntries(mark.attrs.attrs as [string, string][]), 0];
  },
});

/** `true` when an element's first meaningful child is not a `<p>`: its paragraph was implied (`<li>text</li>`). */
export function impliedParagraph(element: HTMLElement): boolean {
  for (const child of Array.from(element.childNodes)) {
    if (child.nodeType === 3 && (child.nodeValue ?? "").trim() === "") continue;
    return !(child.nodeType === 1 && (child as Element).tagName === "P");
  }
  return true;
}

export { innerHtml };
