import { useState } from "preact/hooks";
import { ops } from "../api/client";
import { describeError, fieldIssues } from "../api/error-words";
import { Button, Field, Notice } from "../ui/controls";
import { Dialog } from "../ui/dialog";
import { useAction } from "../ui/use-action";
import { wordsOf } from "./create-site-dialog";
import { runToEnd } from "./run-to-end";
import { OPERATOR_WORDS, type OpsSite } from "./words";

/**
 * "Copy this site" (copySite into a new site, docs/site-copy.md): models, roles and settings
 * always; the media library and the content when chosen. The copy runs in shares; the dialog
 * shows what is copied so far and opens the new site when done.
 */
export function CopySiteDialog(props: { open: boolean; template: OpsSite; onClose: () => void; onCopied: (site: OpsSite) => void }) {
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const [hosts, setHosts] = useState("");
  const [content, setContent] = useState(true);
  const [media, setMedia] = useState(true);
  const [progress, setProgress] = useState<string>("");
  const action = useAction({ sameNameIsRetry: true });
  const busy = action.busy !== null;

  const close = () => {
    setName("");
    setSlug("");
    setHosts("");
    setProgress("");
    action.clearError();
    props.onClose();
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    const body = { to: { name: name.trim(), slug: slug.trim(), hosts: wordsOf(hosts) }, content, media: media || content };
    const outcome = await action.attempt(JSON.stringify(body), (key) =>
      runToEnd(
        async () => {
          const answer = await ops("copySite", { params: { id: props.template.id }, body, key });
          // Only a `dry_run: true` request answers a plan; this one never asks for it.
          if (answer.dry_run) throw new Error("The service answered a dry run.");
          return answer;
        },
        (answer) => setProgress(`${answer.copied.rows} rows and ${answer.copied.objects} files copied${answer.state === "done" ? "." : " so far…"}`),
      ),
    );
    if (outcome?.ok) {
      close();
      props.onCopied(outcome.value.site);
    }
  };

  const issues = fieldIssues(action.error);
  const refusal = action.error ? describeError(action.error, OPERATOR_WORDS) : null;
  const issueOf = (path: string) => [...issues.entries()].filter(([p]) => p.startsWith(`to.${path}`)).flatMap(([, m]) => m);

  return (
    <Dialog open={props.open} title={`Copy ${props.template.name}`} busy={busy} onClose={close} class="operators-dialog">
      <form class="stack" onSubmit={submit} noValidate>
        <p>A new site gets this site's models, roles and settings{content ? ", its media library and its content" : media ? " and its media library" : ""}. Nobody is a member of it until you invite its administrator.</p>
        {refusal ? (
          <Notice kind="error" title={refusal.title}>
            {refusal.detail ? <p class="muted">{refusal.detail}</p> : null}
          </Notice>
        ) : null}
        <Field label="New site's name" errors={issueOf("name")}>
          {(f) => <input id={f.id} required maxLength={200} value={name} aria-describedby={f.describedBy} aria-invalid={f.invalid || undefined} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <Field label="New site's slug" errors={issueOf("slug")}>
          {(f) => <input id={f.id} required spellcheck={false} autocomplete="off" value={slug} aria-describedby={f.describedBy} aria-invalid={f.invalid || undefined} onInput={(e) => setSlug(e.currentTarget.value)} />}
        </Field>
        <Field label="New site's hosts" hint="Separated by commas." errors={issueOf("hosts")}>
          {(f) => <input id={f.id} required spellcheck={false} autocomplete="off" value={hosts} aria-describedby={f.describedBy} aria-invalid={f.invalid || undefined} onInput={(e) => setHosts(e.currentTarget.value)} />}
        </Field>
        <label class="row">
          <input type="checkbox" checked={content} onChange={(e) => setContent(e.currentTarget.checked)} /> Copy the content (entries, versions, what is published)
        </label>
        <label class="row">
          <input type="checkbox" checked={media || content} disabled={content} onChange={(e) => setMedia(e.currentTarget.checked)} /> Copy the media library {content ? "(needed by the content)" : ""}
        </label>
        <p role="status" aria-live="polite" class="muted">
          {progress}
        </p>
        <div class="row">
          <Button type="submit" variant="primary" busy={busy}>
            Copy site
          </Button>
          <Button onClick={close} disabled={busy}>
            Cancel
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
