/**
 * `validation.pattern` of a text field, run by RE2 (re2js): matching time is linear in the value's
 * length whatever the pattern, so a pattern such as `^(a+)+$` cannot stall the site's Durable
 * Object the way a backtracking engine (JavaScript's RegExp) does. RE2 refuses what it cannot run
 * in linear time (backreferences, lookaround); a model apply refuses such patterns
 * (`invalid_field_validation`, see field-validation-rules.ts and docs/field-validation.md).
 */
import { RE2JS } from "re2js";

/** A compiled field pattern: `test` finds a match anywhere in the value, like RegExp.test. */
export interface FieldPattern {
  test(value: string): boolean;
}

/** Compiled patterns by source: models are few and their patterns stable, so compile each once per isolate. */
const compiled = new Map<string, FieldPattern | null>();
/** A bound on the cache: patterns are at most 500 characters, so this holds well under a megabyte. */
const CACHE_LIMIT = 512;

/** Why RE2 cannot compile `pattern`, or undefined when it can. */
export function patternProblem(pattern: string): string | undefined {
  try {
    RE2JS.compile(pattern);
    return undefined;
  } catch (error) {
    // The message quotes the offending part of the pattern, which is the model author's own text.
    return error instanceof Error ? error.message : "The pattern does not compile.";
  }
}

/** The pattern compiled by RE2, or undefined when RE2 cannot compile it (a model saved before RE2 was used). */
export function fieldPattern(pattern: string): FieldPattern | undefined {
  const known = compiled.get(pattern);
  if (known !== undefined) return known ?? undefined;
  let made: FieldPattern | null;
  try {
    const re = RE2JS.compile(pattern);
    made = { test: (value) => re.test(value) };
  } catch {
    made = null;
  }
  if (compiled.size >= CACHE_LIMIT) compiled.clear();
  compiled.set(pattern, made);
  return made ?? undefined;
}
