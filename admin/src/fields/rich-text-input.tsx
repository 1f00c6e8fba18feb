import { lazyScreen } from "../ui/lazy";
import type { FieldInputProps } from "./types";

/**
 * The rich_text field's input: the TipTap editor (admin/src/rich-text/editor.tsx), imported on
 * first use so the admin's initial JavaScript does not carry it (docs/admin-ui-fields.md).
 */
export const RichTextInput = lazyScreen<FieldInputProps>(() => import("../rich-text/editor"));
