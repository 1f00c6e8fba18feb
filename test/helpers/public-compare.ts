/**
 * Round-trip comparisons of public answers (an exported site imported into a new one): two sites'
 * answers are the same content when they match after `comparable`.
 */

/** Everything of a public answer that names content, without what a new site numbers or dates anew. */
export function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (value === null || typeof value !== "object") return typeof value === "string" && /^(ent|grp|ver|mdl|med)_/.test(value) ? "<id>" : value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value).sort(([a], [b]) => a.localeCompare(b))) {
    if (["published_at", "updated_at", "created_at", "next_cursor", "cursor"].includes(k)) continue;
    out[k] = comparable(v);
  }
  return out;
}
