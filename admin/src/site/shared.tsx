import { useState } from "preact/hooks";
import { describeError } from "../api/error-words";
import { location, paths } from "../router";
import { Link, Notice } from "../ui/controls";

/**
 * What the site screens (imports, exports, releases, calendar, redirects, menus, chrome, saved
 * queries, CORS; docs/admin-ui-site.md) share: their own sub-navigation, the one outcome each
 * screen announces, and reading a file the service serves in byte ranges.
 */

/** The site screens, in the order the sub-navigation lists them. */
export function siteScreens(site: string): readonly { href: string; label: string }[] {
  return [
    { href: paths.siteReleases(site), label: "Releases" },
    { href: paths.siteCalendar(site), label: "Calendar" },
    { href: paths.siteImport(site), label: "Import" },
    { href: paths.siteExport(site), label: "Export" },
    { href: paths.siteRedirects(site), label: "Redirects" },
    { href: paths.siteMenus(site), label: "Menus" },
    { href: paths.siteQueries(site), label: "Saved queries" },
    { href: paths.siteCors(site), label: "Browser access (CORS)" },
    { href: paths.siteChrome(site), label: "Site Chrome, SEO, robots" },
  ];
}

/** The sub-navigation between the site screens (a second nav landmark, named). */
export function SiteNav({ site }: { site: string }) {
  const here = location.value.path;
  return (
    <nav aria-label="Site tools" class="site-nav">
      <ul>
        {siteScreens(site).map((s) => (
          <li>
            <Link href={s.href} aria-current={here === s.href ? "page" : undefined}>
              {s.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export type Outcome = { kind: "success" | "error" | "info"; title: string; detail?: string | undefined; items?: readonly string[] | undefined };

/** A screen's one announcement: a status, or an alert for a refusal (never two live regions). */
export function useOutcome() {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  return {
    outcome,
    say: (title: string, kind: Outcome["kind"] = "success") => setOutcome({ kind, title }),
    fail: (error: unknown, own: Readonly<Record<string, string>> = {}, items?: readonly string[]) => {
      const words = describeError(error, own);
      setOutcome({ kind: "error", title: words.title, detail: words.detail, items });
    },
    clear: () => setOutcome(null),
  };
}

export function OutcomeNotice({ outcome }: { outcome: Outcome | null }) {
  if (!outcome) return null;
  return (
    <Notice kind={outcome.kind} title={outcome.title}>
      {outcome.detail ? <p>{outcome.detail}</p> : null}
      {outcome.items?.length ? (
        <ul>
          {outcome.items.map((i) => (
            <li>{i}</li>
          ))}
        </ul>
      ) : null}
    </Notice>
  );
}

/** Bytes as base64, in slices (a 5 MiB part would overflow `String.fromCharCode(...bytes)`). */
export function toBase64(bytes: Uint8Array): string {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const raw = atob(text);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

export async function sha256Hex(data: BufferSource): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", data);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** One range of a file read as JSON (readExportChunk, readImportArtifact without a Range header). */
type Chunk = { content_base64: string; next_offset: number | null; total: number; sha256: string };

/**
 * Reads a file range by range (1 MiB each), checks the whole file's SHA-256 and only then answers
 * it; `onProgress` gets bytes read and the total. A file whose digest differs is refused.
 */
export async function readWhole(read: (offset: number) => Promise<Chunk>, onProgress?: (done: number, total: number) => void): Promise<{ bytes: Uint8Array<ArrayBuffer>; sha256: string }> {
  const parts: Uint8Array[] = [];
  let offset = 0;
  let sha = "";
  for (;;) {
    const chunk = await read(offset);
    const bytes = fromBase64(chunk.content_base64);
    parts.push(bytes);
    sha = chunk.sha256;
    offset += bytes.length;
    onProgress?.(offset, chunk.total);
    if (chunk.next_offset === null) break;
    offset = chunk.next_offset;
  }
  const whole = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    whole.set(p, at);
    at += p.length;
  }
  const got = await sha256Hex(whole);
  if (got !== sha) throw new Error(`The file read does not match its SHA-256 (expected ${sha}, read ${got}). Try again.`);
  return { bytes: whole, sha256: sha };
}

/** A local address for bytes a person saves (the link's `download` names the file). */
export function blobAddress(bytes: Uint8Array<ArrayBuffer>, type: string): string {
  return URL.createObjectURL(new Blob([bytes], { type }));
}

/** A date-time for people: the browser's locale and time zone. */
export function when(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

/** A `datetime-local` value (the person's time) as an ISO instant, or null when empty. */
export function localToIso(value: string): string | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}
