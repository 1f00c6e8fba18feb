import { useEffect, useState } from "preact/hooks";
import { manage } from "../api/client";
import { languageLabel } from "../media/types";
import { Button, Field } from "../ui/controls";
import { altText, MediaPicker } from "../ui/media-picker";
import { MediaThumb, type MediaSummary } from "../ui/media-thumb";
import "../styles/fields.css";

/**
 * What the Site Chrome, SEO and robots forms share (admin/src/site/chrome-screen.tsx): editable
 * link lists, a media item chosen from the library, a language switch, and a refusal's issues
 * (`languages.fr.header_links[0].url`) said in words.
 */

export type EditLink = { key: number; label: string; url: string };

let serial = 0;
export const nextKey = () => ++serial;

/** Links as the form edits them (each with a key), and back as the API takes them (empty rows dropped). */
export const editable = <T extends object>(links: readonly T[]): (T & { key: number })[] => links.map((l) => ({ ...l, key: nextKey() }));
export const sendable = (links: readonly EditLink[]) => links.filter((l) => l.label.trim() || l.url.trim()).map((l) => ({ label: l.label.trim(), url: l.url.trim() }));

/** A list of links (label + address), each removable, one added at a time; `name` says which list. */
export function LinkList({ name, links, onChange, max }: { name: string; links: readonly EditLink[]; onChange: (next: EditLink[]) => void; max: number }) {
  const edit = (key: number, change: Partial<EditLink>) => onChange(links.map((l) => (l.key === key ? { ...l, ...change } : l)));
  return (
    <fieldset class="stack">
      <legend>{name}</legend>
      {links.length === 0 ? <p class="muted">No link yet.</p> : null}
      <ol class="chrome-links">
        {links.map((link, i) => (
          <li class="row">
            <Field label={`${name}: label ${i + 1}`}>{({ id }) => <input id={id} type="text" maxLength={120} value={link.label} onInput={(e) => edit(link.key, { label: (e.currentTarget as HTMLInputElement).value })} />}</Field>
            <Field label={`${name}: address ${i + 1}`}>
              {({ id }) => <input id={id} type="text" class="mono" maxLength={2000} placeholder="/about or https://…" value={link.url} onInput={(e) => edit(link.key, { url: (e.currentTarget as HTMLInputElement).value })} />}
            </Field>
            <Button variant="ghost" aria-label={`Remove ${name.toLowerCase()} ${i + 1}${link.label ? ` (${link.label})` : ""}`} onClick={() => onChange(links.filter((l) => l.key !== link.key))}>
              Remove
            </Button>
          </li>
        ))}
      </ol>
      <div class="row">
        <Button disabled={links.length >= max} onClick={() => onChange([...links, { key: nextKey(), label: "", url: "" }])}>
          Add to {name.toLowerCase()}
        </Button>
      </div>
    </fieldset>
  );
}

/** The site's languages as a switch between the texts of each (the others are kept while editing one). */
export function LanguageSwitch({ label, languages, lang, onChange, filled }: { label: string; languages: readonly string[]; lang: string; onChange: (lang: string) => void; filled: (lang: string) => boolean }) {
  if (languages.length < 2) return null;
  return (
    <Field label={label}>
      {({ id }) => (
        <select id={id} value={lang} onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value)}>
          {languages.map((l) => (
            <option value={l}>
              {languageLabel(l)}
              {filled(l) ? "" : " — not set"}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

const KNOWN = new Map<string, MediaSummary | null>();

/** A media item by id (the logo, the share image), read once per page. */
function useMedia(id: string | null): MediaSummary | null | undefined {
  const [media, setMedia] = useState<MediaSummary | null | undefined>(id ? KNOWN.get(id) : null);
  useEffect(() => {
    if (!id) return setMedia(null);
    if (KNOWN.has(id)) return setMedia(KNOWN.get(id) ?? null);
    let live = true;
    setMedia(undefined);
    manage("getMedia", { params: { id } }).then(
      ({ media: found }) => {
        KNOWN.set(id, found);
        if (live) setMedia(found);
      },
      () => live && setMedia(null),
    );
    return () => {
      live = false;
    };
  }, [id]);
  return media;
}

/** One image from the media library (or none): its preview and alt text, Choose and Remove. */
export function MediaChoice({ label, id, lang, onChange }: { label: string; id: string | null; lang: string; onChange: (id: string | null) => void }) {
  const media = useMedia(id);
  const [picking, setPicking] = useState(false);
  const alt = media ? altText(media, lang) : "";
  return (
    <div class="stack" role="group" aria-label={label}>
      <span class="label">{label}</span>
      {id === null ? <p class="muted">None chosen.</p> : null}
      {id !== null && media === undefined ? <p class="muted">Loading…</p> : null}
      {id !== null && media === null ? <p class="error">{`The media item ${id} is not in the library any more.`}</p> : null}
      {media ? (
        <span class="media-chosen">
          <MediaThumb media={media} alt={alt} />
          <span class="media-chosen-text">
            <span class="media-chosen-name">{media.file_name}</span>
            <span class="muted">{alt ? `Alt text: ${alt}` : `No alt text in ${lang}`}</span>
          </span>
        </span>
      ) : null}
      <div class="row">
        <Button aria-haspopup="dialog" aria-label={`Choose from library for ${label}`} onClick={() => setPicking(true)}>
          Choose from library
        </Button>
        {id !== null ? (
          <Button variant="ghost" aria-label={`Remove ${label}`} onClick={() => onChange(null)}>
            Remove
          </Button>
        ) : null}
      </div>
      <MediaPicker
        open={picking}
        lang={lang}
        multiple={false}
        kind="image"
        exclude={[]}
        onClose={() => setPicking(false)}
        onPick={(picked) => {
          const first = picked[0];
          if (first) {
            KNOWN.set(first.id, first);
            onChange(first.id);
          }
          setPicking(false);
        }}
      />
    </div>
  );
}

const PART_WORDS: Record<string, string> = {
  site_name: "site name",
  tagline: "tagline",
  header_links: "header link",
  footer_links: "footer link",
  social_links: "social link",
  url: "address",
  label: "label",
  logo_media_id: "logo",
  share_image_media_id: "default share image",
  title_template: "title template",
  description: "description",
  rules: "rule",
  user_agent: "user agent",
  allow: "allowed path",
  disallow: "disallowed path",
};

/**
 * An issue's path in words: `languages.fr.header_links[0].url` → "French (fr), header link 1,
 * address". Unknown parts are kept as they are, so nothing the service said is lost.
 */
export function issuePlace(path: string): string {
  const parts = path.split(".").flatMap((p) => p.split(/(?=\[)/));
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    const index = /^\[(\d+)\]$/.exec(part);
    if (part === "languages" && parts[i + 1]) {
      out.push(languageLabel(parts[++i] as string));
    } else if (index) {
      out[out.length - 1] = `${out[out.length - 1] ?? "item"} ${Number(index[1]) + 1}`;
    } else out.push(PART_WORDS[part] ?? part);
  }
  return out.join(", ");
}

/** Every issue of a refusal as "place: what is wrong". */
export function issueWords(details: Readonly<Record<string, unknown>>): string[] {
  const issues = Array.isArray(details.issues) ? (details.issues as { path?: string; message?: string }[]) : [];
  return issues.map((i) => (i.path ? `${issuePlace(i.path)}: ${i.message ?? "not valid"}` : (i.message ?? "not valid")));
}
