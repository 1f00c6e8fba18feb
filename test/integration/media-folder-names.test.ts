import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";

/**
 * Media folder names as people see them (issue 22 item 7; docs/media.md, "Folders"): the limit of
 * 80 counts characters (code points), not UTF-16 units; uniqueness under a parent compares names
 * after NFC and case folding (`nameKey`, shared/content/plain-text.ts), so names that look the same
 * cannot coexist; invisible format characters (Unicode Cf) are refused.
 */

type Folder = { id: string; name: string; revision: number };
type Answer = { folder: Folder; error?: { code: string; field?: string } };

async function setup() {
  const s = await seedSite();
  const token = await credential(s);
  const create = (name: string, parent_id?: string) => manage<Answer>(token, "POST", "/media/folders", { body: { name, ...(parent_id ? { parent_id } : {}) } });
  const rename = (folder: Folder, name: string) => manage<Answer>(token, "PUT", `/media/folders/${folder.id}`, { body: { name, expected_revision: folder.revision } });
  return { s, token, create, rename };
}

describe("media folder names", () => {
  it("counts code points: 41 and 80 emoji are accepted, 81 code points refused", async () => {
    const { create } = await setup();
    const forty1 = await create("👍".repeat(41));
    expect(forty1.status, JSON.stringify(forty1.body)).toBe(201);
    expect(forty1.body.folder.name).toBe("👍".repeat(41));
    expect((await create("📁".repeat(80))).status).toBe(201);
    for (const name of ["📂".repeat(81), "a".repeat(81), `${"b".repeat(79)}🎉🎉`]) {
      const refused = await create(name);
      expect(refused.status, name).toBe(400);
      expect(refused.body.error).toMatchObject({ code: "invalid_request", field: "name" });
    }
    expect((await create("c".repeat(80))).status).toBe(201);
  });

  it("composed and decomposed accents are one name; so are case variants (with full case folding)", async () => {
    const { create, rename } = await setup();
    expect((await create("Caf\u00e9")).status).toBe(201);
    const decomposed = await create("Cafe\u0301");
    expect(decomposed.status).toBe(409);
    expect(decomposed.body.error?.code).toBe("media_folder_exists");
    expect((await create("CAFE\u0301")).status).toBe(409);
    expect((await create("Stra\u00dfe")).status).toBe(201);
    expect((await create("STRASSE")).status).toBe(409);
    expect((await create("strasse")).status).toBe(409);
    // Renaming into a look-alike of a sibling is refused the same way.
    const other = await create("Other");
    expect(other.status).toBe(201);
    const renamed = await rename(other.body.folder, "cAFE\u0301");
    expect(renamed.status).toBe(409);
    expect(renamed.body.error?.code).toBe("media_folder_exists");
    // Under another parent the same name is fine.
    expect((await create("Cafe\u0301", other.body.folder.id)).status).toBe(201);
  });

  it("stores the name in NFC", async () => {
    const { create } = await setup();
    const made = await create("Cre\u0300me");
    expect(made.status).toBe(201);
    expect(made.body.folder.name).toBe("Cr\u00e8me");
  });

  it("refuses invisible format characters (zero-width space, word joiner, BOM, soft hyphen, a zero-width joiner between letters)", async () => {
    const { s, create } = await setup();
    expect((await create("folder")).status).toBe(201);
    for (const name of ["fol\u200bder", "folder\u2060", "fol\ufeffder", "fol\u00adder", "fol\u200dder", "fol\u200cder", "folder\u{e0041}"]) {
      const refused = await create(name);
      expect(refused.status, JSON.stringify(name)).toBe(400);
      expect(refused.body.error).toMatchObject({ code: "invalid_request", field: "name" });
    }
    const rows = await env.DB.prepare("SELECT name FROM media_folders WHERE site_id = ?").bind(s.site.id).all<{ name: string }>();
    expect(rows.results.map((r) => r.name)).toEqual(["folder"]);
  });

  it("accepts format characters that are part of what the name shows: emoji sequences, flag tags, Persian and Indic joiners", async () => {
    const { create } = await setup();
    for (const name of ["👩\u200d💻 Team", "👨\u200d👩\u200d👧", "🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f} Scotland", "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", "\u0915\u094d\u200d\u0937"]) {
      const made = await create(name);
      expect(made.status, `${JSON.stringify(name)} ${JSON.stringify(made.body)}`).toBe(201);
    }
  });

  it("compares with rows stored before names were NFC and case folded", async () => {
    const { s, create } = await setup();
    // A row as the earlier code stored it: the name as sent (decomposed) and lower(name) as its key.
    const legacy = "Cre\u0300me Br\u00fbl\u00e9e";
    await env.DB.prepare("INSERT INTO media_folders (id, site_id, parent_id, name, name_key, revision, created_at, updated_at) VALUES (?, ?, NULL, ?, ?, 0, ?, ?)")
      .bind(`mfd_legacy${Date.now()}`, s.site.id, legacy, legacy.toLowerCase(), new Date().toISOString(), new Date().toISOString())
      .run();
    const clash = await create("CR\u00c8ME BR\u00dbL\u00c9E");
    expect(clash.status).toBe(409);
    expect(clash.body.error?.code).toBe("media_folder_exists");
  });
});
