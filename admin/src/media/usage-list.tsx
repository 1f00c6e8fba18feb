import { Link } from "../ui/controls";
import { paths } from "../router";
import { languageLabel, type MediaUsage } from "./types";

type UsageFields = Pick<MediaUsage, "used_by" | "hidden" | "at_least" | "total" | "more" | "unreadable">;

/** The usage answer in words (`getMediaUsage`, or the details of a `media_in_use` refusal): entries linked to the editor, the hidden count. */
export function UsageList({ site, usage }: { site: string; usage: UsageFields }) {
  if (usage.unreadable) return <p>You may not read this site's content, so where this file is used cannot be shown.</p>;
  if (usage.at_least === 0) return <p>No content uses this file.</p>;
  const count = usage.total ?? usage.at_least;
  return (
    <div class="stack">
      <p>
        {usage.total === null ? `At least ${count}` : count} {count === 1 ? "entry uses" : "entries use"} this file.
      </p>
      {usage.used_by.length ? (
        <ul class="usage-list">
          {usage.used_by.map((user) => (
            <li key={`${user.instance_id}`}>
              <Link href={paths.entry(site, user.instance_id, user.lang)}>{user.label ?? "Untitled entry"}</Link>{" "}
              <span class="muted">
                ({languageLabel(user.lang)}; {[user.published ? "published" : null, user.current ? "current draft" : null, user.in_trash ? "in Trash" : null].filter(Boolean).join(", ")})
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {usage.hidden > 0 ? (
        <p>
          {usage.hidden} {usage.hidden === 1 ? "entry" : "entries"} you may not read {usage.hidden === 1 ? "uses" : "use"} it too; ask someone who can edit that content.
        </p>
      ) : null}
      {usage.more ? <p class="muted">More entries use it than are listed here.</p> : null}
    </div>
  );
}
