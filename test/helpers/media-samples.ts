/**
 * Tiny real sample files built in code (no committed binaries): valid images with known dimensions,
 * a PDF, programs' headers, scripts and markup, and polyglots for the upload content checks.
 */

const enc = new TextEncoder();
export const text = (s: string) => enc.encode(s);

export function concat(...parts: (Uint8Array | number[])[]): Uint8Array {
  const arrays = parts.map((p) => (p instanceof Uint8Array ? p : Uint8Array.from(p)));
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}

const u32be = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const u16be = (n: number) => [(n >>> 8) & 255, n & 255];
const u16le = (n: number) => [n & 255, (n >>> 8) & 255];
const u32le = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 255] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const typed = concat(text(type), data);
  return concat(u32be(data.length), typed, u32be(crc32(typed)));
}

/** zlib stream of stored (uncompressed) blocks: valid deflate without a compressor. */
function zlibStored(data: Uint8Array): Uint8Array {
  let a = 1;
  let b = 0;
  for (const x of data) {
    a = (a + x) % 65521;
    b = (b + a) % 65521;
  }
  return concat([0x78, 0x01, 0x01], u16le(data.length), u16le(~data.length & 0xffff), data, u32be(((b << 16) | a) >>> 0));
}

export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** A valid RGBA PNG of width × height (transparent black); `note` makes different bytes for the same size. */
export function png(width = 1, height = 1, note = ""): Uint8Array {
  const ihdr = concat(u32be(width), u32be(height), [8, 6, 0, 0, 0]);
  const rows = new Uint8Array(height * (1 + 4 * width));
  const parts = [Uint8Array.from(PNG_SIGNATURE), pngChunk("IHDR", ihdr)];
  if (note) parts.push(pngChunk("tEXt", text(`Comment\0${note}`)));
  parts.push(pngChunk("IDAT", zlibStored(rows)), pngChunk("IEND", new Uint8Array()));
  return concat(...parts);
}

const JFIF_APP0 = [0xff, 0xe0, ...u16be(16), ...text("JFIF\0"), 1, 1, 0, ...u16be(1), ...u16be(1), 0, 0];

/** A baseline JPEG header with a SOF0 of width × height (no scan data: enough for any header reader). */
export function jpeg(width: number, height: number): Uint8Array {
  const sof = [0xff, 0xc0, ...u16be(17), 8, ...u16be(height), ...u16be(width), 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
  return concat([0xff, 0xd8], JFIF_APP0, sof, [0xff, 0xd9]);
}

/** A JPEG with no frame header (no SOF): no dimensions to read. */
export function jpegWithoutSof(): Uint8Array {
  return concat([0xff, 0xd8], JFIF_APP0, [0xff, 0xd9]);
}

/** A GIF89a of width × height with one transparent pixel block. */
export function gif(width = 3, height = 2, tail: Uint8Array = new Uint8Array()): Uint8Array {
  return concat(text("GIF89a"), u16le(width), u16le(height), [0x80, 0, 0, 0, 0, 0, 255, 255, 255], [0x2c, 0, 0, 0, 0, ...u16le(1), ...u16le(1), 0, 2, 2, 0x44, 1, 0], tail, [0x3b]);
}

export const pdf = (note = "") => text(`%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n% ${note}\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n`);

/** An ELF64 header. */
export const elf = () => concat([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0], new Uint8Array(8), u16le(2), u16le(0x3e), u32le(1), new Uint8Array(40));

/** A DOS/PE header: MZ, e_lfanew at 0x3c pointing to "PE\0\0". */
export function mz(): Uint8Array {
  const bytes = new Uint8Array(0x100);
  bytes.set(text("MZ"), 0);
  bytes.set(u32le(0x80), 0x3c);
  bytes.set(text("PE\0\0"), 0x80);
  return bytes;
}

/** A Java class file header. */
export const javaClass = () => concat([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52], new Uint8Array(16));

export const shebang = () => text("#!/bin/sh\necho hello\n");
export const html = () => text("<!doctype html><html><body><p>hi</p></body></html>\n");
export const svg = () => text('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>alert(1)</script></svg>\n');
export const xml = () => text('<?xml version="1.0"?><note>hi</note>\n');

/** A zip with one stored entry; an entry named META-INF/MANIFEST.MF makes it a Java archive. */
export function zip(entryName: string, data = text("Manifest-Version: 1.0\n")): Uint8Array {
  const name = text(entryName);
  const crc = crc32(data);
  const local = concat(text("PK\x03\x04"), u16le(20), u16le(0), u16le(0), u16le(0), u16le(0), u32le(crc), u32le(data.length), u32le(data.length), u16le(name.length), u16le(0), name, data);
  const central = concat(text("PK\x01\x02"), u16le(20), u16le(20), u16le(0), u16le(0), u16le(0), u16le(0), u32le(crc), u32le(data.length), u32le(data.length), u16le(name.length), u16le(0), u16le(0), u16le(0), u16le(0), u32le(0), u32le(0), name);
  const end = concat(text("PK\x05\x06"), u16le(0), u16le(0), u16le(1), u16le(1), u32le(central.length), u32le(local.length), u16le(0));
  return concat(local, central, end);
}
