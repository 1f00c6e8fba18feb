import { useEffect, useState } from "preact/hooks";
import { manage } from "../api/client";
import { Field } from "../ui/controls";

/**
 * The entry's address (its slug) with a live availability answer: 400 ms after typing stops, the
 * entries list is asked for another entry of the model and language at exactly that slug
 * (`listEntries` with `slug`). The answer is advice; the save's `slug_taken` stays the rule.
 */
export function AddressField(props: { modelId: string; lang: string; instanceId: string; saved: string; value: string; onChange: (slug: string) => void; readOnly: boolean; errors: readonly string[] }) {
  const [state, setState] = useState<{ slug: string; status: "checking" | "free" | "taken" | "unknown" } | null>(null);
  const slug = props.value.trim();
  useEffect(() => {
    if (!slug || slug === props.saved) {
      setState(null);
      return;
    }
    const abort = new AbortController();
    setState({ slug, status: "checking" });
    const timer = setTimeout(() => {
      manage("listEntries", { query: { model_id: props.modelId, lang: props.lang, slug, limit: "2" }, signal: abort.signal })
        .then((answer) => setState({ slug, status: answer.data.some((e) => e.instance_id !== props.instanceId) ? "taken" : "free" }))
        .catch(() => {
          if (!abort.signal.aborted) setState({ slug, status: "unknown" });
        });
    }, 400);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [slug, props.modelId, props.lang]);
  const words = state?.status === "checking" ? "Checking whether this address is free…" : state?.status === "free" ? "✓ This address is free." : state?.status === "taken" ? "✕ Another entry of this model and language already uses this address." : state?.status === "unknown" ? "Could not check this address." : "";
  return (
    <Field
      label={
        <>
          Slug (address){props.readOnly ? <span class="mark mark-read-only"> (read-only)</span> : null}
        </>
      }
      hint="Lower-case letters, digits and single hyphens, e.g. harbour-lights."
      errors={props.errors}
    >
      {({ id, describedBy, invalid }) => (
        <>
          <input
            type="text"
            id={id}
            class="mono"
            value={props.value}
            readOnly={props.readOnly}
            spellcheck={false}
            autoCapitalize="off"
            autoComplete="off"
            maxLength={200}
            aria-describedby={[describedBy, `${id}-availability`].filter(Boolean).join(" ")}
            aria-invalid={invalid || state?.status === "taken" ? "true" : undefined}
            onInput={(event) => props.onChange((event.currentTarget as HTMLInputElement).value)}
          />
          <p class={`availability availability-${state?.status ?? "none"}`} id={`${id}-availability`} role="status" aria-live="polite">
            {words}
          </p>
        </>
      )}
    </Field>
  );
}
