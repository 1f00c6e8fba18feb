/**
 * A lossless PNG re-encoder for the documentation screenshots (scripts/docs-screenshots.mjs): the
 * browser writes its PNGs quickly, not small. The pixels are kept exactly; the file gets a palette
 * when the picture has at most 256 colours, no alpha channel when every pixel is opaque, the
 * filter of least sum per row (the usual heuristic) and the strongest deflate. Only 8-bit RGB and
 * RGBA without interlacing are re-encoded (what Chromium writes); anything else is left as it is.
 * No dependency: node:zlib and a CRC.
 */
import { deflateSync, inflateSync } from "node:zlib";

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

function readChunks(png) {
  const chunks = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    chunks.push({ type: png.toString("latin1", at + 4, at + 8), data: png.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  return chunks;
}

const paeth = (a, b, c) => {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
};

/** The raw scanlines (no filter bytes) of inflated IDAT data. */
function unfilter(data, width, height, bpp) {
  const stride = width * bpp;
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y += 1) {
    const type = data[y * (stride + 1)];
    const src = y * (stride + 1) + 1;
    const row = y * stride;
    for (let x = 0; x < stride; x += 1) {
      const a = x >= bpp ? out[row + x - bpp] : 0;
      const b = y > 0 ? out[row - stride + x] : 0;
      const c = x >= bpp && y > 0 ? out[row - stride + x - bpp] : 0;
      const raw = data[src + x];
      out[row + x] = (type === 0 ? raw : type === 1 ? raw + a : type === 2 ? raw + b : type === 3 ? raw + ((a + b) >> 1) : raw + paeth(a, b, c)) & 0xff;
    }
  }
  return out;
}

/** Scanlines filtered row by row with the filter of least sum of absolute values (filter 0 for a palette). */
function filter(raw, width, height, bpp, palette) {
  const stride = width * bpp;
  const out = Buffer.alloc((stride + 1) * height);
  const candidate = Buffer.alloc(stride);
  for (let y = 0; y < height; y += 1) {
    const row = y * stride;
    let bestType = 0;
    let best = null;
    for (const type of palette ? [0] : [0, 1, 2, 3, 4]) {
      let sum = 0;
      for (let x = 0; x < stride; x += 1) {
        const a = x >= bpp ? raw[row + x - bpp] : 0;
        const b = y > 0 ? raw[row - stride + x] : 0;
        const c = x >= bpp && y > 0 ? raw[row - stride + x - bpp] : 0;
        const v = raw[row + x];
        const f = (type === 0 ? v : type === 1 ? v - a : type === 2 ? v - b : type === 3 ? v - ((a + b) >> 1) : v - paeth(a, b, c)) & 0xff;
        candidate[x] = f;
        sum += f < 128 ? f : 256 - f;
      }
      if (best === null || sum < best) {
        best = sum;
        bestType = type;
        candidate.copy(out, y * (stride + 1) + 1);
      }
    }
    out[y * (stride + 1)] = bestType;
  }
  return out;
}

/**
 * Pixels reduced to at most 256 colours (RGB, opaque): the 256 most frequent colours are kept and
 * every other pixel takes the nearest of them. Screens are mostly flat colours; what changes is
 * the anti-aliased edge of text and icons, by a shade. Returns a new RGB buffer.
 */
function quantise(pixels, channels) {
  const counts = new Map();
  for (let i = 0; i < pixels.length; i += channels) {
    const key = (pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2];
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const kept = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 256).map(([key]) => key);
  const keptSet = new Set(kept);
  const nearest = new Map();
  const out = Buffer.alloc((pixels.length / channels) * 3);
  for (let i = 0, o = 0; i < pixels.length; i += channels, o += 3) {
    let key = (pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2];
    if (!keptSet.has(key)) {
      let found = nearest.get(key);
      if (found === undefined) {
        let best = Infinity;
        for (const candidate of kept) {
          const dr = ((candidate >>> 16) & 0xff) - pixels[i];
          const dg = ((candidate >>> 8) & 0xff) - pixels[i + 1];
          const db = (candidate & 0xff) - pixels[i + 2];
          const d = 3 * dr * dr + 4 * dg * dg + 2 * db * db;
          if (d < best) {
            best = d;
            found = candidate;
          }
        }
        nearest.set(key, found);
      }
      key = found;
    }
    out[o] = (key >>> 16) & 0xff;
    out[o + 1] = (key >>> 8) & 0xff;
    out[o + 2] = key & 0xff;
  }
  return out;
}

/** The PNG with at most 256 colours (`quantise`), re-encoded; the original when it is not 8-bit RGB(A) or has transparency. */
export function palettePng(png) {
  if (!png.subarray(0, 8).equals(SIGNATURE)) return png;
  const chunks = readChunks(png);
  const ihdr = chunks.find((c) => c.type === "IHDR")?.data;
  if (!ihdr || ihdr[8] !== 8 || (ihdr[9] !== 2 && ihdr[9] !== 6) || ihdr[12] !== 0) return png;
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  const channels = ihdr[9] === 6 ? 4 : 3;
  const pixels = unfilter(inflateSync(Buffer.concat(chunks.filter((c) => c.type === "IDAT").map((c) => c.data))), width, height, channels);
  if (channels === 4) for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 255) return optimisePng(png);
  const rgb = quantise(pixels, channels);
  const header = Buffer.from(ihdr);
  header[9] = 2;
  const data = deflateSync(filter(rgb, width, height, 3, false), { level: 1 });
  return optimisePng(Buffer.concat([SIGNATURE, chunk("IHDR", header), chunk("IDAT", data), chunk("IEND", Buffer.alloc(0))]));
}

/** The re-encoded PNG, or the original when it is not one this handles or nothing was gained. */
export function optimisePng(png) {
  if (!png.subarray(0, 8).equals(SIGNATURE)) return png;
  const chunks = readChunks(png);
  const ihdr = chunks.find((c) => c.type === "IHDR")?.data;
  if (!ihdr) return png;
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  const [depth, colour, , , interlace] = [ihdr[8], ihdr[9], ihdr[10], ihdr[11], ihdr[12]];
  if (depth !== 8 || (colour !== 2 && colour !== 6) || interlace !== 0) return png;
  const channels = colour === 6 ? 4 : 3;
  const pixels = unfilter(inflateSync(Buffer.concat(chunks.filter((c) => c.type === "IDAT").map((c) => c.data))), width, height, channels);

  let opaque = true;
  if (channels === 4) for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 255) opaque = false;
  const keep = channels === 4 && !opaque ? 4 : 3;
  const colours = new Map();
  for (let i = 0; i < pixels.length && colours.size <= 256; i += channels) {
    const key = keep === 4 ? pixels.readUInt32BE(i) : (pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2];
    if (!colours.has(key)) colours.set(key, colours.size);
  }

  let header;
  let extra = [];
  let raw;
  let bpp;
  if (colours.size <= 256) {
    raw = Buffer.alloc(width * height);
    for (let i = 0, p = 0; i < pixels.length; i += channels, p += 1) {
      raw[p] = colours.get(keep === 4 ? pixels.readUInt32BE(i) : (pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2]);
    }
    const plte = Buffer.alloc(colours.size * 3);
    const trns = Buffer.alloc(colours.size);
    for (const [key, index] of colours) {
      const rgb = keep === 4 ? key >>> 8 : key;
      plte[index * 3] = (rgb >>> 16) & 0xff;
      plte[index * 3 + 1] = (rgb >>> 8) & 0xff;
      plte[index * 3 + 2] = rgb & 0xff;
      trns[index] = keep === 4 ? key & 0xff : 255;
    }
    extra = [chunk("PLTE", plte), ...(keep === 4 ? [chunk("tRNS", trns)] : [])];
    header = 3;
    bpp = 1;
  } else {
    bpp = keep;
    header = keep === 4 ? 6 : 2;
    if (keep === channels) raw = pixels;
    else {
      raw = Buffer.alloc(width * height * 3);
      for (let i = 0, o = 0; i < pixels.length; i += 4, o += 3) pixels.copy(raw, o, i, i + 3);
    }
  }
  const newHeader = Buffer.from(ihdr);
  newHeader[9] = header;
  const data = deflateSync(filter(raw, width, height, bpp, header === 3), { level: 9, memLevel: 9 });
  const out = Buffer.concat([SIGNATURE, chunk("IHDR", newHeader), ...extra, chunk("IDAT", data), chunk("IEND", Buffer.alloc(0))]);
  return out.length < png.length ? out : png;
}
