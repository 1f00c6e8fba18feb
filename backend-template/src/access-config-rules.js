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
