import { parseFragment, type DefaultTreeAdapterTypes } from "parse5";
import { describe, expect, it } from "vitest";
import { diffRichText } from "../../shared/content/rich-text-diff";
import { richBlocks, type RichNode } from "../../shared/content/rich-text-blocks";

/** A value parsed as the admin's DOMParser parses it (parse5 builds the browser's tree), as RichNodes. */
function tree(html: string): RichNode[] {
  const convert = (nodes: readonly DefaultTreeAdapterTypes.ChildNode[]): RichNode[] =>
    nodes.flatMap((node): RichNode[] => {
      if (node.nodeName === "#text" && "value" in node) return [{ kind: "text", text: node.value }];
      if (!("tagName" in node)) return [];
      return [{ kind: "element", tag: node.tagName, attrs: Object.fromEntries(node.attrs.map((a) => [a.name, a.value])), children: convert(node.childNodes) }];
    });
  return convert(parseFragment(html).childNodes);
}

const diff = (before: string, after: string) => diffRichText(tree(before), tree(after));
/** Only what changed: each block's status, label and notes. */
const changes = (before: string, after: string) => diff(before, after).blocks.filter((b) => b.status !== "same").map((b) => ({ status: b.status, label: b.label, notes: b.notes }));

describe("rich-text diff (issue #30 item 9)", () => {
  it("reads blocks with their kind and words with their formatting", () => {
    const blocks = richBlocks(tree(`<h2>Tides</h2><p>Low <strong>and <em>high</em></strong> <a href="/t" target="_blank">water</a></p><ul><li>one<ol><li>two</li></ol></li></ul><blockquote><p>q</p></blockquote>`));
    expect(blocks.map((b) => b.label)).toEqual(["Heading 2", "Paragraph", "Bulleted list item", "Numbered list item, level 2", "Quoted paragraph"]);
    expect(blocks[1]?.words.filter((w) => w.text !== " ")).toEqual([
      { text: "Low", marks: [] },
      { text: "and", marks: ["bold"] },
      { text: "high", marks: ["bold", "italic"] },
      { text: "water", marks: ["link to /t (opens in a new tab)"] },
    ]);
  });

  it("finds nothing when only white space between blocks differs", () => {
    expect(diff(`<p>a  b</p>\n<p>c</p>`, `<p>a b</p><p>c</p>`).changed).toBe(false);
  });

  it("names formatting changes that flattened text would hide", () => {
    expect(changes(`<p>Low and high water</p>`, `<p>Low and <strong>high</strong> water</p>`)).toEqual([{ status: "changed", label: "Paragraph", notes: ["“high” now bold."] }]);
    expect(changes(`<p>see <em>chart</em></p>`, `<p>see chart</p>`)).toEqual([{ status: "changed", label: "Paragraph", notes: ["“chart” no longer italic."] }]);
    expect(changes(`<p>see <a href="/a">chart</a></p>`, `<p>see <a href="/a" target="_blank" rel="noopener noreferrer">chart</a></p>`)).toEqual([
      { status: "changed", label: "Paragraph", notes: ["“chart” now a link to /a (opens in a new tab), no longer a link to /a."] },
    ]);
    expect(changes(`<p>see chart</p>`, `<p>see <a href="https://x.test/">chart</a></p>`)[0]?.notes).toEqual(["“chart” now a link to https://x.test/."]);
    // Punctuation is its own word: "chart." and a linked "chart" then "." differ by the link only.
    expect(changes(`<p>see chart.</p>`, `<p>see <a href="/c" target="_blank" rel="noopener noreferrer">chart</a>.</p>`)[0]?.notes).toEqual(["“chart” now a link to /c (opens in a new tab)."]);
  });

  it("names a heading level or list kind change", () => {
    expect(changes(`<h2>Tides</h2><p>x</p>`, `<h3>Tides</h3><p>x</p>`)).toEqual([{ status: "changed", label: "Heading 3", notes: ["Heading 2 became heading 3."] }]);
    expect(changes(`<p>Tides</p>`, `<h2>Tides</h2>`)[0]?.notes).toEqual(["Paragraph became heading 2."]);
    expect(changes(`<ul><li>a</li><li>b</li></ul>`, `<ol><li>a</li><li>b</li></ol>`).map((c) => c.notes)).toEqual([["Bulleted list item became numbered list item."], ["Bulleted list item became numbered list item."]]);
    const pieces = diff(`<h2>Tides</h2>`, `<h3>Tides</h3>`).blocks[0];
    expect(pieces?.wasLabel).toBe("Heading 2");
  });

  it("marks words inserted and deleted, with their formatting", () => {
    const d = diff(`<p>Low water at six</p>`, `<p>Low <strong>tide</strong> water at seven</p>`);
    expect(d.blocks[0]?.pieces).toEqual([
      { op: "same", text: "Low ", marks: [] },
      { op: "insert", text: "tide", marks: ["bold"] },
      { op: "insert", text: " ", marks: [] },
      { op: "same", text: "water at ", marks: [] },
      { op: "delete", text: "six", marks: [] },
      { op: "insert", text: "seven", marks: [] },
    ]);
    expect(d.blocks[0]?.notes).toEqual(["Inserted “tide”.", "Deleted “six”.", "Inserted “seven”."]);
  });

  it("compares tables cell by cell, a row inserted above leaving the cells below unchanged", () => {
    const table = (rows: string[][]) => `<table><thead><tr><th>Day</th><th>High</th></tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join("")}</tr>`).join("")}</tbody></table>`;
    expect(changes(table([["Mon", "06:12"], ["Tue", "06:58"]]), table([["Mon", "06:15"], ["Tue", "06:58"]]))).toEqual([{ status: "changed", label: "Table 1, row 2, column 2", notes: ["Deleted “06:12”.", "Inserted “06:15”."] }]);
    expect(changes(table([["Mon", "06:12"]]), table([["Sun", "05:40"], ["Mon", "06:12"]]))).toEqual([
      { status: "added", label: "Table 1, row 2, column 1", notes: ["Added table 1, row 2, column 1: “Sun”."] },
      { status: "added", label: "Table 1, row 2, column 2", notes: ["Added table 1, row 2, column 2: “05:40”."] },
    ]);
    expect(changes(table([["Mon", "06:12"]]), table([["Mon", "<strong>06:12</strong>"]]))).toEqual([{ status: "changed", label: "Table 1, row 2, column 2", notes: ["“06:12” now bold."] }]);
    // Columns count spans: the cell after a colspan=2 is column 3.
    expect(richBlocks(tree(`<table><tr><td colspan="2">a</td><td>b</td></tr></table>`)).map((b) => b.label)).toEqual(["Table 1, row 1, column 1", "Table 1, row 1, column 3"]);
  });

  it("adds and removes whole blocks, images and embeds included, in document order", () => {
    expect(changes(`<p>one</p><p>three</p>`, `<p>one</p><p>two</p><p>three</p><hr>`)).toEqual([
      { status: "added", label: "Paragraph", notes: ["Added paragraph: “two”."] },
      { status: "added", label: "Horizontal rule", notes: ["Added horizontal rule."] },
    ]);
    expect(changes(`<p>a</p><p><img src="/x.png" alt="Dunes"></p>`, `<p>a</p>`)).toEqual([{ status: "removed", label: "Paragraph", notes: ["Removed paragraph: “[image: Dunes (/x.png)]”."] }]);
    expect(changes(`<figure data-embed="https://www.youtube.com/embed/aaaaaaaaaaa"></figure>`, ``)[0]?.notes).toEqual(["Removed embed: “https://www.youtube.com/embed/aaaaaaaaaaa”."]);
  });

  it("stays linear enough on a long value: an edit in the middle of 3,000 paragraphs", () => {
    const many = (edit: string) => Array.from({ length: 3000 }, (_, i) => `<p>${i === 1500 ? edit : `paragraph ${i}`}</p>`).join("");
    const started = Date.now();
    expect(changes(many("paragraph 1500"), many("paragraph <em>1500</em>"))).toEqual([{ status: "changed", label: "Paragraph", notes: ["“1500” now italic."] }]);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
