/**
 * TEST-ONLY (not part of the admin build): bundled by test/e2e/admin-ui-fields.test.mjs and run in
 * Chromium. `roundTrip(html)` loads a value into the rich-text editor's schema exactly as the
 * editor does and writes it back with the canonical serializer; `edited(html, script)` does the
 * same after a few editor commands, so the test can compare what the editor sends with what the
 * service stores.
 */
import { Editor } from "@tiptap/core";
import { canonicalHtml } from "../rich-text/canonical-html";
import { richTextExtensions } from "../rich-text/extensions";

function load(html: string): Editor {
  const element = document.createElement("div");
  document.body.append(element);
  return new Editor({ element, extensions: richTextExtensions({ openLinkDialog: () => undefined }), content: html });
}

export function roundTrip(html: string): string {
  const editor = load(html);
  const out = canonicalHtml(editor.state.doc);
  editor.destroy();
  return out;
}

/** Appends a paragraph of `text` at the end of the document and serialises: an edit elsewhere leaves the rest byte for byte. */
export function appendParagraph(html: string, text: string): string {
  const editor = load(html);
  editor.commands.insertContentAt(editor.state.doc.content.size, { type: "paragraph", content: [{ type: "text", text }] });
  const out = canonicalHtml(editor.state.doc);
  editor.destroy();
  return out;
}

Object.assign(globalThis, { richText: { roundTrip, appendParagraph } });
