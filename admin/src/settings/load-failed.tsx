import { describeError } from "../api/error-words";
import { Notice, PageHeader } from "../ui/controls";
import { SettingsNav } from "./nav";
import { SETTINGS_WORDS } from "./words";

/** A settings screen whose settings could not be read: its title, the settings sections, the refusal in words. */
export function SettingsLoadFailed({ site, title, error }: { site: string; title: string; error: unknown }) {
  const w = describeError(error, SETTINGS_WORDS);
  return (
    <>
      <PageHeader title={title} />
      <SettingsNav site={site} />
      <Notice kind="error" title={w.title}>
        {w.detail ? <p>{w.detail}</p> : null}
      </Notice>
    </>
  );
}
