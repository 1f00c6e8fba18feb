import type { Word } from "./rich-text-blocks";

/**
 * How a rich-text comparison speaks (rich-text-diff.ts): formatting named in words, quoted text,
 * labels inside a sentence, so every change reads for screen readers and without colour.
 */

/** Marks as the adjective a note uses ("made bold", "no longer underlined"). */
const ADJECTIVES: Readonly<Record<string, string>> = {
  bold: "bold", italic: "italic", underline: "underlined", strikethrough: "struck through", code: "code", subscript: "subscript",
  superscript: "superscript", highlight: "highlighted", "small print": "small print", quotation: "a quotation",
};

export const describeMark = (mark: string, on: boolean): string => {
  const what = mark.startsWith("link to ") ? `a ${mark}` : (ADJECTIVES[mark] ?? mark);
  return on ? `now ${what}` : `no longer ${what}`;
};

/** A text quoted for a note: white space collapsed, long text shortened. */
export function quote(text: string): string {
  const t = text.replace(/\s+/g, " ").trim();
  return `“${t.length > 80 ? `${t.slice(0, 77)}…` : t}”`;
}

export const textOf = (words: readonly Word[]): string => words.map((w) => w.text).join("");
export const lower = (label: string): string => label.charAt(0).toLowerCase() + label.slice(1);
