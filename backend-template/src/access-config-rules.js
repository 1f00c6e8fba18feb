// The one validator of ACCESS_CONFIG (docs/generated-backend.md, "Access"): run by the local
// server and the worker at start, and by the deploy script. Plain JavaScript so every one of them
// can import it without a build step.

const HEX64 = /^[0-9a-f]{64}$/;
const TOKEN_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The problems of an access configuration value (a JSON string or an object), or [] when valid.
 * @param {unknown} value
 * @param {{ site: string, models: readonly string[] }} expected
 * @returns {string[]}
 */
export function accessConfigProblems(value, expected) {
  let config = value;
  if (typeof value === "string") {
    try {
      config = JSON.parse(value);
    } catch {
      return ["ACCESS_CONFIG is not JSON."];
    }
  }
  if (typeof config !== "object" || config === null || Array.isArray(config)) return ["ACCESS_CONFIG must be an object { version, site, tokens }."];
  const problems = [];
  for (const key of Object.keys(config)) if (!["version", "site", "tokens"].includes(key)) problems.push(`ACCESS_CONFIG has an unknown key "${key}".`);
  if (config.version !== 1) problems.push("ACCESS_CONFIG.version must be 1.");
  if (config.site !== expected.site) problems.push(`ACCESS_CONFIG.site must be "${expected.site}", this backend's site.`);
  if (!Array.isArray(config.tokens)) return [...problems, "ACCESS_CONFIG.tokens must be an array (empty when none)."];
  const ids = new Set();
  const digests = new Set();
  config.tokens.forEach((token, index) => {
    const at = `ACCESS_CONFIG.tokens[${index}]`;
    if (typeof token !== "object" || token === null || Array.isArray(token)) return problems.push(`${at} must be an object { id, digest, models }.`);
    for (const key of Object.keys(token)) if (!["id", "digest", "models"].includes(key)) problems.push(`${at} has an unknown key "${key}" (read tokens carry no write permission).`);
    if (typeof token.id !== "string" || !TOKEN_ID.test(token.id)) problems.push(`${at}.id must be 1 to 64 letters, digits, _ or -.`);
    else if (ids.has(token.id)) problems.push(`${at}.id "${token.id}" is used twice.`);
    else ids.add(token.id);
    if (typeof token.digest !== "string" || !HEX64.test(token.digest)) problems.push(`${at}.digest must be a lower-case hex SHA-256.`);
    else if (digests.has(token.digest)) problems.push(`${at}.digest is used twice.`);
    else digests.add(token.digest);
    if (!Array.isArray(token.models) || token.models.length === 0) problems.push(`${at}.models must be a non-empty array of model names or "*".`);
    else for (const model of token.models) if (model !== "*" && !expected.models.includes(model)) problems.push(`${at}.models names "${model}", which is not a model of this backend.`);
  });
  return problems;
}

/**
 * ACCESS_CONFIG of a managed deployment (spec 3, "Authentication"): the union of the owner's own
 * value (wrangler.jsonc `vars.ACCESS_CONFIG`) and the tokens the CMS issued
 * (`access/read-tokens.json`). A refusal names its code; the deploy script stops on it before any
 * database or worker change.
 * @param {unknown} owned the owner's value (a JSON string or an object), undefined when none
 * @param {unknown} generated the generated file's value (a JSON string or an object)
 * @param {{ site: string, models: readonly string[] }} expected
 * @returns {{ ok: true, config: { version: 1, site: string, tokens: unknown[] } } | { ok: false, code: string, problems: string[] }}
 */
export function accessConfigUnion(owned, generated, expected) {
  const ownedValue = owned === undefined ? { version: 1, site: expected.site, tokens: [] } : owned;
  const ownedProblems = accessConfigProblems(ownedValue, expected);
  if (ownedProblems.length > 0) return { ok: false, code: "owned_access_config_invalid", problems: ownedProblems.map((p) => `the owner's value: ${p}`) };
  const generatedProblems = accessConfigProblems(generated, expected);
  if (generatedProblems.length > 0) return { ok: false, code: "generated_access_tokens_invalid", problems: generatedProblems.map((p) => `access/read-tokens.json: ${p}`) };
  const mine = (typeof ownedValue === "string" ? JSON.parse(ownedValue) : ownedValue).tokens;
  const issued = (typeof generated === "string" ? JSON.parse(generated) : generated).tokens;
  const ids = new Set(mine.map((t) => t.id));
  const conflicts = issued.filter((t) => ids.has(t.id)).map((t) => `token id "${t.id}" is in both the owner's value and access/read-tokens.json.`);
  if (conflicts.length > 0) return { ok: false, code: "access_token_id_conflict", problems: conflicts };
  const config = { version: 1, site: expected.site, tokens: [...issued, ...mine] };
  const unionProblems = accessConfigProblems(config, expected);
  if (unionProblems.length > 0) return { ok: false, code: "access_config_union_invalid", problems: unionProblems.map((p) => `the union: ${p}`) };
  return { ok: true, config };
}
