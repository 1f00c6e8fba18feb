import { commit } from "../../../db/batch";
import { ArchiveError, entryBytes, entryStream, isZip, readZipDirectory, type ZipEntry } from "../archive/zip";
import { findingStatements } from "../findings";
import type { StepContext } from "../job-step";
import { IMPORT_MAX_BYTES, movedJob, moveJob, type ImportJobRow } from "../jobs";
import { statement } from "../statements";

/**
 * Zipped uploads (docs/imports.md, "Zipped uploads"): the uploaded file is recognised as a ZIP
 * archive by its first bytes (never by its name); its one `.xml` entry is the WXR file, its other
 * entries the attachments' files, matched to attachment items by their path.
 */

/** Where the WXR inflated from an uploaded archive is kept (the job then parses it). */
export const unpackedWxrKey = (job: Pick<ImportJobRow, "site_id" | "id">) => `imports/${job.site_id}/${job.id}/wxr`;
/** The archive's attachments' index, kept beside it for the write steps. */
export const archiveIndexKey = (job: Pick<ImportJobRow, "site_id" | "id">) => `imports/${job.site_id}/${job.id}/archive.json`;

interface ArchiveIndex {
  archive_key: string;
  entries: (ZipEntry & { path: string })[];
}

/**
 * The path an attachment is matched by: what follows `uploads/` (WordPress's uploads folder,
 * `wp-content/uploads/2011/07/photo.jpg` → `2011/07/photo.jpg`), else the whole path. A URL's path is
 * percent-decoded first. So an archive of the whole site, of `wp-content`, or of the uploads folder's
 * content all match.
 */
export function attachmentPath(path: string): string {
  let p = path.replace(/^\/+/, "");
  try {
    p = decodeURIComponent(p);
  } catch {
    // kept as written
  }
  const at = p.lastIndexOf("uploads/");
  return at === 0 || (at > 0 && p[at - 1] === "/") ? p.slice(at + "uploads/".length) : p;
}

/** Whether the job's uploaded file still has to be looked at for an archive (the first parse step). */
export const mayBeArchive = (job: ImportJobRow) => job.parse_offset === 0 && job.object_key !== unpackedWxrKey(job);

/**
 * The first parse step of a file that is a ZIP archive: its directory is checked whole, its one WXR
 * entry inflated (streamed, natively, into R2: the step's bound is the WXR limit of 100 MiB) and the
 * job pointed at it; the attachments' index is kept. A refused archive fails the job with one
 * `import_archive_invalid` finding (`details.reason`) and nothing kept. Null when the file is no archive.
 */
export async function unpackArchiveStep(ctx: StepContext, job: ImportJobRow): Promise<ImportJobRow | null> {
  if ((job.file_bytes ?? 0) < 4) return null; // too short for a ZIP's signature: not an archive
  const head = await ctx.files.get(job.object_key, { range: { offset: 0, length: 4 } });
  if (!head || !isZip(new Uint8Array(await head.arrayBuffer()))) return null;
  const target = unpackedWxrKey(job);
  try {
    // A ZIP's signature on a file shorter than an empty ZIP's end record (22 bytes) is an archive cut
    // short, not XML to parse (probe finding: it was read as XML, "An attribute of <K> has no name").
    if ((job.file_bytes ?? 0) < 22) throw new ArchiveError("corrupt", "The archive ends before a ZIP's end record: it was cut short.");
    const entries = await readZipDirectory(ctx.files, job.object_key, job.file_bytes ?? 0);
    const wxr = entries.filter((e) => /\.xml$/i.test(e.name));
    if (wxr.length === 0) throw new ArchiveError("no_wxr", "The archive holds no .xml file: put the WordPress export (WXR) in it.");
    if (wxr.length > 1) throw new ArchiveError("several_wxr", "The archive holds several .xml files: one import reads one WordPress export.", { entries: wxr.map((e) => e.name).slice(0, 20) });
    const file = wxr[0] as ZipEntry;
    if (file.size > IMPORT_MAX_BYTES) throw new ArchiveError("too_large", `The WXR file inflates to more than ${IMPORT_MAX_BYTES} bytes, the import file limit.`, { entry: file.name, declared: file.size, max_bytes: IMPORT_MAX_BYTES });
    // Checked whole first (size, CRC-32, not an archive), nothing written: a refusal then never
    // leaves R2 a half-read stream. Inflated again to be stored (about 0.4 s of CPU per 34 MB).
    const check = await entryStream(ctx.files, job.object_key, file, { refuseArchive: true });
    try {
      const reader = check.stream.getReader();
      while (!(await reader.read()).done);
    } catch (error) {
      throw check.refusal() ?? (error instanceof ArchiveError ? error : new ArchiveError("corrupt", "The WXR entry's compressed data is damaged.", { entry: file.name }));
    }
    const reading = await entryStream(ctx.files, job.object_key, file);
    // R2 takes a stream of known length: the declared size, which the reading holds the entry to.
    const fixed = new FixedLengthStream(file.size);
    try {
      await Promise.all([reading.stream.pipeTo(fixed.writable), ctx.files.put(target, fixed.readable)]);
    } catch (error) {
      throw reading.refusal() ?? (error instanceof ArchiveError ? error : new ArchiveError("corrupt", "The WXR entry's compressed data is damaged.", { entry: file.name }));
    }
    const attachments = entries.filter((e) => e !== file).map((e) => ({ ...e, path: attachmentPath(e.name) }));
    const index: ArchiveIndex = { archive_key: job.object_key, entries: attachments };
    await ctx.files.put(archiveIndexKey(job), JSON.stringify(index));
    const set = { state: "parsing" as const, object_key: target, file_bytes: file.size };
    await commit(ctx.d1, moveJob(ctx, job, set));
    return movedJob(ctx, job, set);
  } catch (error) {
    if (!(error instanceof ArchiveError)) throw error;
    await ctx.files.delete([target, archiveIndexKey(job)]).catch(() => undefined);
    const set = { state: "failed" as const, failure: JSON.stringify({ code: "import_archive_invalid", message: error.message, reason: error.reason }), findings_count: job.findings_count + 1, items_total: 0 };
    await commit(ctx.d1, [
      statement("DELETE FROM import_items WHERE site_id = ? AND job_id = ?", [ctx.site.id, job.id]),
      ...findingStatements(ctx, job.id, job.findings_count, [{ item_seq: null, code: "import_archive_invalid", message: error.message, details: { reason: error.reason, ...error.details } }]),
      ...moveJob(ctx, job, set),
    ]);
    return movedJob(ctx, job, set);
  }
}

const indexes = new WeakMap<StepContext, Promise<ArchiveIndex | null>>();

/** The job's archive index, read once per step (null: the upload was a plain WXR file). */
function archiveIndex(ctx: StepContext, job: ImportJobRow): Promise<ArchiveIndex | null> {
  let found = indexes.get(ctx);
  if (!found) {
    found = ctx.files.get(archiveIndexKey(job)).then(async (object) => (object ? ((await object.json()) as ArchiveIndex) : null));
    indexes.set(ctx, found);
  }
  return found;
}

/**
 * An attachment's bytes from the uploaded archive: the entry whose path (see {@link attachmentPath})
 * is the URL's. Null when the upload was no archive or holds no such file; a refusal when the entry
 * is larger than `maxBytes` or damaged.
 */
export async function archivedAttachment(ctx: StepContext, job: ImportJobRow, url: string, maxBytes: number): Promise<{ bytes: Uint8Array } | { refused: string } | null> {
  const index = await archiveIndex(ctx, job);
  if (!index) return null;
  let path: string;
  try {
    path = attachmentPath(new URL(url).pathname);
  } catch {
    return null;
  }
  const entry = index.entries.find((e) => e.path === path);
  if (!entry) return null;
  if (entry.size > maxBytes) return { refused: `the archive's file ${entry.name} is larger than ${maxBytes} bytes` };
  try {
    return { bytes: await entryBytes(ctx.files, index.archive_key, entry) };
  } catch (error) {
    if (error instanceof ArchiveError) return { refused: `the archive's file ${entry.name}: ${error.message}` };
    throw error;
  }
}
