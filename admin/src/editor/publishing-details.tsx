import { useEffect, useState } from "preact/hooks";
import type { Entry, FieldDefinition, Model } from "../fields/types";
import { Button } from "../ui/controls";
import { siteOrigin } from "./site-origin";

/**
 * Publishing details of the entry editor (issue #30 item 15, docs/admin-ui-lifecycle.md
 * "Publishing details"): "View on site" — the published language's address on the website, from
 * the model's `settings.site_path` (`/blog/{slug}`, `/{lang}/blog/{slug}`, docs/sitemap.md) on the
 * site's first host — and a published date field left empty, filled from the publication on request.
 */

/** The website path of an entry from its model's `site_path`, or null (no pattern, or no slug). */
export function sitePathOf(pattern: string | null | undefined, lang: string, slug: string | null): string | null {
  if (!pattern || !slug) return null;
  return pattern.replace("{lang}", encodeURIComponent(lang)).replace("{slug}", encodeURIComponent(slug));
}

const PUBLISHED_KEY = /^(published|publish|publication)[_-]?(date|at|on|time)$|^date[_-]?published$/i;

/** The model's "published date" field: a date or date-time field so named (key or label). */
export function publishedDateField(fields: readonly FieldDefinition[]): FieldDefinition | undefined {
  return fields.find((f) => (f.type === "date" || f.type === "datetime") && (PUBLISHED_KEY.test(f.key) || /^publi(shed|cation) (date|on)$/i.test(f.label ?? "")));
}

/** The publication time as the field's type stores it: a day (`YYYY-MM-DD`, in the reader's time zone) or the instant. */
function asFieldValue(field: FieldDefinition, iso: string): string {
  if (field.type === "datetime") return iso;
  const at = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

function languageName(lang: string): string {
  try {
    return new Intl.DisplayNames(undefined, { type: "language" }).of(lang) ?? lang;
  } catch {
    return lang;
  }
}

export function PublishingDetails(props: { model: Model; entry: Entry; fields: readonly FieldDefinition[]; values: Record<string, unknown>; readOnly: boolean; onFill: (key: string, value: string) => void }) {
  const { model, entry } = props;
  const settings = (model as { settings?: { site_path?: string | null } }).settings;
  const path = entry.published_version_id ? sitePathOf(settings?.site_path, entry.lang, entry.slug) : null;
  const [origin, setOrigin] = useState<string | null>(null);
  useEffect(() => {
    if (path) void siteOrigin().then(setOrigin);
  }, [path]);
  const dateField = publishedDateField(props.fields);
  const empty = dateField !== undefined && (props.values[dateField.key] === undefined || props.values[dateField.key] === null || props.values[dateField.key] === "");
  const published = entry.published_at;
  if (!(path && origin) && !(empty && published)) return null;
  return (
    <div class="row publishing-details">
      {path && origin ? (
        <a class="button" href={`${origin}${path}`} target="_blank" rel="noopener noreferrer">
          View on site<span class="visually-hidden"> ({languageName(entry.lang)}, opens in a new tab)</span>
        </a>
      ) : null}
      {dateField && empty && published ? (
        <span class="row">
          <span class="small muted">
            {dateField.label ?? dateField.key} is empty; this language was published on {new Date(published).toLocaleDateString()}.
          </span>
          <Button disabled={props.readOnly} onClick={() => props.onFill(dateField.key, asFieldValue(dateField, published))}>
            Fill {dateField.label ?? dateField.key} from the publication
          </Button>
        </span>
      ) : null}
    </div>
  );
}
