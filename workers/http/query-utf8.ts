/**
 * Queries are decoded fatally as UTF-8 (issue 22 item 6), on every surface that reads one: the
 * management API (`queryObject`) and the public API (`handlePublic`).
 */
const UTF8_QUERY = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const encodeText = new TextEncoder();

/**
 * Whether every name and value of the raw query is UTF-8 once percent-decoded. URLSearchParams
 * replaces bytes that are not with U+FFFD, which would then be stored (a streamed upload's `name`);
 * a malformed escape (`%zz`) is left as it is, as URLSearchParams leaves it.
 */
export function queryIsUtf8(search: string): boolean {
  for (const pair of search.replace(/^\?/, "").split("&")) {
    if (!pair.includes("%")) continue;
    const bytes: number[] = [];
    for (let i = 0; i < pair.length; i++) {
      const hex = pair[i] === "%" ? pair.slice(i + 1, i + 3) : "";
      if (/^[0-9a-fA-F]{2}$/.test(hex)) {
        bytes.push(parseInt(hex, 16));
        i += 2;
      } else {
        const code = pair.codePointAt(i) ?? 0;
        if (code > 0xffff) i++;
        bytes.push(...encodeText.encode(String.fromCodePoint(code)));
      }
    }
    try {
      UTF8_QUERY.decode(new Uint8Array(bytes));
    } catch {
      return false;
    }
  }
  return true;
}
