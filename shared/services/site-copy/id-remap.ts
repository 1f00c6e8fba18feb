import { sha256Hex } from "../../crypto/digest";

/**
 * New ids of a site copy (docs/site-copy.md, "Ids"). Every id a copied row holds for something the
 * copy also copies — models, entries and their translation groups, versions, media items, folders,
 * objects, roles — becomes a new id, wherever it appears: in its own column, in a reference
 * column, inside JSON (fields, permissions, published bodies, mentions) and in R2 object keys.
 *
 * The new id is derived, not drawn: SHA-256 of the copy's salt and the old id, so the same old id
 * becomes the same new id in every request of one copy. Nothing maps old to new ids in storage,
 * a page copied twice after an interruption is inserted once (`INSERT OR IGNORE`), and a reference
 * copied before its target (or after) still meets it.
 *
 * Ids are `<prefix>_<21 letters and digits>` (shared/ids.ts); the prefixes below are the kinds a
 * copy owns. Person ids (`per_`), credentials and every other kind are kept as they are.
 */
export const COPIED_ID_PREFIXES = ["mdl", "ent", "grp", "ver", "med", "mfd", "obj", "role"] as const;

const ID_TOKEN = new RegExp(`\\b(?:${COPIED_ID_PREFIXES.join("|")})_[0-9A-Za-z]{21}\\b`, "g");
const BASE62 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

export class IdRemap {
  readonly #known = new Map<string, string>();

  /**
   * @param salt the copy's own id: two copies of one template get different ids.
   * @param fixed old → new ids decided otherwise (a template model landing on the target's model of the same slug).
   * @param sites the template's site id and the target's.
   */
  constructor(
    readonly salt: string,
    readonly sites: { from: string; to: string },
    fixed: ReadonlyMap<string, string> = new Map(),
  ) {
    for (const [from, to] of fixed) this.#known.set(from, to);
  }

  /** Works out the new id of every copied id in these texts (async: SHA-256); then {@link text} is synchronous. */
  async learn(texts: Iterable<string>): Promise<void> {
    const pending = new Set<string>();
    for (const text of texts) for (const token of text.match(ID_TOKEN) ?? []) if (!this.#known.has(token)) pending.add(token);
    await Promise.all(
      [...pending].map(async (old) => {
        const prefix = old.slice(0, old.indexOf("_"));
        const digest = await sha256Hex(`${this.salt}:${old}`);
        let suffix = "";
        // 21 base-62 characters from the digest's bytes (bias is irrelevant here: uniqueness is what counts).
        for (let i = 0; i < 42 && suffix.length < 21; i += 2) suffix += BASE62[Number.parseInt(digest.slice(i, i + 2), 16) % 62];
        this.#known.set(old, `${prefix}_${suffix}`);
      }),
    );
  }

  /** A text with the template's site id and every learnt id replaced. */
  text(value: string): string {
    const sited = value.includes(this.sites.from) ? value.split(this.sites.from).join(this.sites.to) : value;
    return sited.replace(ID_TOKEN, (token) => this.#known.get(token) ?? token);
  }

  /** A row as the target gets it: `site_id` set, every text rewritten. */
  async row(row: Record<string, unknown>): Promise<Record<string, unknown>> {
    await this.learn(Object.values(row).filter((v): v is string => typeof v === "string"));
    const out: Record<string, unknown> = {};
    for (const [column, value] of Object.entries(row)) out[column] = typeof value === "string" ? this.text(value) : value;
    out.site_id = this.sites.to;
    return out;
  }
}
