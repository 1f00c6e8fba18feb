/**
 * A small reader of ZIP archives held in R2 (docs/imports.md, "Zipped uploads"): the central
 * directory is read by byte ranges and checked whole before anything is inflated; one entry is
 * inflated by the runtime's `DecompressionStream("deflate-raw")` (native zlib in workerd), its size
 * held to the one declared and its CRC-32 checked as it streams.
 *
 * Decision: no unzip library. The runtime inflates natively and streams; what a library would add
 * is the directory parsing below (a hundred lines) and in exchange it would inflate in JavaScript,
 * hold entries in memory (fflate, JSZip) and need its own guards against the hostile archives this
 * reader refuses by construction (bombs, traversal names, encrypted or nested entries, ZIP64).
 */

/** Why an archive is refused: the `details.reason` of its `import_archive_invalid` finding. */
export type ArchiveRefusal =
  | "corrupt"
  | "unsupported"
  | "encrypted"
  | "unsafe_path"
  | "nested_archive"
  | "no_wxr"
  | "several_wxr"
  | "too_large"
  | "compression_ratio";

export class ArchiveError extends Error {
  constructor(
    readonly reason: ArchiveRefusal,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated (anything else is refused). */
  method: number;
  crc32: number;
  compressed: number;
  size: number;
  /** Where the entry's local header starts. */
  local_offset: number;
}

/** The first bytes of a ZIP archive (a local file header; an empty archive is refused anyway). */
export const isZip = (head: Uint8Array) => head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;

/** The largest central directory read (about 50,000 entries of typical names). */
const MAX_DIRECTORY_BYTES = 4 * 1024 * 1024;
const MAX_ENTRIES = 50_000;
const EOCD_BYTES = 22;
/** An entry inflating to more than this many times its compressed size (past 1 MiB) is a bomb: real WXR compresses about 5-15 to 1. */
export const MAX_COMPRESSION_RATIO = 200;
const RATIO_FLOOR_BYTES = 1024 * 1024;
const NESTED = /\.(zip|gz|tgz|tar|bz2|xz|7z|rar|zst|jar|war|cab)$/i;

const u16 = (b: Uint8Array, at: number) => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
const u32 = (b: Uint8Array, at: number) => (u16(b, at) | (u16(b, at + 2) << 16)) >>> 0;
const names = new TextDecoder("utf-8");

async function range(files: R2Bucket, key: string, offset: number, length: number): Promise<Uint8Array> {
  const object = await files.get(key, { range: { offset, length } });
  if (!object) throw new ArchiveError("corrupt", "The archive is gone.");
  return new Uint8Array(await object.arrayBuffer());
}

/** A name an archive may hold: relative, no `..`, no backslash, no drive, no control character. */
export function safeEntryName(name: string): boolean {
  if (name === "" || name.startsWith("/") || name.includes("\\") || /^[a-zA-Z]:/.test(name)) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f]/.test(name)) return false;
  return !name.split("/").some((segment) => segment === "..");
}

/** What an archive holds besides its contents: macOS's resource forks, directories. */
const ignored = (name: string) => name.endsWith("/") || name.startsWith("__MACOSX/") || /(^|\/)\._/.test(name);

/**
 * The archive's entries from its central directory, every one checked: a stored or deflated entry,
 * not encrypted, a safe relative name, not an archive itself, not a bomb (declared size over
 * `maxEntryBytes` for the WXR, or an absurd compression ratio). Directories and macOS's `__MACOSX/`
 * entries are left out.
 */
export async function readZipDirectory(files: R2Bucket, key: string, size: number): Promise<ZipEntry[]> {
  const tailLength = Math.min(size, EOCD_BYTES + 0xffff);
  const tail = await range(files, key, size - tailLength, tailLength);
  let at = -1;
  for (let i = tail.length - EOCD_BYTES; i >= 0; i--) {
    if (u32(tail, i) === 0x06054b50) {
      at = i;
      break;
    }
  }
  if (at < 0) throw new ArchiveError("corrupt", "The archive has no end of central directory: it is not a whole ZIP file.");
  const disk = u16(tail, at + 4);
  const count = u16(tail, at + 10);
  const directoryBytes = u32(tail, at + 12);
  const directoryOffset = u32(tail, at + 16);
  if (disk !== 0 || u16(tail, at + 6) !== 0 || count !== u16(tail, at + 8)) throw new ArchiveError("unsupported", "Archives split over several files are not read.");
  if (count === 0xffff || directoryOffset === 0xffffffff || directoryBytes === 0xffffffff) throw new ArchiveError("unsupported", "ZIP64 archives are not read (an import file is at most 100 MiB).");
  if (count > MAX_ENTRIES || directoryBytes > MAX_DIRECTORY_BYTES) throw new ArchiveError("unsupported", `An archive holds at most ${MAX_ENTRIES} entries.`, { entries: count });
  if (directoryOffset + directoryBytes > size - tailLength + at) throw new ArchiveError("corrupt", "The archive's central directory lies outside the file.");
  const directory = await range(files, key, directoryOffset, directoryBytes);
  const entries: ZipEntry[] = [];
  let p = 0;
  for (let n = 0; n < count; n++) {
    if (p + 46 > directory.length || u32(directory, p) !== 0x02014b50) throw new ArchiveError("corrupt", "The archive's central directory is damaged.", { entry: n });
    const flags = u16(directory, p + 8);
    const method = u16(directory, p + 10);
    const nameLength = u16(directory, p + 28);
    const entry: ZipEntry = {
      name: names.decode(directory.subarray(p + 46, p + 46 + nameLength)),
      method,
      crc32: u32(directory, p + 16),
      compressed: u32(directory, p + 20),
      size: u32(directory, p + 24),
      local_offset: u32(directory, p + 42),
    };
    p += 46 + nameLength + u16(directory, p + 30) + u16(directory, p + 32);
    if (p > directory.length) throw new ArchiveError("corrupt", "The archive's central directory is damaged.", { entry: n });
    if (!safeEntryName(entry.name)) throw new ArchiveError("unsafe_path", "An entry's name leaves the archive (absolute, `..`, backslash or drive).", { entry: entry.name });
    if (ignored(entry.name)) continue;
    if (flags & 0x1) throw new ArchiveError("encrypted", "The archive holds an encrypted entry.", { entry: entry.name });
    if (method !== 0 && method !== 8) throw new ArchiveError("unsupported", "An entry is compressed by a method other than deflate.", { entry: entry.name, method });
    if (entry.size === 0xffffffff || entry.compressed === 0xffffffff || entry.local_offset === 0xffffffff) throw new ArchiveError("unsupported", "ZIP64 entries are not read.", { entry: entry.name });
    if (NESTED.test(entry.name)) throw new ArchiveError("nested_archive", "The archive holds another archive: send the WXR file (and its attachments) in one ZIP.", { entry: entry.name });
    if (entry.size > RATIO_FLOOR_BYTES && entry.size / Math.max(1, entry.compressed) > MAX_COMPRESSION_RATIO) {
      throw new ArchiveError("compression_ratio", `An entry would inflate more than ${MAX_COMPRESSION_RATIO} times its size: refused as a ZIP bomb.`, { entry: entry.name, compressed: entry.compressed, declared: entry.size });
    }
    if (entry.local_offset + 30 + entry.compressed > size) throw new ArchiveError("corrupt", "An entry lies outside the file.", { entry: entry.name });
    entries.push(entry);
  }
  return entries;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** Carries on a CRC-32 over more bytes (start with 0). */
export function crc32(crc: number, bytes: Uint8Array): number {
  let c = ~crc >>> 0;
  for (let i = 0; i < bytes.length; i++) c = (CRC_TABLE[(c ^ (bytes[i] as number)) & 255] as number) ^ (c >>> 8);
  return ~c >>> 0;
}

/** An entry being inflated: its bytes, and the refusal that stopped them (a bomb, a wrong CRC-32), if any. */
export interface EntryReading {
  stream: ReadableStream<Uint8Array>;
  refusal: () => ArchiveError | null;
}

/**
 * The entry's bytes as a stream: the compressed range read from R2, inflated natively, each chunk
 * counted (more than the declared size errors at once: a bomb that lied in its directory) and the
 * CRC-32 checked at the end (a damaged or altered entry errors).
 */
export async function entryStream(files: R2Bucket, key: string, entry: ZipEntry, options: { refuseArchive?: boolean } = {}): Promise<EntryReading> {
  const local = await range(files, key, entry.local_offset, 30);
  if (u32(local, 0) !== 0x04034b50) throw new ArchiveError("corrupt", "An entry's local header is missing.", { entry: entry.name });
  const dataAt = entry.local_offset + 30 + u16(local, 26) + u16(local, 28);
  const object = entry.compressed === 0 ? null : await files.get(key, { range: { offset: dataAt, length: entry.compressed } });
  const raw: ReadableStream<Uint8Array> = object ? object.body : new Blob([]).stream();
  // Pipes made by hand, their rejections handled: a refusal below cancels them (pipeThrough would
  // leave the runtime's own pipe promises rejected and unhandled).
  let inflated = raw;
  if (entry.method === 8) {
    const inflater = new DecompressionStream("deflate-raw");
    raw.pipeTo(inflater.writable).catch(() => undefined);
    inflated = inflater.readable;
  }
  let seen = 0;
  let crc = 0;
  let refusal: ArchiveError | null = null;
  let nested: ArchiveError | null = null;
  const refuse = (error: ArchiveError) => {
    refusal = error;
    throw error;
  };
  const checker = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      // An archive inside, whatever its name says (a WXR entry that is a ZIP file): refused at the
      // end of the entry (bounded by its declared size), so its bytes are read to the end, not cut.
      if (seen === 0 && options.refuseArchive && isZip(chunk)) nested = new ArchiveError("nested_archive", "The archive's WXR entry is itself an archive.", { entry: entry.name });
      seen += chunk.length;
      if (seen > entry.size) refuse(new ArchiveError("too_large", "An entry inflates past the size its archive declares: refused as a ZIP bomb.", { entry: entry.name, declared: entry.size }));
      crc = crc32(crc, chunk);
      controller.enqueue(chunk);
    },
    flush() {
      if (nested) refuse(nested);
      if (seen !== entry.size || crc !== entry.crc32) refuse(new ArchiveError("corrupt", "An entry is not what its archive declares (size or CRC-32).", { entry: entry.name }));
    },
  });
  inflated.pipeTo(checker.writable).catch(() => undefined);
  return { stream: checker.readable, refusal: () => refusal };
}

/** A whole (small) entry's bytes: an attachment. Damaged deflate data is `corrupt`. */
export async function entryBytes(files: R2Bucket, key: string, entry: ZipEntry): Promise<Uint8Array> {
  const reading = await entryStream(files, key, entry);
  try {
    return new Uint8Array(await new Response(reading.stream).arrayBuffer());
  } catch (error) {
    throw reading.refusal() ?? (error instanceof ArchiveError ? error : new ArchiveError("corrupt", "An entry's compressed data is damaged.", { entry: entry.name }));
  }
}
