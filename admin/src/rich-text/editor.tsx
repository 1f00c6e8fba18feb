import { Editor } from "@tiptap/core";
import { useEffect, useReducer, useRef, useState } from "preact/hooks";
import { useOwnValues } from "../fields/own-values";
import type { FieldInputProps } from "../fields/types";
import { canonicalHtml } from "./canonical-html";
import { richTextExtensions } from "./extensions";
import { LinkDialog } from "./link-dialog";
import { EntryLinkDialog } from "./entry-link-dialog";
import { libraryImagesHtml } from "./library-images";
import { MediaPicker } from "../ui/media-picker";
import { Toolbar } from "./toolbar";
import "../styles/rich-text.css";

/**
 * The rich-text editor (TipTap 3 on ProseMirror), loaded on demand by fields/rich-text-input.tsx:
 * it and its CSS are one lazily imported chunk, so the admin's initial JavaScript stays small.
 * The value goes in as the service's canonical HTML and comes out as canonical HTML
 * (canonical-html.ts); `onChange` is called only when the person changes something, so an
 * untouched field is saved exactly as it was read.
 */
export default function RichTextEditor(props: FieldInputProps) {
  const { field, value, onChange, readOnly, id, describedBy } = props;
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<Editor | null>(null);
  const own = useOwnValues();
  const changeRef = useRef(onChange);
  changeRef.current = onChange;
  const [linkOpen, setLinkOpen] = useState(false);
  const [linkError, setLinkError] = useState<string | null>(null);
  const [entryLinkOpen, setEntryLinkOpen] = useState(false);
  const [imageOpen, setImageOpen] = useState(false);
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const label = field.label ?? field.key;
  const a11y = useRef({ describedBy, invalid: false, readOnly });
  a11y.current = { describedBy, invalid: props.errors.length > 0, readOnly };

  useEffect(() => {
    if (!host.current) return;
    const editor = new Editor({
      element: host.current,
      extensions: richTextExtensions({ openLinkDialog: () => setLinkOpen(true), openEntryLinkDialog: () => setEntryLinkOpen(true), openImageDialog: () => setImageOpen(true) }),
      content: typeof value === "string" ? value : "",
      editable: !readOnly,
      // The page's CSP allows no inline <style>: TipTap's base rules are in rich-text.css.
      injectCSS: false,
      editorProps: {
        // Read on every update (and on setProps below), so messages that appear later are named.
        attributes: () => {
          const now = a11y.current;
          return {
            id,
            role: "textbox",
            "aria-multiline": "true",
            "aria-label": label,
            ...(now.describedBy ? { "aria-describedby": now.describedBy } : {}),
            ...(now.invalid ? { "aria-invalid": "true" } : {}),
            ...(now.readOnly ? { "aria-readonly": "true" } : {}),
            class: "rt-content",
          };
        },
      },
      onUpdate: ({ editor: current }) => {
        const html = canonicalHtml(current.state.doc);
        own.note(html);
        changeRef.current(html);
      },
    });
    editor.on("transaction", redraw);
    editorRef.current = editor;
    redraw(0);
    return () => {
      editor.destroy();
      editorRef.current = null;
    };
  }, []);

  // A value changed from outside (a restored version, a reload) replaces the document.
  useEffect(() => {
    const editor = editorRef.current;
    if (!editor) return;
    const next = typeof value === "string" ? value : "";
    if (own.mine(next) || next === canonicalHtml(editor.state.doc)) return;
    editor.commands.setContent(next, { emitUpdate: false });
  }, [value]);

  useEffect(() => {
    editorRef.current?.setEditable(!readOnly, false);
  }, [readOnly]);

  // The service's messages for this field make the editor invalid and are read with it.
  useEffect(() => {
    editorRef.current?.view.setProps({});
  }, [describedBy, props.errors.length > 0, readOnly]);

  const editor = editorRef.current;
  const linkAttrs = editor?.isActive("link") ? editor.getAttributes("link") : null;
  const linkHref = linkAttrs ? String(linkAttrs.href ?? "") : "";
  const linkNewTab = typeof linkAttrs?.target === "string" && linkAttrs.target.toLowerCase() === "_blank";
  const closeLink = () => {
    setLinkOpen(false);
    setLinkError(null);
    editorRef.current?.commands.focus();
  };
  return (
    <div class={`rt-editor${readOnly ? " rt-readonly" : ""}`}>
      {editor && !readOnly ? <Toolbar editor={editor} fieldLabel={label} editorId={id} onLink={() => setLinkOpen(true)} onEntryLink={() => setEntryLinkOpen(true)} onImage={() => setImageOpen(true)} /> : null}
      <div ref={host} class="rt-host" />
      {editor && !readOnly ? (
        <EntryLinkDialog
          open={entryLinkOpen}
          lang={props.lang}
          onClose={() => {
            setEntryLinkOpen(false);
            editorRef.current?.commands.focus();
          }}
          onPick={(href, title) => {
            setEntryLinkOpen(false);
            const chain = editor.chain().focus();
            // A selection becomes the link; with none, the entry's title is written as the link text.
            if (editor.state.selection.empty) chain.insertContent({ type: "text", text: title, marks: [{ type: "link", attrs: { href } }] }).run();
            else chain.setLink({ href }).setTextSelection(editor.state.selection.to).run();
          }}
        />
      ) : null}
      {editor && !readOnly ? (
        <MediaPicker
          open={imageOpen}
          lang={props.lang}
          multiple
          kind="image"
          exclude={[]}
          onClose={() => {
            setImageOpen(false);
            editorRef.current?.commands.focus();
          }}
          onPick={(chosen) => {
            setImageOpen(false);
            const content = libraryImagesHtml(chosen, props.lang);
            if (content) editor.chain().focus().insertContent(content).run();
          }}
        />
      ) : null}
      {editor && !readOnly ? (
        <LinkDialog
          open={linkOpen}
          initial={linkHref}
          initialNewTab={linkNewTab}
          onClose={closeLink}
          onRemove={linkHref ? () => (editor.chain().focus().extendMarkRange("link").unsetLink().run(), setLinkOpen(false)) : null}
          error={linkError}
          onApply={(href, newTab) => {
            // TipTap refuses script and data addresses (its setLink and rendering); say so rather than do nothing.
            if (!editor.can().setLink({ href })) {
              setLinkError("This address cannot be a link. Use a web address, an email (mailto:), a phone number (tel:) or a path on the site.");
              return;
            }
            setLinkError(null);
            const chain = editor.chain().focus().extendMarkRange("link");
            const attrs = { href, target: newTab ? "_blank" : null };
            if (editor.state.selection.empty && !editor.isActive("link")) chain.insertContent({ type: "text", text: href, marks: [{ type: "link", attrs }] }).run();
            // The link is applied and the cursor put after it, so typing goes on outside it.
            else chain.setLink(attrs).setTextSelection(editor.state.selection.to).run();
            setLinkOpen(false);
          }}
        />
      ) : null}
    </div>
  );
}
