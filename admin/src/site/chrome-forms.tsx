import { useState } from "preact/hooks";
import { manage, newActionKey, type ManageAnswer } from "../api/client";
import { languageLabel } from "../media/types";
import { Button, Field } from "../ui/controls";
import { editable, LanguageSwitch, LinkList, MediaChoice, nextKey, sendable, type EditLink } from "./chrome-parts";
import { refuseIfAny, SectionForm, type FormIssue, type SectionProps } from "./section-form";

type Chrome = ManageAnswer<"getSiteChrome">["chrome"];
type Seo = ManageAnswer<"getSeoSettings">["seo"];
type Texts = { site_name: string; tagline: string; header: EditLink[]; footer: EditLink[] };
type Social = { key: number; network: string; url: string };

const NETWORKS: readonly [string, string][] = [
  ["mastodon", "Mastodon"],
  ["bluesky", "Bluesky"],
  ["github", "GitHub"],
  ["linkedin", "LinkedIn"],
  ["instagram", "Instagram"],
  ["youtube", "YouTube"],
  ["facebook", "Facebook"],
  ["x", "X"],
  ["threads", "Threads"],
  ["rss", "RSS feed"],
  ["other", "Other"],
];

/** Site Chrome: per language the site name, tagline, header and footer links; the logo; social links. */
export function ChromeForm({ languages, defaultLang, initial, busy, save, notice }: SectionProps & { initial: Chrome }) {
  const [lang, setLang] = useState(defaultLang);
  const [texts, setTexts] = useState<Record<string, Texts>>(() =>
    Object.fromEntries(languages.map((l) => {
      const t = initial.languages[l];
      return [l, { site_name: t?.site_name ?? "", tagline: t?.tagline ?? "", header: editable(t?.header_links ?? []), footer: editable(t?.footer_links ?? []) }];
    })),
  );
  const [logo, setLogo] = useState<string | null>(initial.logo_media_id);
  const [social, setSocial] = useState<Social[]>(() => editable(initial.social_links));
  const here = texts[lang] ?? { site_name: "", tagline: "", header: [], footer: [] };
  const change = (next: Partial<Texts>) => setTexts({ ...texts, [lang]: { ...here, ...next } });
  const filled = (l: string) => Boolean(texts[l]?.site_name.trim());
  const editSocial = (key: number, next: Partial<Social>) => setSocial(social.map((s) => (s.key === key ? { ...s, ...next } : s)));

  const write = async (expected: number) => {
    const body: Record<string, { site_name: string; tagline: string | null; header_links: { label: string; url: string }[]; footer_links: { label: string; url: string }[] }> = {};
    const issues: FormIssue[] = [];
    for (const [l, t] of Object.entries(texts)) {
      const header = sendable(t.header);
      const footer = sendable(t.footer);
      const any = t.site_name.trim() || t.tagline.trim() || header.length || footer.length;
      if (!any) continue;
      if (!t.site_name.trim()) issues.push({ path: `languages.${l}.site_name`, message: "give the site name, or clear this language's texts" });
      body[l] = { site_name: t.site_name.trim(), tagline: t.tagline.trim() || null, header_links: header, footer_links: footer };
    }
    refuseIfAny(issues);
    const saved = await manage("putSiteChrome", {
      body: { languages: body, logo_media_id: logo, social_links: social.filter((s) => s.url.trim()).map((s) => ({ network: s.network as "other", url: s.url.trim() })), expected_revision: expected },
      key: newActionKey(),
    });
    const named = Object.keys(saved.chrome.languages).map(languageLabel);
    return { revision: saved.revision, said: named.length ? `Site Chrome saved for ${named.join(", ")}.` : "Site Chrome saved: no texts set; the site's name is used." };
  };

  return (
    <SectionForm id="chrome" title="Site Chrome" intro="What every page of the website shows around its content. Links are site paths (/about) or https addresses." saveLabel="Save Site Chrome" busy={busy} notice={notice} save={save} write={write}>
      <LanguageSwitch label="Language of the Site Chrome texts" languages={languages} lang={lang} onChange={setLang} filled={filled} />
      <fieldset class="stack">
        <legend>{`Texts in ${languageLabel(lang)}`}</legend>
        <Field label="Site name">{({ id }) => <input id={id} type="text" maxLength={120} value={here.site_name} onInput={(e) => change({ site_name: (e.currentTarget as HTMLInputElement).value })} />}</Field>
        <Field label="Tagline" hint="Optional: a line under the name.">
          {({ id, describedBy }) => <input id={id} aria-describedby={describedBy} type="text" maxLength={300} value={here.tagline} onInput={(e) => change({ tagline: (e.currentTarget as HTMLInputElement).value })} />}
        </Field>
        <LinkList name="Header links" links={here.header} max={20} onChange={(header) => change({ header })} />
        <LinkList name="Footer links" links={here.footer} max={40} onChange={(footer) => change({ footer })} />
      </fieldset>
      <MediaChoice label="Logo" id={logo} lang={lang} onChange={setLogo} />
      <fieldset class="stack">
        <legend>Social links</legend>
        {social.length === 0 ? <p class="muted">No social link yet.</p> : null}
        <ol class="chrome-links">
          {social.map((s, i) => (
            <li class="row">
              <Field label={`Social link ${i + 1}: network`}>
                {({ id }) => (
                  <select id={id} value={s.network} onChange={(e) => editSocial(s.key, { network: (e.currentTarget as HTMLSelectElement).value })}>
                    {NETWORKS.map(([value, name]) => (
                      <option value={value}>{name}</option>
                    ))}
                  </select>
                )}
              </Field>
              <Field label={`Social link ${i + 1}: address`}>
                {({ id }) => <input id={id} type="text" class="mono" maxLength={2000} placeholder="https://…" value={s.url} onInput={(e) => editSocial(s.key, { url: (e.currentTarget as HTMLInputElement).value })} />}
              </Field>
              <Button variant="ghost" aria-label={`Remove social link ${i + 1}`} onClick={() => setSocial(social.filter((x) => x.key !== s.key))}>
                Remove
              </Button>
            </li>
          ))}
        </ol>
        <div class="row">
          <Button disabled={social.length >= 20} onClick={() => setSocial([...social, { key: nextKey(), network: "mastodon", url: "" }])}>
            Add a social link
          </Button>
        </div>
      </fieldset>
    </SectionForm>
  );
}

/** The page title a template makes: `%s` replaced by the page's title. */
export const titleFrom = (template: string, pageTitle: string) => (template.includes("%s") ? template.replace("%s", pageTitle) : template);

/** SEO defaults: per language the title template (with a live preview) and description; the default share image. */
export function SeoForm({ languages, defaultLang, initial, busy, save, notice }: SectionProps & { initial: Seo }) {
  const [lang, setLang] = useState(defaultLang);
  const [texts, setTexts] = useState<Record<string, { template: string; description: string }>>(() =>
    Object.fromEntries(languages.map((l) => [l, { template: initial.languages[l]?.title_template ?? "", description: initial.languages[l]?.description ?? "" }])),
  );
  const [image, setImage] = useState<string | null>(initial.share_image_media_id);
  const [sample, setSample] = useState("About us");
  const here = texts[lang] ?? { template: "", description: "" };
  const change = (next: Partial<typeof here>) => setTexts({ ...texts, [lang]: { ...here, ...next } });
  const marks = (here.template.match(/%s/g) ?? []).length;
  const templateHint = here.template && marks !== 1 ? `The template holds %s ${marks === 0 ? "nowhere" : `${marks} times`}: it needs it exactly once, where the page's title goes.` : undefined;

  const write = async (expected: number) => {
    const body: Record<string, { title_template: string; description: string | null }> = {};
    const issues: FormIssue[] = [];
    for (const [l, t] of Object.entries(texts)) {
      if (!t.template.trim() && !t.description.trim()) continue;
      if (!t.template.trim()) issues.push({ path: `languages.${l}.title_template`, message: "give a title template with %s, or clear this language's description" });
      body[l] = { title_template: t.template.trim(), description: t.description.trim() || null };
    }
    refuseIfAny(issues);
    const saved = await manage("putSeoSettings", { body: { languages: body, share_image_media_id: image, expected_revision: expected }, key: newActionKey() });
    const named = Object.keys(saved.seo.languages).map(languageLabel);
    return { revision: saved.revision, said: named.length ? `SEO defaults saved for ${named.join(", ")}.` : "SEO defaults saved: no title template; page titles are used as they are." };
  };

  const previewTitle = titleFrom(here.template.trim() || "%s", sample || "Page title");
  return (
    <SectionForm id="seo" title="SEO defaults" intro="Used for every page without its own SEO fields. %s in the template stands for the page's title." saveLabel="Save SEO defaults" busy={busy} notice={notice} save={save} write={write}>
      <LanguageSwitch label="Language of the SEO texts" languages={languages} lang={lang} onChange={setLang} filled={(l) => Boolean(texts[l]?.template.trim())} />
      <fieldset class="stack">
        <legend>{`SEO in ${languageLabel(lang)}`}</legend>
        {/* The template's check is a hint, not an alert: the screen keeps one live region (its outcome). */}
        <Field label="Title template" hint={templateHint ?? 'Like "%s · Harbour Notes".'}>
          {({ id, describedBy }) => (
            <input id={id} aria-describedby={describedBy} aria-invalid={templateHint ? "true" : undefined} type="text" maxLength={200} value={here.template} onInput={(e) => change({ template: (e.currentTarget as HTMLInputElement).value })} />
          )}
        </Field>
        <Field label="Description" hint="Optional: the summary search engines and shares show (at most 500 characters).">
          {({ id, describedBy }) => <textarea id={id} aria-describedby={describedBy} rows={3} maxLength={500} value={here.description} onInput={(e) => change({ description: (e.currentTarget as HTMLTextAreaElement).value })} />}
        </Field>
      </fieldset>
      <div class="stack chrome-preview">
        <Field label="Preview with the page title">{({ id }) => <input id={id} type="text" maxLength={200} value={sample} onInput={(e) => setSample((e.currentTarget as HTMLInputElement).value)} />}</Field>
        <figure class="seo-preview" aria-labelledby="seo-preview-caption">
          <figcaption id="seo-preview-caption" class="muted">
            How a search result could show the page
          </figcaption>
          <p class="seo-preview-title" data-testid="seo-preview-title">
            {previewTitle}
          </p>
          <p class="seo-preview-description">{here.description.trim() || "(no description)"}</p>
        </figure>
      </div>
      <MediaChoice label="Default share image" id={image} lang={lang} onChange={setImage} />
    </SectionForm>
  );
}
