import type { ComponentChildren } from "preact";
import type { BlockChange, Piece, RichTextDiff as Diff } from "../../../shared/content/rich-text-diff";

/**
 * One rich-text field's comparison (issue #30 item 9; docs/rich-text-diff.md): the changed blocks
 * in document order, each named ("Heading 3 (was heading 2)", "Table 1, row 2, column 3") with its
 * status in words, its text with insertions (`<ins>`), deletions (`<del>`) and formatting changes
 * (`<mark>`) marked by a word a screen reader reads as well as by colour and a symbol, and the
 * changes in sentences ("“tides” now bold."). Unchanged blocks are counted, not shown.
 */
export function RichTextDiff({ diff }: { diff: Diff }) {
  const changed = diff.blocks.filter((b) => b.status !== "same");
  const unchanged = diff.blocks.length - changed.length;
  return (
    <div class="rich-diff">
      <ol class="rich-diff-blocks">
        {changed.map((block) => (
          <li class={`rich-diff-block rich-diff-${block.status}`}>
            <p class="rich-diff-label">
              <strong>{STATUS_WORDS[block.status]}</strong> {block.label}
              {block.wasLabel ? ` (was ${block.wasLabel.charAt(0).toLowerCase()}${block.wasLabel.slice(1)})` : ""}
            </p>
            {block.pieces.some((p) => p.text.trim() !== "") ? <p class="rich-diff-text">{block.pieces.map(piece)}</p> : null}
            <ul class="rich-diff-notes">
              {block.notes.map((note) => (
                <li>{note}</li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
      {unchanged > 0 ? <p class="muted">{unchanged === 1 ? "1 other block is unchanged." : `${unchanged} other blocks are unchanged.`}</p> : null}
    </div>
  );
}

const STATUS_WORDS: Record<BlockChange["status"], string> = { same: "Unchanged:", added: "Added:", removed: "Removed:", changed: "Changed:" };

/** Text with its formatting shown as it reads (bold, italic, code, links underlined but not followable). */
function formatted(text: string, marks: readonly string[]): ComponentChildren {
  let out: ComponentChildren = text;
  for (const mark of marks) {
    if (mark === "bold") out = <b>{out}</b>;
    else if (mark === "italic") out = <i>{out}</i>;
    else if (mark === "code") out = <code>{out}</code>;
    else if (mark.startsWith("link to ")) out = <span class="rich-diff-link" title={mark}>{out}</span>;
  }
  return out;
}

function piece(p: Piece): ComponentChildren {
  switch (p.op) {
    case "same":
      return formatted(p.text, p.marks);
    case "insert":
      return (
        <ins>
          <span class="visually-hidden">[inserted: </span>
          {formatted(p.text, p.marks)}
          <span class="visually-hidden">]</span>
        </ins>
      );
    case "delete":
      return (
        <del>
          <span class="visually-hidden">[deleted: </span>
          {formatted(p.text, p.marks)}
          <span class="visually-hidden">]</span>
        </del>
      );
    case "format":
      return (
        <mark class="rich-diff-format">
          <span class="visually-hidden">[formatting changed: </span>
          {formatted(p.text, p.marks)}
          <span class="visually-hidden">]</span>
        </mark>
      );
  }
}
