import type { FunctionComponent } from "preact";
import { useEffect, useState } from "preact/hooks";
import { Loading, Notice } from "../ui/controls";
import type { FieldInputProps } from "./types";

type EditorComponent = FunctionComponent<FieldInputProps>;
let loaded: EditorComponent | undefined;

/**
 * The rich_text field's input: the TipTap editor (admin/src/rich-text/editor.tsx), imported on
 * first use so the admin's initial JavaScript does not carry it (docs/admin-ui-fields.md). Until it
 * is there the value is untouched (an editor that fails to load never changes what is saved).
 */
export function RichTextInput(props: FieldInputProps) {
  const [Editor, setEditor] = useState<EditorComponent | undefined>(() => loaded);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    if (Editor) return;
    import("../rich-text/editor").then(
      (module) => {
        loaded = module.default;
        setEditor(() => module.default);
      },
      (error: unknown) => setFailed(error instanceof Error ? error.message : String(error)),
    );
  }, []);
  if (failed) {
    return (
      <Notice kind="error" title="The text editor could not be loaded. Reload the page to edit this field.">
        {failed}
      </Notice>
    );
  }
  return Editor ? <Editor {...props} /> : <Loading label="Loading the text editor…" />;
}
