import type { ComponentChildren } from "preact";
import { ApiError } from "../api/client";
import { Button } from "../ui/controls";

/** What each form of the Site Chrome screen gets: the site's languages and a save that keeps the one revision the three share. */
export interface SectionProps {
  languages: readonly string[];
  defaultLang: string;
  busy: boolean;
  /** Runs one write with the current settings revision; its answer's revision becomes the current one. */
  save: (run: (expected: number) => Promise<{ revision: number; said: string }>) => Promise<void>;
  /** The screen's one announcement, shown in the form that last saved. */
  notice: ComponentChildren;
}

/** A problem found in the form, as the service would list it (`details.issues`). */
export type FormIssue = { path: string; message: string };

/**
 * Refuses before asking the service when the form found problems, in the shape the service's own
 * refusal has — so the screen says both the same way (chrome-screen.tsx, `issueWords`).
 */
export function refuseIfAny(issues: readonly FormIssue[], message = "Some values are not valid."): void {
  if (issues.length) throw new ApiError(400, "invalid_request", message, { issues });
}

/**
 * One form of the Site Chrome screen (Site Chrome, SEO defaults, robots): its heading and intro,
 * its fields, the screen's notice when this form saved last, and its Save button. Submitting runs
 * `write` through the screen's `save`, which hands it the settings revision the three forms share
 * and keeps the one it answers.
 */
export function SectionForm(props: {
  id: string;
  title: string;
  intro: ComponentChildren;
  saveLabel: string;
  busy: boolean;
  notice: ComponentChildren;
  save: SectionProps["save"];
  write: (expected: number) => Promise<{ revision: number; said: string }>;
  children: ComponentChildren;
}) {
  const heading = `${props.id}-heading`;
  return (
    <form
      class="stack site-panel"
      aria-labelledby={heading}
      onSubmit={(event) => {
        event.preventDefault();
        void props.save(props.write);
      }}
    >
      <h2 id={heading}>{props.title}</h2>
      <p class="muted">{props.intro}</p>
      {props.children}
      {props.notice}
      <div class="row">
        <Button type="submit" variant="primary" busy={props.busy}>
          {props.saveLabel}
        </Button>
      </div>
    </form>
  );
}
