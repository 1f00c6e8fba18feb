import { AppError } from "../errors";

/**
 * The deepest nesting a JSON body may have: objects and arrays inside each other. Far above any
 * body the service defines (a model definition nests about 6 levels, a plugin manifest's
 * `input_schema` a few more), far below what recursive code over a parsed value (fingerprints,
 * validation, JSON.stringify) can survive.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether JSON text nests objects and arrays deeper than `max`, found by one pass over the text
 * (brackets inside strings skipped) without parsing or recursion, so a body 100,000 levels deep
 * costs a loop, not a stack. Text that is not JSON may pass; the parser refuses it afterwards.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/**
 * JSON text parsed after its nesting depth is checked: deeper than {@link MAX_JSON_DEPTH} or not
 * JSON is 400 invalid_request. Every request body of every surface is parsed here.
 */
export function parseJsonWithinDepth(text: string): unknown {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw new AppError("invalid_request", `The body nests objects and arrays more than ${MAX_JSON_DEPTH} deep.`, { max_depth: MAX_JSON_DEPTH });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError("invalid_request", "The body is not valid JSON.");
  }
}
