/**
 * The admin streamed upload's size limit (spec 2, Limits: "`limits.streamed_max_bytes` 100 MB, or
 * the deployment plan limit declared in `MEDIA_REQUEST_BODY_LIMIT_BYTES` (at most 5 GB)").
 * The spec writes MiB where it means binary units (32 MiB, 8 MiB, 5 MiB), so "MB" and "GB" here
 * are decimal: 100,000,000 and 5,000,000,000 bytes.
 */
export const STREAMED_DEFAULT_MAX_BYTES = 100_000_000;

/** The most `MEDIA_REQUEST_BODY_LIMIT_BYTES` may declare. */
export const STREAMED_CEILING_BYTES = 5_000_000_000;

/** The limit, and whether the deployment's declared value was refused (for a warning). */
export interface StreamedLimit {
  maxBytes: number;
  /** The declared value when it was set but is not a whole number of bytes from 1 to 5 GB. */
  ignored?: string;
}

/**
 * `MEDIA_REQUEST_BODY_LIMIT_BYTES` when it is a whole number of bytes from 1 to 5 GB (decimal
 * digits only), else 100 MB. A value set but invalid (`0`, `-1`, `1e9`, `6000000000`, `lots`) is
 * ignored rather than fatal: uploads keep the spec's default and the caller logs a warning.
 */
export function streamedLimit(env: { readonly MEDIA_REQUEST_BODY_LIMIT_BYTES?: string }): StreamedLimit {
  const declared = env.MEDIA_REQUEST_BODY_LIMIT_BYTES;
  if (declared === undefined || declared.trim() === "") return { maxBytes: STREAMED_DEFAULT_MAX_BYTES };
  const text = declared.trim();
  const value = /^\d{1,10}$/.test(text) ? Number(text) : NaN;
  if (Number.isSafeInteger(value) && value >= 1 && value <= STREAMED_CEILING_BYTES) return { maxBytes: value };
  return { maxBytes: STREAMED_DEFAULT_MAX_BYTES, ignored: declared };
}
