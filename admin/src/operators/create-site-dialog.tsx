import { useState } from "preact/hooks";
import { ops } from "../api/client";
import { describeError, fieldIssues } from "../api/error-words";
import { Button, Field, Notice } from "../ui/controls";
import { Dialog } from "../ui/dialog";
import { useAction } from "../ui/use-action";
import { OPERATOR_WORDS, type OpsSite } from "./words";

/** Comma- or space-separated words as a list, empty parts dropped. */
export const wordsOf = (text: string): string[] => text.split(/[\s,]+/).map((w) => w.trim()).filter(Boolean);

/**
 * "Create a site" (createSite): name, slug, hosts, languages and the default language. The site
 * starts with the four seeded roles and no member; its administrator is invited next.
 */
export function CreateSiteDialog(props: { open: boolean; onClose: () => void; onCreated: (site: OpsSite) => void }) {
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const [hosts, setHosts] = useState("");
  const [languages, setLanguages] = useState("en");
  const [defaultLang, setDefaultLang] = useState("");
  const action = useAction({ sameNameIsRetry: true });
  const busy = action.busy !== null;
  const langs = wordsOf(languages);
  const chosenDefault = defaultLang && langs.includes(defaultLang) ? defaultLang : (langs[0] ?? "");

  const close = () => {
    setName("");
    setSlug("");
    setHosts("");
    setLanguages("en");
    setDefaultLang("");
    action.clearError();
    props.onClose();
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    const body = { name: name.trim(), slug: slug.trim(), hosts: wordsOf(hosts), languages: langs, default_lang: chosenDefault };
    const outcome = await action.attempt(JSON.stringify(body), (key) => ops("createSite", { body, key }));
    if (outcome?.ok) {
      close();
      props.onCreated(outcome.value);
    }
  };

  const issues = fieldIssues(action.error);
  const refusal = action.error ? describeError(action.error, OPERATOR_WORDS) : null;
  const issueOf = (path: string) => [...issues.entries()].filter(([p]) => p === path || p.startsWith(`${path}.`) || p.startsWith(`${path}[`)).flatMap(([, m]) => m);

  return (
    <Dialog open={props.open} title="Create a site" busy={busy} onClose={close} class="operators-dialog">
      <form class="stack" onSubmit={submit} noValidate>
        {refusal ? (
          <Notice kind="error" title={refusal.title}>
            {refusal.detail ? <p class="muted">{refusal.detail}</p> : null}
          </Notice>
        ) : null}
        <Field label="Name" errors={issueOf("name")}>
          {(f) => <input id={f.id} required maxLength={200} value={name} aria-describedby={f.describedBy} aria-invalid={f.invalid || undefined} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <Field label="Slug" hint="Lower-case letters, digits and inner hyphens; names the site in addresses and commands." errors={issueOf("slug")}>
          {(f) => <input id={f.id} required maxLength={63} spellcheck={false} autocomplete="off" value={slug} aria-describedby={f.describedBy} aria-invalid={f.invalid || undefined} onInput={(e) => setSlug(e.currentTarget.value)} />}
        </Field>
        <Field label="Hosts" hint="The DNS names the site's public API answers on, separated by commas (for example shop.example.com)." errors={issueOf("hosts")}>
          {(f) => <input id={f.id} required spellcheck={false} autocomplete="off" value={hosts} aria-describedby={f.describedBy} aria-invalid={f.invalid || undefined} onInput={(e) => setHosts(e.currentTarget.value)} />}
        </Field>
        <Field label="Languages" hint="Language codes separated by commas, for example en, de." errors={issueOf("languages")}>
          {(f) => <input id={f.id} required spellcheck={false} value={languages} aria-describedby={f.describedBy} aria-invalid={f.invalid || undefined} onInput={(e) => setLanguages(e.currentTarget.value)} />}
        </Field>
        <Field label="Default language" errors={issueOf("default_lang")}>
          {(f) => (
            <select id={f.id} value={chosenDefault} aria-describedby={f.describedBy} onChange={(e) => setDefaultLang(e.currentTarget.value)}>
              {langs.map((l) => (
                <option value={l}>{l}</option>
              ))}
            </select>
          )}
        </Field>
        <div class="row">
          <Button type="submit" variant="primary" busy={busy}>
            Create site
          </Button>
          <Button onClick={close} disabled={busy}>
            Cancel
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
