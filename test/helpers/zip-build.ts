import { concat, text } from "./media-samples";

/**
 * ZIP archives built in the test (no committed binaries), the way zip tools write them — local
 * header, data, central directory, end record — with the knobs hostile archives turn: a size or
 * CRC-32 that lies, the encryption flag, another method, any name.
 */
export interface ZipInput {
  name: string;
  data: Uint8Array;
  /** deflate (default) or store. */
  store?: boolean;
  encrypted?: boolean;
  method?: number;
  /** The uncompressed size the directory declares (a lie, for a bomb). */
  declaredSize?: number;
  crc32?: number;
}

const u16 = (n: number) => [n & 255, (n >>> 8) & 255];
const u32 = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255];

const TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (TABLE[(c ^ b) & 255] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export async function deflateRaw(data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await new Response(new Blob([data]).stream().pipeThrough(new CompressionStream("deflate-raw"))).arrayBuffer());
}

export async function buildZip(entries: readonly ZipInput[]): Promise<Uint8Array> {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = text(e.name);
    const method = e.method ?? (e.store ? 0 : 8);
    const body = method === 8 ? await deflateRaw(e.data) : e.data;
    const crc = e.crc32 ?? crc32(e.data);
    const size = e.declaredSize ?? e.data.length;
    const flags = (e.encrypted ? 1 : 0) | 0x800;
    const common = [...u16(20), ...u16(flags), ...u16(method), ...u16(0), ...u16(0x21), ...u32(crc), ...u32(body.length), ...u32(size), ...u16(name.length), ...u16(0)];
    const local = concat(text("PK\x03\x04"), common, name, body);
    centrals.push(concat(text("PK\x01\x02"), u16(20), common, u16(0), u16(0), u16(0), u32(0), u32(offset), name));
    locals.push(local);
    offset += local.length;
  }
  const directory = concat(...centrals);
  const end = concat(text("PK\x05\x06"), u16(0), u16(0), u16(entries.length), u16(entries.length), u32(directory.length), u32(offset), u16(0));
  return concat(...locals, directory, end);
}
