import { findParentNode, type Editor } from "@tiptap/core";
import type { ComponentChildren } from "preact";
import { escapeText } from "./dom-html";

/**
 * The rich-text toolbar: every button labelled with its shortcut (aria-keyshortcuts), toggles
 * with aria-pressed, table tools shown while the cursor is in a table. Buttons keep the editor's
 * selection (mousedown does not take focus) so a click formats what is selected.
 */

function Tool({ label, keys, pressed, disabled, onRun, children }: { label: string; keys?: string; pressed?: boolean; disabled?: boolean; onRun: () => void; children: ComponentChildren }) {
  return (
    <button
      type="button"
      class="rt-tool"
      aria-label={label}
      title={keys ? `${label} (${keys.replace("Control", "Ctrl")})` : label}
      aria-keyshortcuts={keys}
      aria-pressed={pressed === undefined ? undefined : pressed ? "true" : "false"}
      disabled={disabled}
      onMouseDown={(event) => event.preventDefault()}
      onClick={onRun}
    >
      <span aria-hidden="true">{children}</span>
    </button>
  );
}

const STYLES: readonly { value: string; label: string }[] = [
  { value: "p", label: "Paragraph" },
  ...[1, 2, 3, 4, 5, 6].map((level) => ({ value: `h${level}`, label: `Heading ${level}` })),
];

function currentStyle(editor: Editor): string {
  for (let level = 1; level <= 6; level += 1) if (editor.isActive("heading", { level })) return `h${level}`;
  return "p";
}

/** Keeps a table's first row in `<thead>` exactly while it is a header row. */
function syncHeaderSection(editor: Editor): void {
  const { state } = editor;
  const found = findParentNode((node) => node.type.name === "table")(state.selection);
  const first = found?.node.firstChild;
  if (!found || !first) return;
  let allHeaders = first.childCount > 0;
  first.forEach((cell) => {
    if (cell.type.name !== "tableHeader") allHeaders = false;
  });
  const section = allHeaders ? "head" : first.attrs.section === "head" ? "body" : (first.attrs.section as string);
  if (section !== first.attrs.section) editor.view.dispatch(state.tr.setNodeMarkup(found.pos + 1, undefined, { ...first.attrs, section }));
}

function headerRowOn(editor: Editor): boolean {
  const found = findParentNode((node) => node.type.name === "table")(editor.state.selection);
  return found?.node.firstChild?.attrs.section === "head";
}

function tableCaption(editor: Editor): { pos: number; text: string } | null {
  const found = findParentNode((node) => node.type.name === "table")(editor.state.selection);
  if (!found) return null;
  const caption = found.node.attrs.caption as string | null;
  const text = caption === null ? "" : (new DOMParser().parseFromString(`<body>${caption}</body>`, "text/html").body.textContent ?? "");
  return { pos: found.pos, text };
}

function setCaption(editor: Editor, pos: number, text: string): void {
  const node = editor.state.doc.nodeAt(pos);
  if (!node) return;
  const caption = text.trim() === "" ? null : escapeText(text);
  editor.view.dispatch(editor.state.tr.setNodeMarkup(pos, undefined, { ...node.attrs, caption }));
}

export function Toolbar({ editor, fieldLabel, editorId, onLink, onEntryLink, onImage }: { editor: Editor; fieldLabel: string; editorId: string; onLink: () => void; onEntryLink: () => void; onImage: () => void }) {
  const chain = () => editor.chain().focus();
  const inTable = editor.isActive("table");
  const caption = inTable ? tableCaption(editor) : null;
  return (
    <div class="rt-toolbar-wrap">
      <div class="rt-toolbar" role="toolbar" aria-label={`Formatting: ${fieldLabel}`} aria-controls={editorId}>
        <select
          class="rt-style"
          aria-label="Text style"
          value={currentStyle(editor)}
          onChange={(event) => {
            const value = event.currentTarget.value;
            if (value === "p") chain().setParagraph().run();
            else chain().setHeading({ level: Number(value.slice(1)) as 1 | 2 | 3 | 4 | 5 | 6 }).run();
          }}
        >
          {STYLES.map((s) => (
            <option value={s.value}>{s.label}</option>
          ))}
        </select>
        <Tool label="Bold" keys="Control+B" pressed={editor.isActive("bold")} onRun={() => chain().toggleBold().run()}>
          <b>B</b>
        </Tool>
        <Tool label="Italic" keys="Control+I" pressed={editor.isActive("italic")} onRun={() => chain().toggleItalic().run()}>
          <i>I</i>
        </Tool>
        <Tool label="Inline code" keys="Control+E" pressed={editor.isActive("code")} onRun={() => chain().toggleCode().run()}>
          {"</>"}
        </Tool>
        <Tool label="Link" keys="Control+K" pressed={editor.isActive("link")} onRun={onLink}>
          Link
        </Tool>
        <Tool label="Entry link" keys="Control+Shift+K" onRun={onEntryLink}>
          Entry link
        </Tool>
        <Tool label="Insert image from library" keys="Control+Shift+I" onRun={onImage}>
          Image
        </Tool>
        <Tool label="Bulleted list" keys="Control+Shift+8" pressed={editor.isActive("bulletList")} onRun={() => chain().toggleBulletList().run()}>
          •≡
        </Tool>
        <Tool label="Numbered list" keys="Control+Shift+7" pressed={editor.isActive("orderedList")} onRun={() => chain().toggleOrderedList().run()}>
          #≡
        </Tool>
        <Tool label="Quote" keys="Control+Shift+B" pressed={editor.isActive("blockquote")} onRun={() => chain().toggleBlockquote().run()}>
          ❝
        </Tool>
        <Tool label="Code block" keys="Control+Alt+C" pressed={editor.isActive("codeBlock")} onRun={() => chain().toggleCodeBlock().run()}>
          {"{ }"}
        </Tool>
        <Tool label="Horizontal rule" onRun={() => chain().setHorizontalRule().run()}>
          ―
        </Tool>
        <Tool
          label="Insert table"
          disabled={inTable}
          onRun={() => {
            chain().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run();
            syncHeaderSection(editor);
          }}
        >
          ▦
        </Tool>
        <Tool label="Undo" keys="Control+Z" disabled={!editor.can().undo()} onRun={() => chain().undo().run()}>
          ↶
        </Tool>
        <Tool label="Redo" keys="Control+Shift+Z" disabled={!editor.can().redo()} onRun={() => chain().redo().run()}>
          ↷
        </Tool>
      </div>
      {inTable ? (
        <div class="rt-toolbar rt-table-tools" role="toolbar" aria-label={`Table: ${fieldLabel}`} aria-controls={editorId}>
          <button type="button" onMouseDown={(e) => e.preventDefault()} onClick={() => chain().addRowBefore().run()}>
            Row above
          </button>
          <button type="button" onMouseDown={(e) => e.preventDefault()} onClick={() => chain().addRowAfter().run()}>
            Row below
          </button>
          <button type="button" onMouseDown={(e) => e.preventDefault()} onClick={() => chain().deleteRow().run()}>
            Delete row
          </button>
          <button type="button" onMouseDown={(e) => e.preventDefault()} onClick={() => chain().addColumnBefore().run()}>
            Column left
          </button>
          <button type="button" onMouseDown={(e) => e.preventDefault()} onClick={() => chain().addColumnAfter().run()}>
            Column right
          </button>
          <button type="button" onMouseDown={(e) => e.preventDefault()} onClick={() => chain().deleteColumn().run()}>
            Delete column
          </button>
          <button
            type="button"
            aria-pressed={headerRowOn(editor) ? "true" : "false"}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => {
              chain().toggleHeaderRow().run();
              syncHeaderSection(editor);
            }}
          >
            Header row
          </button>
          <button type="button" class="button-danger" onMouseDown={(e) => e.preventDefault()} onClick={() => chain().deleteTable().run()}>
            Delete table
          </button>
          {caption ? (
            <label class="rt-caption">
              <span>Caption</span>
              <input type="text" value={caption.text} onChange={(e) => setCaption(editor, caption.pos, e.currentTarget.value)} />
            </label>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
