import { useEffect, useState } from "preact/hooks";
import { admin, ApiError, manage } from "../api/client";
import { describeError } from "../api/error-words";
import type { ScreenProps } from "../screens/types";
import { useLoad } from "../screens/use-load";
import { Button, Loading, Notice, PageHeader } from "../ui/controls";
import { issueWords } from "./chrome-parts";
import { ChromeForm, SeoForm } from "./chrome-forms";
import { RobotsForm } from "./robots-form";
import type { SectionProps } from "./section-form";
import { OutcomeNotice, SiteNav, useOutcome } from "./shared";
import "../styles/site.css";

export type Section = "chrome" | "seo" | "robots";

/**
 * Site Chrome, SEO defaults and robots (issue #29 item 4; docs/site-chrome.md): three forms on one
 * screen, each saved by its own PUT. The three are one site setting with one revision, so the
 * screen keeps that revision: saving one form moves it for the others, and a write by anyone else
 * in between is refused (`settings_changed`) and explained, with a way to load theirs.
 */
export default function ChromeScreen({ site }: ScreenProps) {
  const loaded = useLoad(async (signal) => {
    const [info, chrome, seo, robots, hosts] = await Promise.all([
      manage("getSite", { signal }),
      manage("getSiteChrome", { signal }),
      manage("getSeoSettings", { signal }),
      manage("getRobotsRules", { signal }),
      admin("listSiteHosts", { signal }).catch(() => ({ data: [] as { host: string }[] })),
    ]);
    return { languages: info.languages, defaultLang: info.default_lang, chrome, seo, robots, host: hosts.data[0]?.host ?? null };
  }, []);
  const [revision, setRevision] = useState(0);
  const [busy, setBusy] = useState<Section | null>(null);
  const [where, setWhere] = useState<Section | null>(null);
  const [stale, setStale] = useState(false);
  const note = useOutcome();

  useEffect(() => {
    if (!loaded.data) return;
    // The three reads may straddle a write: the lowest is the one every form was read at.
    setRevision(Math.min(loaded.data.chrome.revision, loaded.data.seo.revision, loaded.data.robots.revision));
    setStale(false);
  }, [loaded.data]);

  const saver =
    (section: Section): SectionProps["save"] =>
    async (run) => {
      setWhere(section);
      setBusy(section);
      try {
        const done = await run(revision);
        setRevision(done.revision);
        setStale(false);
        note.say(done.said);
      } catch (error) {
        if (error instanceof ApiError && error.code === "settings_changed") setStale(true);
        note.fail(error, OWN_WORDS, error instanceof ApiError ? issueWords(error.details) : undefined);
      } finally {
        setBusy(null);
      }
    };

  const notice = (section: Section) =>
    where === section ? (
      <>
        <OutcomeNotice outcome={note.outcome} />
        {stale ? (
          <div class="row">
            <Button
              onClick={() => {
                note.clear();
                loaded.reload();
              }}
            >
              Load the current settings
            </Button>
          </div>
        ) : null}
      </>
    ) : null;

  const data = loaded.data;
  const common = data ? { languages: data.languages, defaultLang: data.defaultLang } : null;
  return (
    <>
      <PageHeader title="Site Chrome, SEO and robots" />
      <SiteNav site={site} />
      {loaded.loading ? <Loading label="Loading the site's settings…" /> : null}
      {loaded.error ? <Notice kind="error" title={describeError(loaded.error).title} /> : null}
      {data && common && !loaded.loading ? (
        <div class="stack">
          <ChromeForm {...common} initial={data.chrome.chrome} busy={busy === "chrome"} save={saver("chrome")} notice={notice("chrome")} />
          <SeoForm {...common} initial={data.seo.seo} busy={busy === "seo"} save={saver("seo")} notice={notice("seo")} />
          <RobotsForm {...common} initial={data.robots.robots} sitemapPath={data.robots.sitemap_path} host={data.host} busy={busy === "robots"} save={saver("robots")} notice={notice("robots")} />
        </div>
      ) : null}
    </>
  );
}

/** This screen's words for refusals whose general words say less here. */
const OWN_WORDS: Readonly<Record<string, string>> = {
  settings_changed: "Not saved: someone changed the site's settings after you opened this screen. Load the current settings (your changes here are replaced), then make your change again.",
  invalid_request: "Not saved: some values are not valid. Each problem is listed below.",
  missing_permission: "Not saved: changing these settings needs the site:settings permission.",
};
