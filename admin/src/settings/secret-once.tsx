import { useRef, useState } from "preact/hooks";
import { Button, Field } from "../ui/controls";

/**
 * A secret the service shows this once (a credential, a token, a webhook's signing secret): a
 * read-only field and a Copy button, with the copy's outcome said in words. Closing forgets it.
 */
export function SecretOnce({ label, value, copyLabel, onDone, onCopied }: { label: string; value: string; copyLabel: string; onDone: () => void; onCopied: (words: string) => void }) {
  const ref = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  // The copy's outcome is said by the screen's one live region (onCopied), not a second one here.
  const copy = async () => {
    ref.current?.select();
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      onCopied(`${label}: copied to the clipboard.`);
    } catch {
      // Clipboard refused (no permission or not a secure context): the secret stays selected.
      onCopied("Copying was refused by the browser: the secret is selected, copy it with Ctrl+C or ⌘C.");
    }
  };
  return (
    <div class="secret-once">
      <Field label={label} hint="Shown only now: the service keeps only a digest. Store it where your script or app reads secrets.">
        {(f) => (
          <div class="secret-row">
            <input id={f.id} ref={ref} type="text" readOnly value={value} aria-describedby={f.describedBy} spellcheck={false} class="secret-value" />
            <Button onClick={copy}>{copyLabel}</Button>
          </div>
        )}
      </Field>
      {copied ? <p class="muted">✓ Copied</p> : null}
      <Button variant="primary" onClick={onDone}>
        I have stored it
      </Button>
    </div>
  );
}
