import { describe, expect, it } from "vitest";
import { seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { storedKeys, uploadMedia, type ErrBody } from "../helpers/media-api";
import { concat, elf, gif, html, javaClass, jpeg, jpegWithoutSof, mz, pdf, png, PNG_SIGNATURE, shebang, svg, text, xml, zip } from "../helpers/media-samples";

type Refusal = { status: number; code: string; reason?: string; found_by?: string };

async function refusal(token: string, file: { bytes: Uint8Array; name: string; type?: string }, fields: Record<string, string> = {}): Promise<Refusal> {
  const r = await uploadMedia<ErrBody>(token, file, fields);
  const e = r.body.error ?? { code: "none" };
  return { status: r.status, code: e.code, ...(typeof e.reason === "string" ? { reason: e.reason } : {}), ...(typeof e.found_by === "string" ? { found_by: e.found_by } : {}) };
}

async function site(settings: Record<string, unknown> = {}): Promise<{ s: SeededSite; token: string }> {
  const s = await seedSite({ settings });
  return { s, token: await credential(s) };
}

describe("media upload content checks (spec 2 rule 1)", () => {
  it("refuses programs and scripts by their bytes: ELF, MZ/PE, Java class, jar, shebang, a PDF with a shebang first line (422 executable_file)", async () => {
    const { s, token } = await site();
    const samples: [string, Uint8Array, string][] = [
      ["elf", elf(), "photo.png"],
      ["mz", mz(), "photo.jpg"],
      ["class", javaClass(), "photo.png"],
      ["jar", zip("META-INF/MANIFEST.MF"), "archive.zip"],
      ["shebang", shebang(), "notes.txt"],
      ["pdf with shebang", concat(text("#!/usr/bin/env python\n"), pdf()), "paper.pdf"],
      ["shebang after a BOM", concat([0xef, 0xbb, 0xbf], shebang()), "notes.txt"],
    ];
    for (const [label, bytes, name] of samples) {
      expect(await refusal(token, { bytes, name, type: "image/png" }), label).toEqual({ status: 422, code: "executable_file", reason: "bytes" });
    }
    expect(await storedKeys(s.site.id)).toEqual([]);
  });

  it("refuses program and script extensions and declared types whatever the bytes (422 executable_file)", async () => {
    const { token } = await site();
    for (const ext of ["exe", "sh", "bat", "cmd", "js", "mjs", "msi", "jar", "ps1", "com", "scr", "dll", "app", "apk", "EXE"]) {
      expect(await refusal(token, { bytes: png(1, 1, ext), name: `image.${ext}` }), ext).toEqual({ status: 422, code: "executable_file", reason: "extension" });
    }
    for (const type of ["application/x-msdownload", "application/x-sh", "text/javascript", "application/java-archive", "application/x-executable; charset=binary"]) {
      expect(await refusal(token, { bytes: png(1, 1, type), name: "image.png" }, { type }), type).toEqual({ status: 422, code: "executable_file", reason: "declared_type" });
    }
    // The file part's own Content-Type counts when no `type` field is sent.
    expect(await refusal(token, { bytes: png(1, 1, "part"), name: "image.png", type: "application/x-msdownload" })).toMatchObject({ status: 422, code: "executable_file" });
  });

  it("refuses markup by bytes, extension or declared type, and polyglots hiding a page (415 unsupported_media_type)", async () => {
    const { s, token } = await site();
    const byBytes: [string, Uint8Array, string][] = [
      ["html", html(), "page.png"],
      ["svg", svg(), "logo.png"],
      ["xml", xml(), "data.pdf"],
      ["gif with <script>", gif(1, 1, text("<script>alert(1)</script>")), "anim.gif"],
      ["png with an html tail", concat(png(1, 1, "tail"), text("<html><body onload=alert(1)>")), "tail.png"],
      ["pdf with an html page", concat(pdf(), text("<!DOCTYPE html><p>x")), "doc.pdf"],
      ["jpeg with a script 2 MiB in", concat(jpeg(2, 2).slice(0, -2), new Uint8Array(2 * 1024 * 1024), text("<ScRiPt src=x>"), [0xff, 0xd9]), "big.jpg"],
    ];
    for (const [label, bytes, name] of byBytes) {
      expect(await refusal(token, { bytes, name }), label).toEqual({ status: 415, code: "unsupported_media_type", reason: "markup", found_by: "bytes" });
    }
    for (const ext of ["html", "htm", "svg", "xml", "xhtml"]) {
      expect(await refusal(token, { bytes: jpeg(2, 2), name: `photo.${ext}` }), ext).toEqual({ status: 415, code: "unsupported_media_type", reason: "markup", found_by: "extension" });
    }
    for (const type of ["text/html", "image/svg+xml", "application/xhtml+xml", "text/xml", "application/xml"]) {
      expect(await refusal(token, { bytes: png(1, 1, type), name: "image.png" }, { type }), type).toEqual({ status: 415, code: "unsupported_media_type", reason: "markup", found_by: "declared_type" });
    }
    expect(await storedKeys(s.site.id)).toEqual([]);
  });

  it("decides the type by the bytes: a PNG declared as JPEG is a PNG; a PDF is a document without dimensions", async () => {
    const { token } = await site();
    const mislabelled = await uploadMedia(token, { bytes: png(5, 7, "m"), name: "photo.jpg", type: "image/jpeg" }, { type: "image/jpeg" });
    expect(mislabelled.status).toBe(201);
    expect(mislabelled.body.media).toMatchObject({ kind: "image", mime_type: "image/png", width: 5, height: 7, file_name: "photo.jpg" });
    const doc = await uploadMedia(token, { bytes: pdf("doc"), name: "paper.pdf" });
    expect(doc.status).toBe(201);
    expect(doc.body.media).toMatchObject({ kind: "document", mime_type: "application/pdf", width: null, height: null });
    // Metadata markup that is not a page (an XMP packet, "<" in text) does not make a photograph markup.
    const xmp = text('<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF>a < b</rdf:RDF></x:xmpmeta><?xpacket end="w"?>');
    const photo = await uploadMedia(token, { bytes: concat(jpeg(8, 6).slice(0, -2), xmp, [0xff, 0xd9]), name: "xmp.jpg" });
    expect(photo.status).toBe(201);
    expect(photo.body.media).toMatchObject({ mime_type: "image/jpeg", width: 8, height: 6 });
    const anim = await uploadMedia(token, { bytes: gif(3, 2), name: "a.gif" });
    expect(anim.body.media).toMatchObject({ kind: "image", mime_type: "image/gif", width: 3, height: 2 });
  });

  it("refuses formats the site does not allow (415, reason format_not_allowed): a plain zip, text, and kinds a site narrowed", async () => {
    const { token } = await site();
    expect(await refusal(token, { bytes: zip("readme.txt"), name: "a.zip" })).toEqual({ status: 415, code: "unsupported_media_type", reason: "format_not_allowed" });
    expect(await refusal(token, { bytes: text("just some words\n"), name: "a.txt" })).toEqual({ status: 415, code: "unsupported_media_type", reason: "format_not_allowed" });
    const narrow = await site({ media: { allowed: { image: ["png"], document: [] } } });
    expect(await refusal(narrow.token, { bytes: jpeg(2, 2), name: "a.jpg" })).toEqual({ status: 415, code: "unsupported_media_type", reason: "format_not_allowed" });
    expect(await refusal(narrow.token, { bytes: pdf(), name: "a.pdf" })).toEqual({ status: 415, code: "unsupported_media_type", reason: "format_not_allowed" });
    expect((await uploadMedia(narrow.token, { bytes: png(1, 1, "ok"), name: "a.png" })).status).toBe(201);
    const wide = await site({ media: { allowed: { file: ["zip"] } } });
    const archive = await uploadMedia(wide.token, { bytes: zip("readme.txt"), name: "a.zip" });
    expect(archive.status).toBe(201);
    expect(archive.body.media).toMatchObject({ kind: "file", mime_type: "application/zip" });
  });

  it("takes dimensions from the header, else from width/height (or one and aspectRatio), else refuses truncated headers (415 dimensions_unreadable)", async () => {
    const { token } = await site();
    const header = await uploadMedia(token, { bytes: jpeg(640, 480), name: "a.jpg" }, { width: "10", height: "10" });
    expect(header.body.media).toMatchObject({ width: 640, height: 480, mime_type: "image/jpeg" });
    const noSof = await uploadMedia(token, { bytes: jpegWithoutSof(), name: "b.jpg" }, { width: "300", height: "200" });
    expect(noSof.status).toBe(201);
    expect(noSof.body.media).toMatchObject({ width: 300, height: 200 });
    const ratio = await uploadMedia(token, { bytes: concat(jpegWithoutSof(), [0]), name: "c.jpg" }, { width: "40", aspectRatio: "4:3" });
    expect(ratio.body.media).toMatchObject({ width: 40, height: 30 });
    expect(await refusal(token, { bytes: concat(jpegWithoutSof(), [1]), name: "d.jpg" })).toEqual({ status: 415, code: "unsupported_media_type", reason: "dimensions_unreadable" });
    expect(await refusal(token, { bytes: concat(jpegWithoutSof(), [2]), name: "e.jpg" }, { width: "40" })).toEqual({ status: 415, code: "unsupported_media_type", reason: "dimensions_unreadable" });
    // A PNG cut after its signature (and its IHDR length): the bytes say PNG, the header gives no size.
    const cut = concat(PNG_SIGNATURE, [0, 0, 0, 13], text("IHDR"));
    const cutWithSize = await uploadMedia(token, { bytes: cut, name: "cut.png" }, { width: "8", height: "6" });
    expect(cutWithSize.status).toBe(201);
    expect(cutWithSize.body.media).toMatchObject({ mime_type: "image/png", width: 8, height: 6 });
    expect(await refusal(token, { bytes: concat(cut, [0]), name: "cut2.png" })).toEqual({ status: 415, code: "unsupported_media_type", reason: "dimensions_unreadable" });
  });

  it("the site's media.allowed setting: GET /settings shows the defaults, PUT /settings replaces a named kind's list (checked per kind), uploads follow it", async () => {
    const { token } = await site();
    type SettingsBody = { settings: { media: { allowed: Record<string, string[]> } }; revision: number };
    const read = await manage<SettingsBody>(token, "GET", "/settings");
    expect(read.body.settings.media.allowed).toEqual({ image: ["jpg", "png", "gif", "webp", "avif"], document: ["pdf"], audio: ["mp3", "ogg", "wav", "m4a"], video: ["mp4", "webm"], file: [] });
    const bad = await manage<ErrBody & { error: { issues: { path: string }[] } }>(token, "PUT", "/settings", { body: { media: { allowed: { image: ["pdf", "png"], file: ["exe", "zip", "xml"], audio: ["mp4"] } } } });
    expect([bad.status, bad.body.error.code]).toEqual([400, "invalid_request"]);
    expect(bad.body.error.issues.map((i) => i.path)).toEqual(["media.allowed.image[0]", "media.allowed.audio[0]", "media.allowed.file[0]", "media.allowed.file[2]"]);
    const unknownKind = await manage<ErrBody>(token, "PUT", "/settings", { body: { media: { allowed: { scripts: ["js"] } } } });
    expect(unknownKind.status).toBe(400);
    const put = await manage<SettingsBody>(token, "PUT", "/settings", { body: { media: { allowed: { image: ["png", "png"], file: ["zip"] } } } });
    expect(put.status).toBe(200);
    expect(put.body.settings.media.allowed).toMatchObject({ image: ["png"], document: ["pdf"], file: ["zip"] });
    expect(await refusal(token, { bytes: jpeg(2, 2), name: "a.jpg" })).toEqual({ status: 415, code: "unsupported_media_type", reason: "format_not_allowed" });
    expect((await uploadMedia(token, { bytes: zip("a.txt"), name: "a.zip" })).status).toBe(201);
  });
});

describe("content checks against Windows name tricks and program formats (issue #10 probe)", () => {
  it("decides the extension after trailing dots and spaces and any :stream suffix (422 executable_file / 415 markup)", async () => {
    const { s, token } = await site();
    for (const name of ["x.exe.", "run.bat.", "x.ps1.", "x.hta. .", "x.exe..", "x.exe::$DATA", "x.exe:zone.png", "x.EXE . . ", "a:b.exe", "x.reg.", "x.chm", "x.dmg "]) {
      expect(await refusal(token, { bytes: png(1, 1, name), name }), name).toEqual({ status: 422, code: "executable_file", reason: "extension" });
    }
    for (const name of ["x.svg.", "x.html.", "x.htm . ", "x.svg::$DATA"]) {
      expect(await refusal(token, { bytes: png(1, 1, name), name }), name).toEqual({ status: 415, code: "unsupported_media_type", reason: "markup", found_by: "extension" });
    }
    expect(await storedKeys(s.site.id)).toEqual([]);
    // Dots inside a name are not a trick: "v1.2 final.png" is a PNG.
    expect((await uploadMedia(token, { bytes: png(1, 1, "dots"), name: "v1.2 final.png" })).status).toBe(201);
  });

  it("refuses programs file-type names from the bytes (reg, chm, dmg, cab, an OLE compound file such as an MSI) as 422 executable_file reason bytes", async () => {
    const { s, token } = await site();
    const pad = (head: Uint8Array | number[], size: number) => {
      const out = new Uint8Array(size);
      out.set(head);
      return out;
    };
    const samples: [string, Uint8Array][] = [
      ["reg", text("REGEDIT4\r\n[HKEY_CURRENT_USER\\Software\\x]\r\n")],
      ["chm", pad(concat(text("ITSF"), [3, 0, 0, 0, 0x60, 0, 0, 0, 1, 0, 0, 0]), 96)],
      ["dmg", pad([0x78, 0x01, 0x73, 0x0d, 0x62, 0x62, 0x60], 64)],
      ["cab", pad(text("MSCF\0\0\0\0"), 64)],
      ["cfb (msi, old office)", pad([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], 512)],
    ];
    for (const [label, bytes] of samples) {
      expect(await refusal(token, { bytes, name: "photo.png", type: "image/png" }), label).toEqual({ status: 422, code: "executable_file", reason: "bytes" });
    }
    expect(await storedKeys(s.site.id)).toEqual([]);
  });

  it("never lets a site allow a program's format (400 on PUT /settings): reg, dmg, chm, cfb, cab", async () => {
    const { token } = await site();
    const bad = await manage<ErrBody & { error: { issues: { path: string }[] } }>(token, "PUT", "/settings", { body: { media: { allowed: { file: ["reg", "dmg", "chm", "cfb", "cab", "zip"] } } } });
    expect([bad.status, bad.body.error.code]).toEqual([400, "invalid_request"]);
    expect(bad.body.error.issues.map((i) => i.path)).toEqual(["media.allowed.file[0]", "media.allowed.file[1]", "media.allowed.file[2]", "media.allowed.file[3]", "media.allowed.file[4]"]);
  });

  it("refuses a PNG cut right after its signature as format_not_allowed even with request dimensions: the bytes name no format", async () => {
    const { token } = await site();
    expect(await refusal(token, { bytes: Uint8Array.from(PNG_SIGNATURE), name: "sig.png" }, { width: "8", height: "6" })).toEqual({
      status: 415,
      code: "unsupported_media_type",
      reason: "format_not_allowed",
    });
  });
});
