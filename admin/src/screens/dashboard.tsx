import { admin, type AdminAnswer } from "../api/client";
import { describeError } from "../api/error-words";
import { languageLabel } from "../media/types";
import { paths } from "../router";
import { Link, Loading, Notice, PageHeader, StateBadge } from "../ui/controls";
import type { ScreenProps } from "./types";
import { useLoad } from "./use-load";
import "../styles/content.css";

type Dashboard = AdminAnswer<"getDashboard">;
type Row = Dashboard["my_drafts"][number];

const when = (iso: string) => new Date(iso).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });

/**
 * The editor's home (issue #30 item 11; docs/admin-ui-content.md, "Home dashboard"): one read
 * (`GET /api/dashboard`), five short lists, each row a link to its editor with its model, language
 * and state in words.
 */
export default function DashboardScreen({ site }: ScreenProps) {
  const loaded = useLoad((signal) => admin("getDashboard", { signal }), [site]);
  if (loaded.error) {
    const words = describeError(loaded.error);
    return (
      <>
        <PageHeader title="Home" />
        <Notice kind="error" title={words.title}>{words.detail}</Notice>
      </>
    );
  }
  if (!loaded.data) return <Loading label="Loading your dashboard…" />;
  const board = loaded.data;
  const row = (e: Row, extra?: string) => (
    <li>
      <Link href={paths.entry(site, e.instance_id, e.lang)}>{e.label ?? "(untitled)"}</Link>{" "}
      <span class="muted">
        {e.model_name} · {languageLabel(e.lang)}
        {extra ? ` · ${extra}` : ""}
      </span>{" "}
      <StateBadge state={e.state} />
    </li>
  );
  const list = (title: string, rows: Row[], empty: string, extra?: (e: Row) => string) => (
    <section class="dashboard-card" aria-labelledby={`dash-${title.replace(/\W+/g, "-")}`}>
      <h2 id={`dash-${title.replace(/\W+/g, "-")}`}>{title}</h2>
      {rows.length ? <ul class="dashboard-list">{rows.map((e) => row(e, extra?.(e)))}</ul> : <p class="muted">{empty}</p>}
    </section>
  );
  return (
    <>
      <PageHeader title="Home" />
      <p class="visually-hidden" role="status">
        Dashboard loaded.
      </p>
      <div class="dashboard">
        {list("Assigned to me", board.assigned_to_me, "Nothing is assigned to you.", (e) => `changed ${when(e.updated_at)}`)}
        {list("Waiting for my review", board.waiting_for_review, "Nothing waits for your review.")}
        {list("My drafts", board.my_drafts, "You have no drafts.", (e) => `changed ${when(e.updated_at)}`)}
        {list("Scheduled this week", board.scheduled_this_week, "Nothing is scheduled in the next 7 days.", (e) => {
          const s = e as Dashboard["scheduled_this_week"][number];
          return `${s.action === "publish" ? "publishes" : "unpublishes"} ${when(s.at)}`;
        })}
        {list("Recently published", board.recently_published, "Nothing has been published yet.", (e) => (e.published_at ? `published ${when(e.published_at)}` : ""))}
      </div>
      <p>
        <Link href={paths.content(site)}>All content</Link>
      </p>
    </>
  );
}
