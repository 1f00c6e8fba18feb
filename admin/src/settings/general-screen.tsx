import { useEffect, useState } from "preact/hooks";
import { manage, newActionKey, type ManageAnswer } from "../api/client";
import type { ScreenProps } from "../screens/types";
import { useLoad } from "../screens/use-load";
import { Button, Field, Loading, PageHeader } from "../ui/controls";
import { OrderedList } from "../ui/ordered-list";
import { SettingsLoadFailed } from "./load-failed";
import { SettingsNav } from "./nav";
import { OutcomeNotice, useOutcome } from "./outcome";
import { useSettingsSave } from "./use-settings-save";
import "../styles/settings.css";

type Settings = ManageAnswer<"getSettings">["settings"];
type Body = NonNullable<Parameters<typeof manage<"updateSettings">>[1]>["body"];

const LANG = /^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/;
const KINDS = ["image", "document", "audio", "video", "file"] as const;

/** "a, b c" → ["a", "b", "c"]. */
const words = (text: string) => text.split(/[\s,]+/).map((w) => w.trim()).filter(Boolean);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const languageName = (code: string) => {
  try {
    return new Intl.DisplayNames([navigator.language || "en"], { type: "language" }).of(code) ?? code;
  } catch {
    return code;
  }
};

/** A language's name and its code (the code alone when the browser has no name for it). */
function LangLabel({ code }: { code: string }) {
  const name = languageName(code);
  return name === code ? <code>{code}</code> : (
    <>
      {name} <code>{code}</code>
    </>
  );
}

/**
 * Settings › General (issue #30 item 3, docs/admin-ui-settings.md): the site's languages and
 * fallback order, search, validation mode, review, Trash, embeds and media files, saved together
 * with the revision read (a change someone made meanwhile is refused in words, never overwritten).
 * Only the sections that changed are sent, so a person without site:infra can still save the rest.
 */
export default function GeneralSettings({ site }: ScreenProps) {
  const loaded = useLoad((signal) => Promise.all([manage("getSettings", { signal }), manage("listModels", { signal })]), []);
  const [draft, setDraft] = useState<Settings | null>(null);
  const [weights, setWeights] = useState("");
  const [embeds, setEmbeds] = useState("");
  const [formats, setFormats] = useState<Record<string, string>>({});
  const [newLang, setNewLang] = useState("");
  const [langError, setLangError] = useState<string | null>(null);
  const said = useOutcome();
  const { outcome, done } = said;
  const { busy, run } = useSettingsSave(said, () => loaded.reload());
  const saved = loaded.data?.[0];
  const models = (loaded.data?.[1].data ?? []).filter((m) => m.is_public);

  const reset = (s: Settings) => {
    setDraft(s);
    setWeights(Object.entries(s.search.weights).map(([k, w]) => `${k}=${w}`).join("\n"));
    setEmbeds(s.embed_origins.join("\n"));
    setFormats(Object.fromEntries(KINDS.map((k) => [k, (s.media.allowed[k] ?? []).join(", ")])));
  };
  useEffect(() => {
    if (saved) reset(saved.settings);
  }, [saved]);

  if (loaded.error) return <SettingsLoadFailed site={site} title="Settings" error={loaded.error} />;
  if (!saved || !draft) return <Loading label="Loading settings…" />;
  const set = (patch: Partial<Settings>) => setDraft({ ...draft, ...patch });

  const addLanguage = () => {
    const code = newLang.trim();
    if (!LANG.test(code)) return setLangError("Write a language code such as de, pt-BR or zh-Hant.");
    if (draft.languages.includes(code)) return setLangError(`${languageName(code)} (${code}) is already a language of the site.`);
    setLangError(null);
    setNewLang("");
    // A new language also joins the end of the fallback order, where it can be moved.
    set({ languages: [...draft.languages, code], locale_fallback: [...draft.locale_fallback, code] });
  };
  const removeLanguage = (code: string) =>
    set({ languages: draft.languages.filter((l) => l !== code), locale_fallback: draft.locale_fallback.filter((l) => l !== code) });

  /** Only what changed, so a save never needs permissions for sections left alone. */
  const changes = (): Body => {
    const before = saved.settings;
    const parsedWeights = Object.fromEntries(
      weights
        .split("\n")
        .map((line) => line.split("=").map((p) => p.trim()))
        .filter((parts) => parts.length === 2 && parts[0])
        .map(([k, w]) => [k as string, Number(w)]),
    );
    const search = { ...draft.search, weights: parsedWeights };
    const media = { public_library: draft.media.public_library, allowed: Object.fromEntries(KINDS.map((k) => [k, words(formats[k] ?? "")])) };
    const body: Record<string, unknown> = { expected_revision: saved.revision };
    if (!same(before.languages, draft.languages)) body.languages = draft.languages;
    if (!same(before.locale_fallback, draft.locale_fallback)) body.locale_fallback = draft.locale_fallback;
    if (before.locale_fallback_enabled !== draft.locale_fallback_enabled) body.locale_fallback_enabled = draft.locale_fallback_enabled;
    if (!same(before.search, search)) body.search = { enabled: search.enabled, models: search.models, mode: search.mode, weights: search.weights };
    if (!same(before.embed_origins, words(embeds))) body.embed_origins = words(embeds);
    if (before.retention.trash_days !== draft.retention.trash_days) body.retention = draft.retention;
    if (before.review.required !== draft.review.required) body.review = draft.review;
    if (before.validation_mode !== draft.validation_mode) body.validation_mode = draft.validation_mode;
    if (!same(before.media, { ...before.media, ...media, allowed: { ...before.media.allowed, ...media.allowed } })) body.media = media;
    return body as Body;
  };

  const save = (event: Event) => {
    event.preventDefault();
    if (busy) return;
    const body = changes();
    if (Object.keys(body as object).length === 1) return done("Nothing changed.");
    void run(async () => {
      await manage("updateSettings", { body, key: newActionKey() });
      return "Settings saved.";
    });
  };

  return (
    <>
      <PageHeader title="Settings" />
      <SettingsNav site={site} />
      <OutcomeNotice outcome={outcome} />
      <form class="settings-form" onSubmit={save}>
        <section aria-labelledby="languages-heading" class="settings-section">
          <h2 id="languages-heading">Languages</h2>
          <p class="muted">
            The default language ({languageName(draft.default_language)}) stays; a language that still has entries cannot be removed (move them to Trash and empty it first).
          </p>
          <ul class="settings-languages" aria-label="Languages of the site">
            {draft.languages.map((code) => (
              <li>
                <span>
                  <LangLabel code={code} />
                  {code === draft.default_language ? <strong> · default</strong> : null}
                </span>
                {code === draft.default_language ? null : (
                  <Button variant="ghost" aria-label={`Remove ${languageName(code)} from the site`} onClick={() => removeLanguage(code)}>
                    Remove
                  </Button>
                )}
              </li>
            ))}
          </ul>
          <div class="row settings-add">
            <Field label="Language code" hint="As in BCP 47: de, pt-BR, zh-Hant." errors={langError ? [langError] : []}>
              {(f) => <input id={f.id} value={newLang} aria-describedby={f.describedBy} aria-invalid={f.invalid || undefined} onInput={(e) => setNewLang(e.currentTarget.value)} />}
            </Field>
            <Button onClick={addLanguage}>Add language</Button>
          </div>
          <h3>Fallback order</h3>
          <label class="row">
            <input type="checkbox" checked={draft.locale_fallback_enabled} onChange={(e) => set({ locale_fallback_enabled: e.currentTarget.checked })} />
            Show a missing translation in the next language of this order (public API)
          </label>
          <OrderedList
            label="Fallback order"
            items={draft.locale_fallback}
            keyOf={(code) => code}
            nameOf={(code) => languageName(code)}
            render={(code) => (
              <span>
                <LangLabel code={code} />
              </span>
            )}
            reorderable
            onReorder={(next) => set({ locale_fallback: next })}
            onRemove={(code) => set({ locale_fallback: draft.locale_fallback.filter((l) => l !== code) })}
          />
          {draft.languages.filter((l) => !draft.locale_fallback.includes(l)).map((code) => (
            <Button variant="ghost" aria-label={`Add ${languageName(code)} to the fallback order`} onClick={() => set({ locale_fallback: [...draft.locale_fallback, code] })}>
              + {languageName(code)}
            </Button>
          ))}
        </section>

        <section aria-labelledby="search-heading" class="settings-section">
          <h2 id="search-heading">Search</h2>
          <label class="row">
            <input type="checkbox" checked={draft.search.enabled} onChange={(e) => set({ search: { ...draft.search, enabled: e.currentTarget.checked } })} />
            Public search is on
          </label>
          <Field label="Matching" hint="Words: whole words. Stems: word forms (run, running). Parts: any part of a word.">
            {(f) => (
              <select id={f.id} aria-describedby={f.describedBy} value={draft.search.mode} onChange={(e) => set({ search: { ...draft.search, mode: e.currentTarget.value } })}>
                <option value="words">Words</option>
                <option value="stems">Stems</option>
                <option value="parts">Parts</option>
              </select>
            )}
          </Field>
          <fieldset>
            <legend>Models searched (public models)</legend>
            {models.map((m) => (
              <label class="row">
                <input
                  type="checkbox"
                  checked={draft.search.models.includes(m.id)}
                  onChange={(e) => set({ search: { ...draft.search, models: e.currentTarget.checked ? [...draft.search.models, m.id] : draft.search.models.filter((id) => id !== m.id) } })}
                />
                {m.name}
              </label>
            ))}
          </fieldset>
          <Field label="Weights" hint="One per line: field key (or model slug.field key) = 1 to 10, e.g. title=5. Changing them rebuilds the index.">
            {(f) => <textarea id={f.id} rows={3} aria-describedby={f.describedBy} value={weights} onInput={(e) => setWeights(e.currentTarget.value)} />}
          </Field>
        </section>

        <section aria-labelledby="content-heading" class="settings-section">
          <h2 id="content-heading">Content rules</h2>
          <Field label="Validation mode" hint="Strict also refuses drafts that break a field's rules; default checks them on publishing.">
            {(f) => (
              <select id={f.id} aria-describedby={f.describedBy} value={draft.validation_mode} onChange={(e) => set({ validation_mode: e.currentTarget.value as Settings["validation_mode"] })}>
                <option value="default">Default</option>
                <option value="strict">Strict</option>
              </select>
            )}
          </Field>
          <label class="row">
            <input type="checkbox" checked={draft.review.required} onChange={(e) => set({ review: { required: e.currentTarget.checked } })} />
            Publishing needs a review
          </label>
          <Field label="Days in Trash" hint="1 to 30: entries in Trash longer are deleted for good.">
            {(f) => (
              <input id={f.id} type="number" min={1} max={30} aria-describedby={f.describedBy} value={draft.retention.trash_days} onInput={(e) => set({ retention: { trash_days: Number(e.currentTarget.value) } })} />
            )}
          </Field>
        </section>

        <section aria-labelledby="embeds-heading" class="settings-section">
          <h2 id="embeds-heading">Embeds and media files</h2>
          <Field label="Embed origins" hint="Sites that may embed this site's previews: one https origin per line (https://app.example.com), at most 20.">
            {(f) => <textarea id={f.id} rows={3} aria-describedby={f.describedBy} value={embeds} onInput={(e) => setEmbeds(e.currentTarget.value)} />}
          </Field>
          <label class="row">
            <input type="checkbox" checked={draft.media.public_library} onChange={(e) => set({ media: { ...draft.media, public_library: e.currentTarget.checked } })} />
            Serve every media file publicly (not only files published content uses)
          </label>
          {KINDS.map((kind) => (
            <Field label={`Allowed ${kind} formats`} hint="File-type names, separated by commas (jpg, png, pdf…)">
              {(f) => <input id={f.id} aria-describedby={f.describedBy} value={formats[kind] ?? ""} onInput={(e) => setFormats({ ...formats, [kind]: e.currentTarget.value })} />}
            </Field>
          ))}
        </section>

        <div class="row settings-actions">
          <Button type="submit" variant="primary" busy={busy}>
            Save settings
          </Button>
          <Button variant="ghost" onClick={() => reset(saved.settings)}>
            Undo changes
          </Button>
        </div>
      </form>
    </>
  );
}
