/**
 * The Node side of the media figures of `npm run bench` (the worker side is media-bench.ts):
 *
 *   media.upload       a 5 MiB PNG uploaded through POST /api/manage/v1/media (multipart, the whole
 *                      path: checks, R2 put, the site's object, one D1 batch), MiB/s over sequential
 *                      uploads of distinct files, against primitive.r2_put — the same bytes PUT to a
 *                      route that only buffers them and puts them to R2 — interleaved one for one so
 *                      the machine's drift hits both alike;
 *   media.delivery     the public URL of a published image (~256 KiB), against primitive.r2_get (the
 *                      object streamed from R2 with no lookup) uncached and primitive.cache_media (a
 *                      Cache API hit of the same bytes) cached — measured by bench.mjs with autocannon.
 */
import http from "node:http";
import { randomBytes } from "node:crypto";
import zlib from "node:zlib";

export const UPLOAD_BYTES = 5 * 1024 * 1024;
export const UPLOAD_ROUNDS = Number(process.env.BENCH_UPLOAD_ROUNDS ?? 8);
const MIB = 1024 * 1024;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A valid RGB PNG of about `size` bytes whose pixels are noise (stored, not compressed, so the file
 * is as large as a photograph of that size). Every pixel byte is at least 0x40, so the bytes never
 * hold a `<` and the upload's page-tag scan cannot refuse them by chance; `label` goes into a tEXt
 * chunk, so each upload is a distinct file (no duplicate answer).
 */
export function noisePng(size, label) {
  const width = 1024;
  const stride = width * 3 + 1;
  const height = Math.max(1, Math.floor(size / stride));
  const raw = randomBytes(stride * height);
  for (let i = 0; i < raw.length; i++) raw[i] = i % stride === 0 ? 0 : raw[i] | 0x40;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", header),
    chunk("tEXt", Buffer.from(`Comment\0${label}`, "latin1")),
    chunk("IDAT", zlib.deflateSync(raw, { level: 0 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function send(base, { method, path, host, headers, body }) {
  return new Promise((resolve, reject) => {
    const req = http.request({ agent: false, host: base.hostname, port: base.port, method, path, headers: { host, "content-length": body.length, ...headers } }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** POST /api/manage/v1/media with one file part, as curl -F would send it. */
export async function uploadThroughApi(base, host, token, bytes, name) {
  const boundary = `----driftwood-bench-${randomBytes(8).toString("hex")}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await send(base, {
    method: "POST",
    path: "/api/manage/v1/media",
    host,
    headers: { authorization: `Bearer ${token}`, "idempotency-key": `bench-${randomBytes(8).toString("hex")}`, "content-type": `multipart/form-data; boundary=${boundary}` },
    body,
  });
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${res.text.slice(0, 500)}`);
  return JSON.parse(res.text).media;
}

async function r2Put(base, primitiveHost, bytes) {
  const res = await send(base, { method: "PUT", path: "/r2put", host: primitiveHost, headers: { "content-type": "application/octet-stream" }, body: bytes });
  if (res.status !== 200) throw new Error(`r2put answered ${res.status}: ${res.text.slice(0, 500)}`);
}

/**
 * Sequential 5 MiB uploads through the management API and raw R2 puts of the same bytes, one for
 * one (a warm-up pair first, not counted). MiB/s of each and their ratio.
 */
export async function uploadFigure(base, host, primitiveHost, token, say) {
  const files = Array.from({ length: UPLOAD_ROUNDS + 1 }, (_, i) => noisePng(UPLOAD_BYTES, `bench upload ${i} ${Date.now()}`));
  let apiMs = 0;
  let putMs = 0;
  let bytes = 0;
  for (const [i, file] of files.entries()) {
    const t0 = performance.now();
    await uploadThroughApi(base, host, token, file, `upload-${i}.png`);
    const t1 = performance.now();
    await r2Put(base, primitiveHost, file);
    const t2 = performance.now();
    if (i === 0) continue; // warm-up
    apiMs += t1 - t0;
    putMs += t2 - t1;
    bytes += file.length;
  }
  const api = bytes / MIB / (apiMs / 1000);
  const put = bytes / MIB / (putMs / 1000);
  say(`  ${UPLOAD_ROUNDS} uploads of ${(bytes / UPLOAD_ROUNDS / MIB).toFixed(2)} MiB: API ${api.toFixed(1)} MiB/s, raw R2 put ${put.toFixed(1)} MiB/s`);
  return { api, put, ratio: api / put, rounds: UPLOAD_ROUNDS, fileBytes: bytes / UPLOAD_ROUNDS, apiMsPerUpload: apiMs / UPLOAD_ROUNDS, putMsPerUpload: putMs / UPLOAD_ROUNDS };
}
