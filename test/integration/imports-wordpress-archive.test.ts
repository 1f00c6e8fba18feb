import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { addModel, seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { jpeg } from "../helpers/media-samples";
import { publicGet } from "../helpers/public-api";
import { advanceWhile, allFindings, newImport, step, uploadFile, type ImportJob } from "../helpers/imports-api";
import { keepItems } from "../helpers/wxr-derive";
import { buildZip, type ZipInput } from "../helpers/zip-build";
import themeUnitTest from "../fixtures/wordpress/themeunittestdata.wordpress.xml?raw";

const encoder = new TextEncoder();
/** Three posts of the theme unit test export with their featured images' attachments (1022, 1027; 1628's file is not in the archive). */
const WXR = encoder.encode(keepItems(themeUnitTest, ["1011", "1022", "1016", "1027", "1163", "1628"]));

type PublicItem = { data: { media: Record<string, { id: string; file_name: string }[]> } };
const itemsOf = async (siteId: string, jobId: string) => (await env.DB.prepare("SELECT COUNT(*) AS n FROM import_items WHERE site_id = ? AND job_id = ?").bind(siteId, jobId).first<{ n: number }>())?.n;

/** An import of `archive` advanced once: the step that looks at the upload. */
async function firstStep(token: string, archive: Uint8Array, fileName = "export.xml"): Promise<{ job: ImportJob; after: ImportJob }> {
  const job = await newImport(token, "wordpress", fileName);
  const uploaded = await uploadFile(token, job.id, archive);
  if (uploaded.status !== 200) throw new Error(`upload: ${uploaded.status} ${JSON.stringify(uploaded.body)}`);
  const advanced = await step(token, job.id, "advance");
  if (advanced.status !== 200) throw new Error(`advance: ${advanced.status} ${JSON.stringify(advanced.body)}`);
  return { job, after: advanced.body.import };
}

const zeros = new Uint8Array(3 * 1024 * 1024);
const xs = encoder.encode("x".repeat(300_000));
/** Archives a job must refuse, each with the reason its finding gives (and the entry it names). */
const HOSTILE: { name: string; entries: () => Promise<ZipInput[]>; reason: string; entry?: string }[] = [
  { name: "no WXR file", entries: async () => [{ name: "readme.txt", data: encoder.encode("hello") }], reason: "no_wxr" },
  { name: "two WXR files", entries: async () => [{ name: "a.xml", data: WXR.subarray(0, 100) }, { name: "b/b.xml", data: WXR.subarray(0, 100) }], reason: "several_wxr" },
  { name: "an archive inside", entries: async () => [{ name: "export.xml", data: WXR.subarray(0, 100) }, { name: "uploads.zip", data: encoder.encode("PK") }], reason: "nested_archive", entry: "uploads.zip" },
  { name: "a WXR entry that is a ZIP file", entries: async () => [{ name: "export.xml", data: await buildZip([{ name: "inner.xml", data: WXR.subarray(0, 100) }]), store: true }], reason: "nested_archive", entry: "export.xml" },
  { name: "a name climbing out", entries: async () => [{ name: "../../etc/export.xml", data: WXR.subarray(0, 100) }], reason: "unsafe_path", entry: "../../etc/export.xml" },
  { name: "an absolute name", entries: async () => [{ name: "/tmp/export.xml", data: WXR.subarray(0, 100) }], reason: "unsafe_path" },
  { name: "an encrypted entry", entries: async () => [{ name: "export.xml", data: WXR.subarray(0, 100), encrypted: true }], reason: "encrypted" },
  { name: "a bzip2 entry", entries: async () => [{ name: "export.xml", data: WXR.subarray(0, 100), store: true, method: 12 }], reason: "unsupported" },
  { name: "an absurd ratio (3 MiB of zeros)", entries: async () => [{ name: "export.xml", data: zeros }], reason: "compression_ratio" },
  { name: "a declared size past the WXR limit", entries: async () => [{ name: "export.xml", data: encoder.encode("x".repeat(600_000)), store: true, declaredSize: 101 * 1024 * 1024 }], reason: "too_large" },
  { name: "an entry inflating past its declared size", entries: async () => [{ name: "export.xml", data: xs, declaredSize: 1000 }], reason: "too_large" },
  { name: "a wrong CRC-32", entries: async () => [{ name: "export.xml", data: WXR.subarray(0, 2000), crc32: 12345 }], reason: "corrupt" },
];

describe("WordPress import: a ZIP upload (the WXR file and the attachments' files)", () => {
  let s: SeededSite;
  let token: string;

  it("unpacks the one WXR file (recognised by content, not by name), then takes attachments from the archive by their path", async () => {
    s = await seedSite();
    const post = await addModel(s.ctx(), {
      slug: "post",
      name: "Post",
      fields: [
        { key: "title", label: "Title", type: "text", required: true, title: true },
        { key: "body", label: "Body", type: "rich_text" },
        { key: "featured_image", label: "Featured image", type: "media" },
      ],
    });
    token = await credential(s);
    const horizontal = jpeg(640, 480);
    const vertical = jpeg(480, 640);
    const archive = await buildZip([
      { name: "export/", data: new Uint8Array(), store: true },
      { name: "export/wordpress-2024-05-02.xml", data: WXR },
      // macOS's resource fork of the file: left out, not a second WXR file.
      { name: "__MACOSX/export/._wordpress-2024-05-02.xml", data: encoder.encode("\0\u0005\u0016\u0007 fork") },
      // The site's uploads folder as zipped from wp-content, and one file zipped from inside uploads/.
      { name: "wp-content/uploads/2013/03/featured-image-horizontal.jpg", data: horizontal, store: true },
      { name: "2013/03/featured-image-vertical.jpg", data: vertical },
    ]);
    // Named .xml by the client: the bytes say ZIP.
    const { job, after } = await firstStep(token, archive, "export.xml");
    expect(after).toMatchObject({ state: "parsing", failure: null });
    expect(after.file.bytes).toBe(WXR.length);
    expect(after.file.sha256).toBe(job.file.sha256 ?? after.file.sha256);
    expect((await advanceWhile(token, job.id, ["uploaded", "parsing"])).state).toBe("review");
    expect((await step(token, job.id, "wordpress/review", { mapping: { post: post.id, page: null, category: null, tag: null }, approve: true })).status).toBe(200);
    expect((await advanceWhile(token, job.id, ["review", "writing"], 10)).state).toBe("done");

    const media = (await env.DB.prepare("SELECT id, file_name, byte_length FROM media WHERE site_id = ? ORDER BY file_name").bind(s.site.id).all<{ id: string; file_name: string; byte_length: number }>()).results;
    expect(media.map((m) => [m.file_name, m.byte_length])).toEqual([
      ["featured-image-horizontal.jpg", horizontal.length],
      ["featured-image-vertical.jpg", vertical.length],
    ]);
    const h = await publicGet<PublicItem>(s.host, "/v1/post/template-featured-image-horizontal");
    expect(h.body.data.media.featured_image?.[0]?.file_name).toBe("featured-image-horizontal.jpg");
    const v = await publicGet<PublicItem>(s.host, "/v1/post/template-featured-image-vertical");
    expect(v.body.data.media.featured_image?.[0]?.file_name).toBe("featured-image-vertical.jpg");
    // The attachment whose file the archive does not hold: a finding naming why, its post imported without it.
    const missing = (await allFindings(token, job.id)).filter((f) => f.code === "media_not_imported");
    expect(missing).toHaveLength(1);
    expect(String(missing[0]?.details.reason)).toMatch(/archive holds no file at its path/);
  });

  for (const c of HOSTILE) {
    it(`refuses ${c.name}: import_archive_invalid (${c.reason}), the job failed with nothing kept`, async () => {
      // A credential per archive: the tests' management rate limit is 40 requests a minute.
      const t = await credential(s);
      const { job, after } = await firstStep(t, await buildZip(await c.entries()));
      expect(after.state).toBe("failed");
      expect(after.failure).toMatchObject({ code: "import_archive_invalid", reason: c.reason });
      const findings = await allFindings(t, job.id);
      expect(findings.map((f) => [f.code, f.details.reason])).toEqual([["import_archive_invalid", c.reason]]);
      if (c.entry) expect(findings[0]?.details.entry).toBe(c.entry);
      // Nothing half-written: no staged item, no unpacked file, no index.
      expect(await itemsOf(s.site.id, job.id)).toBe(0);
      expect(await env.MEDIA.head(`imports/${s.site.id}/${job.id}/wxr`)).toBeNull();
      expect(await env.MEDIA.head(`imports/${s.site.id}/${job.id}/archive.json`)).toBeNull();
    });
  }

  it("refuses a file shorter than a ZIP's end record that starts with a ZIP's signature as corrupt, not as XML (probe finding)", async () => {
    const t = await credential(s);
    const { job, after } = await firstStep(t, new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00]));
    expect(after.state).toBe("failed");
    expect(after.failure).toMatchObject({ code: "import_archive_invalid", reason: "corrupt" });
    expect((await allFindings(t, job.id)).map((f) => [f.code, f.details.reason])).toEqual([["import_archive_invalid", "corrupt"]]);
    expect(await itemsOf(s.site.id, job.id)).toBe(0);
  });

  it("refuses a ZIP cut short (its end record lost) as corrupt; the failed job takes no more steps", async () => {
    const t = await credential(s);
    const whole = await buildZip([{ name: "export.xml", data: WXR.subarray(0, 5000) }]);
    const { after } = await firstStep(t, whole.subarray(0, whole.length - 30));
    expect(after.failure).toMatchObject({ code: "import_archive_invalid", reason: "corrupt" });
    // A failed job takes no more steps.
    expect((await manage(t, "POST", `/imports/${after.id}/advance`, { body: {} })).status).toBe(409);
  });
});
