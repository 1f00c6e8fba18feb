import * as v from "valibot";
import { RESULT_BLOCK_KINDS, type ResultBlockKind } from "../../../schema/plugin-manifest";

/**
 * The result of an operation run (spec 2, "Plugin items": blocks `text`, `rows`, `links` (https
 * only), `json`), checked before the service answers: anything else the plugin sends is 502
 * `plugin_response_invalid`, so a caller never receives what it could not render safely.
 * Limits (docs/plugin-operations.md, "Answers"): 50 blocks; text 20000 characters; rows 20
 * columns × 500 rows of strings, numbers, booleans or null; 100 links each with a label and an
 * `https:` URL; the whole answer at most 256 KiB.
 */

export const MAX_RESULT_BYTES = 256 * 1024;

const Label = v.pipe(v.string(), v.minLength(1), v.maxLength(200));
const Cell = v.union([v.pipe(v.string(), v.maxLength(2000)), v.pipe(v.number(), v.finite()), v.boolean(), v.null()]);

function isHttps(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.username === "" && url.password === "";
  } catch {
    return false;
  }
}

const TextBlock = v.strictObject({ type: v.literal("text"), text: v.pipe(v.string(), v.maxLength(20_000)) });
const RowsBlock = v.pipe(
  v.strictObject({
    type: v.literal("rows"),
    columns: v.pipe(v.array(Label), v.minLength(1), v.maxLength(20)),
    rows: v.pipe(v.array(v.array(Cell)), v.maxLength(500)),
  }),
  v.check((block) => block.rows.every((row) => row.length === block.columns.length), "every row has one cell per column"),
);
const LinksBlock = v.strictObject({
  type: v.literal("links"),
  links: v.pipe(
    v.array(v.strictObject({ label: Label, url: v.pipe(v.string(), v.maxLength(2000), v.check(isHttps, "links must be https URLs")) })),
    v.maxLength(100),
  ),
});
const JsonBlock = v.strictObject({ type: v.literal("json"), value: v.unknown() });

export const ResultBlockSchema = v.variant("type", [TextBlock, RowsBlock, LinksBlock, JsonBlock]);
export type ResultBlock = v.InferOutput<typeof ResultBlockSchema>;

/** What a plugin answers to an operation call: completed with blocks, or refused in its own words. */
export const OperationAnswerSchema = v.variant("outcome", [
  v.strictObject({ outcome: v.literal("completed"), result: v.strictObject({ blocks: v.pipe(v.array(ResultBlockSchema), v.maxLength(50)) }) }),
  v.strictObject({
    outcome: v.literal("refused"),
    refusal: v.strictObject({ code: v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_]{0,63}$/)), message: v.pipe(v.string(), v.minLength(1), v.maxLength(500)) }),
  }),
]);
export type OperationAnswer = v.InferOutput<typeof OperationAnswerSchema>;

/** The first problem of an answer, or null; blocks of a kind the operation does not declare count. */
export function answerProblem(answer: unknown, declared: readonly ResultBlockKind[] = RESULT_BLOCK_KINDS): { problem: string } | { answer: OperationAnswer } {
  const parsed = v.safeParse(OperationAnswerSchema, answer);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const path = issue.path?.map((p) => String(p.key)).join(".") ?? "";
    return { problem: `${path ? `${path}: ` : ""}${issue.message}` };
  }
  if (parsed.output.outcome === "completed") {
    const stray = parsed.output.result.blocks.find((block) => !declared.includes(block.type));
    if (stray) return { problem: `a ${stray.type} block, which the operation does not declare` };
  }
  return { answer: parsed.output };
}
