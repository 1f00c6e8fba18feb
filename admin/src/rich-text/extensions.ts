import { Extension, type AnyExtension } from "@tiptap/core";
import StarterKit from "@tiptap/starter-kit";
import Blockquote from "@tiptap/extension-blockquote";
import Bold from "@tiptap/extension-bold";
import CodeBlock from "@tiptap/extension-code-block";
import Italic from "@tiptap/extension-italic";
import { ListItem } from "@tiptap/extension-list";
import { PreservedBlock, PreservedImage, PreservedInline, impliedParagraph } from "./preserved";
import { CanonicalCell, CanonicalHeader, CanonicalRow, CanonicalTable } from "./table-nodes";

/**
 * The editor's schema: what the service's allow-list holds that a person edits (paragraphs, six
 * heading levels, bold, italic, inline code, links, lists, quotes, code blocks, rules, tables) plus
 * the atoms and the generic inline mark of preserved.ts for everything else the service keeps.
 * Bold and italic parse only `strong` and `em`: `b` and `i` stay what they were (generic mark).
 */

const CanonicalBold = Bold.extend({ parseHTML: () => [{ tag: "strong" }] });
const CanonicalItalic = Italic.extend({ parseHTML: () => [{ tag: "em" }] });

const CanonicalBlockquote = Blockquote.extend({
  addAttributes() {
    return { cite: { default: null, parseHTML: (element: HTMLElement) => element.getAttribute("cite"), rendered: false } };
  },
});

const CanonicalListItem = ListItem.extend({
  addAttributes() {
    return { implied: { default: true, parseHTML: (element: HTMLElement) => impliedParagraph(element), rendered: false } };
  },
});

/** `<pre>` with or without `<code>` inside, as it was written; new code blocks are `<pre><code>`. */
const CanonicalCodeBlock = CodeBlock.extend({
  addAttributes() {
    return {
      ...this.parent?.(),
      bare: { default: false, parseHTML: (element: HTMLElement) => element.firstElementChild?.tagName !== "CODE", rendered: false },
    };
  },
});

/** Mod-K opens the link dialog, Mod-Shift-K the entry link dialog, Mod-Shift-I the image library (the toolbar passes what to do). */
function dialogShortcuts(open: { openLinkDialog: () => void; openEntryLinkDialog?: () => void; openImageDialog?: () => void }): AnyExtension {
  const run = (action: (() => void) | undefined) => () => {
    if (!action) return false;
    action();
    return true;
  };
  return Extension.create({
    name: "dialogShortcuts",
    addKeyboardShortcuts() {
      return { "Mod-k": run(open.openLinkDialog), "Mod-Shift-k": run(open.openEntryLinkDialog), "Mod-Shift-i": run(open.openImageDialog) };
    },
  });
}

export function richTextExtensions(options: { openLinkDialog: () => void; openEntryLinkDialog?: () => void; openImageDialog?: () => void }): AnyExtension[] {
  return [
    StarterKit.configure({
      bold: false,
      italic: false,
      blockquote: false,
      codeBlock: false,
      listItem: false,
      strike: false,
      underline: false,
      // The document ends where its author ended it: no empty paragraph appended after a table or an embed.
      trailingNode: false,
      heading: { levels: [1, 2, 3, 4, 5, 6] },
      link: { openOnClick: false, autolink: true, linkOnPaste: true, defaultProtocol: "https", HTMLAttributes: { rel: null, target: null, class: null } },
    }),
    CanonicalBold,
    CanonicalItalic,
    CanonicalBlockquote,
    CanonicalListItem,
    CanonicalCodeBlock,
    CanonicalTable.configure({ resizable: false, View: null, allowTableNodeSelection: true }),
    CanonicalRow,
    CanonicalHeader,
    CanonicalCell,
    PreservedBlock,
    PreservedImage,
    PreservedInline,
    dialogShortcuts(options),
  ];
}
