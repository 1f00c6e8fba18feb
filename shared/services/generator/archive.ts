/**
 * A deterministic .tar.gz of a list of files (docs/generated-backend.md, "Determinism"): ustar
 * entries sorted by path, every header with mtime 0, uid/gid 0, empty owner names, mode 0644
 * (directories 0755, listed before their files); gzip by the runtime's CompressionStream, whose
 * header carries no time and no name. Same files → same bytes.
 */

export interface ArchiveFile {
  path: string;
  content: string | Uint8Array;
}

const encoder = new TextEncoder();

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, "0") + "\0";
}

function header(name: string, size: number, directory: boolean): Uint8Array {
  const block = new Uint8Array(512);
  const put = (text: string, offset: number, width: number) => {
    const bytes = encoder.encode(text);
    if (bytes.length > width) throw new Error(`tar: "${text}" is longer than ${width} bytes`);
    block.set(bytes, offset);
  };
  // Names longer than 100 bytes go through the ustar prefix (split at a slash).
  let prefix = "";
  let base = name;
  if (encoder.encode(name).length > 100) {
    const cut = name.lastIndexOf("/", name.length - 1);
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
  }
  put(base, 0, 100);
  put(octal(directory ? 0o755 : 0o644, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(size, 12), 124, 12);
  put(octal(0, 12), 136, 12);
  put("        ", 148, 8);
  put(directory ? "5" : "0", 156, 1);
  put("ustar\u000000", 257, 8);
  put(prefix, 345, 155);
  let sum = 0;
  for (const byte of block) sum += byte;
  put(octal(sum, 7) + " ", 148, 8);
  return block;
}

/** The tar bytes of `files` under the folder `root` (directories made from the paths). */
export function tarBytes(root: string, files: readonly ArchiveFile[]): Uint8Array {
  const entries = new Map<string, Uint8Array | null>();
  for (const file of files) {
    const parts = file.path.split("/");
    for (let i = 1; i < parts.length; i += 1) entries.set(`${root}/${parts.slice(0, i).join("/")}/`, null);
    entries.set(`${root}/${file.path}`, typeof file.content === "string" ? encoder.encode(file.content) : file.content);
  }
  entries.set(`${root}/`, null);
  const names = [...entries.keys()].sort();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (const name of names) {
    const content = entries.get(name) ?? null;
    const head = header(name, content?.length ?? 0, content === null);
    chunks.push(head);
    length += 512;
    if (content !== null) {
      const padded = new Uint8Array(Math.ceil(content.length / 512) * 512);
      padded.set(content);
      chunks.push(padded);
      length += padded.length;
    }
  }
  chunks.push(new Uint8Array(1024));
  length += 1024;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** gzip of `bytes` through CompressionStream (workerd and Node alike). */
export async function gzipBytes(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
