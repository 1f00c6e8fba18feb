import type { ManageAnswer } from "../api/client";
import "../styles/plugins.css";

type Block = ManageAnswer<"invokePluginOperation">["result"]["blocks"][number];

/**
 * An operation's answer as a person reads it (docs/plugin-operations.md, "Result blocks"): text
 * as paragraphs, rows as a table, links (https only, checked by the service) opening in a new
 * tab, json as formatted text. Every value is rendered as text, never as markup.
 */
export function ResultBlocks({ blocks, label }: { blocks: readonly Block[]; label: string }) {
  return (
    <div class="result-blocks" aria-label={label} role="group">
      {blocks.map((block) => {
        if (block.type === "text") return <p class="result-text">{block.text}</p>;
        if (block.type === "rows") {
          return (
            <div class="result-table" role="region" aria-label={`${label}: table`} tabIndex={0}>
              <table>
                <thead>
                  <tr>
                    {block.columns.map((c) => (
                      <th scope="col">{c}</th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {block.rows.map((row) => (
                    <tr>
                      {row.map((cell) => (
                        <td>{cell === null ? "—" : String(cell)}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          );
        }
        if (block.type === "links") {
          return (
            <ul class="result-links">
              {block.links.map((l) => (
                <li>
                  <a href={l.url} target="_blank" rel="noopener noreferrer">
                    {l.label}
                  </a>
                </li>
              ))}
            </ul>
          );
        }
        return <pre class="result-json">{JSON.stringify(block.value, null, 2)}</pre>;
      })}
    </div>
  );
}
