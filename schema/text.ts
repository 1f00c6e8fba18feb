import * as v from "valibot";
import { AppError } from "../shared/errors";
import { codePointLength, hasBidiControl, hasControlCharacter, isReadableName, isWellFormedText } from "../shared/content/plain-text";

/** Refuses text with a lone surrogate (400 invalid_request through the route's parse). */
export const wellFormed = () => v.check<string, string>(isWellFormedText, "contains a lone surrogate (not well-formed Unicode)");

/** Refuses text with control characters (C0, DEL, C1). */
export const noControls = () => v.check<string, string>((text) => !hasControlCharacter(text), "contains control characters");

/** Refuses text with bidirectional controls (overrides, embeddings, isolates, marks). */
export const noBidiControls = () => v.check<string, string>((text) => !hasBidiControl(text), "contains bidirectional control characters");

/**
 * At most `max` characters as people count them: code points, so an emoji is one although it takes
 * two UTF-16 units (what `v.maxLength` counts) — the count folder names, OAuth app names, plugin
 * input and search terms use (docs/media.md, "Text in names and alt texts"). JSON Schema's
 * `maxLength` counts code points too, so the contract states the same limit. Spread it into a pipe
 * (`v.pipe(v.string(), ...maxCharacters(80))`): a nested pipe's metadata would not reach the contract.
 */
export const maxCharacters = (max: number) =>
  [v.metadata<string, { readonly maxLength: number }>({ maxLength: max }), v.check<string, string>((text) => codePointLength(text) <= max, `Invalid length: Expected at most ${max} characters`)] as const;

/**
 * Well-formed text without control characters; with `lines`, line breaks and tabs are kept (a
 * note, a comment's body), every other control still refused.
 */
export const plainText = (lines: boolean) =>
  v.check<string, string>((text) => isWellFormedText(text) && !hasControlCharacter(lines ? text.replace(/\r?\n|\t/g, "") : text), "contains control characters or is not well-formed Unicode");

/**
 * A note a person writes for another (a proposal's note): well-formed, line breaks and tabs kept,
 * no other control character — a reviewer reads it as it is.
 */
export const noteText = (max: number) => v.pipe(v.string(), ...maxCharacters(max), plainText(true));

/**
 * A name people read in the admin's lists and pickers (a role, a model, a release, a field's or an
 * option's label): well-formed, without control characters, line separators, bidirectional controls
 * or other invisible format characters — the rule OAuth app names and media folder names follow
 * (docs/security.md, "Text in names"), so a name cannot show reversed (U+202E), break into two
 * lines (U+2028) or look like another one (U+200B). Emoji sequences and scripts' joiners stay.
 * `what` names the text in the message ("Field label …").
 */
export const readableName = (what?: string) =>
  v.check<string, string>(
    isReadableName,
    `${what ? `${what} ` : ""}is not well-formed Unicode, or contains control characters, line separators, bidirectional controls or invisible format characters`,
  );

/**
 * Names JavaScript objects treat specially. valibot's `record` skips them silently (it would drop
 * `{"constructor":"x"}` to `{}`), so a map keyed by language refuses them first, as the unknown
 * languages they are.
 */
const RESERVED_KEYS = ["__proto__", "constructor", "prototype"];

/**
 * A JSON object of texts by language (`alt_texts`): not an array, not null; a key that is a reserved
 * object name is refused as an unknown language (422 `unknown_locale`, no language code is one);
 * every value a well-formed string of at most `max` characters (else 400 through the route's parse).
 * Checked against the site's languages by the service.
 */
export function textsByLanguage(max: number, description: string) {
  return v.pipe(
    v.custom<Record<string, unknown>>((input) => typeof input === "object" && input !== null && !Array.isArray(input), "expected a JSON object of texts by language"),
    // The JSON Schema of the contract and MCP tools stops at the pipe's second schema (the record), so it is stated here.
    v.metadata({ type: "object", propertyNames: { minLength: 1, maxLength: 35 }, additionalProperties: { type: "string", maxLength: max }, description }),
    v.check((input) => {
      const reserved = Object.keys(input).filter((key) => RESERVED_KEYS.includes(key));
      // Thrown, not an issue: this is the service's unknown_locale refusal, made where the key is still visible.
      if (reserved.length > 0) throw new AppError("unknown_locale", "alt_texts names languages the site does not have.", { languages: reserved });
      return true;
    }),
    v.record(v.pipe(v.string(), v.minLength(1), v.maxLength(35)), v.pipe(v.string(), v.maxLength(max), wellFormed())),
  );
}
