import type { FieldDefinition, FieldValue } from "../../schema/model-definition";

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (whole, name: string) => {
    if (name.startsWith("#")) {
      const code = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : " ";
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/**
 * The words of rich text: markup removed (every tag is a word break, script and style content
 * dropped, comments dropped), entities decoded, whitespace collapsed. Attributes are never indexed.
 */
export function htmlToText(html: string): string {
  const stripped = html
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/<(script|style|template)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, " ")
    .replace(/<[^>]*>/g, " ");
  return collapse(decodeEntities(stripped));
}

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Field types whose public value is indexed. */
export const SEARCHABLE_TYPES: readonly FieldDefinition["type"][] = ["text", "long_text", "rich_text", "select"];

/** The searchable text of one public field value: plain text, rich text without markup, select labels. */
export function fieldText(field: FieldDefinition, value: FieldValue | undefined): string {
  if (value === undefined || value === null) return "";
  switch (field.type) {
    case "text":
    case "long_text":
      return typeof value === "string" ? collapse(value) : "";
    case "rich_text":
      return typeof value === "string" ? htmlToText(value) : "";
    case "select": {
      const values = typeof value === "string" ? [value] : Array.isArray(value) ? value : [];
      return values.map((v) => field.options?.find((o) => o.value === v)?.label ?? v).join(" ");
    }
    default:
      return "";
  }
}
