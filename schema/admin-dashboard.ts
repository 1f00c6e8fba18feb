import * as v from "valibot";
import type { AdminRouteSpec } from "./admin-api";

/**
 * The editor's home dashboard (issue #30 item 11; docs/admin-ui-content.md, "Home dashboard"): one admin read answering
 * the signed-in person's working lists on the X-Site-Id site, each at most 10 rows, only entries of
 * models and languages the person may read, Trash left out.
 */
const DashboardEntry = v.pipe(
  v.strictObject({
    instance_id: v.string(),
    model_id: v.string(),
    model_name: v.string(),
    lang: v.string(),
    label: v.nullable(v.string()),
    state: v.string(),
    owner_id: v.nullable(v.string()),
    updated_at: v.string(),
    published_at: v.nullable(v.string()),
  }),
  v.title("DashboardEntry"),
);
const ScheduledEntry = v.pipe(
  v.strictObject({ ...DashboardEntry.entries, schedule_id: v.string(), action: v.picklist(["publish", "unpublish"]), at: v.string() }),
  v.title("DashboardScheduledEntry"),
);
const Dashboard = v.pipe(
  v.strictObject({
    my_drafts: v.pipe(v.array(DashboardEntry), v.description("Entries you own in the draft state, last changed first.")),
    assigned_to_me: v.pipe(v.array(DashboardEntry), v.description("Entries naming you as assignee (who acts next), last changed first.")),
    waiting_for_review: v.pipe(v.array(DashboardEntry), v.description("Entries in review that someone else owns, assigned to you or to nobody, oldest first.")),
    scheduled_this_week: v.pipe(v.array(ScheduledEntry), v.description("Pending schedules firing within the next 7 days, soonest first (a schedule of every language lists each language).")),
    recently_published: v.pipe(v.array(DashboardEntry), v.description("Entries published most recently, newest first.")),
  }),
  v.title("EditorDashboard"),
);

export const dashboardRoutes: readonly AdminRouteSpec[] = [
  {
    operationId: "getDashboard",
    method: "get",
    path: "/api/dashboard",
    access: "site",
    summary: "Your home dashboard on the site: your drafts, assigned to you, waiting for your review, scheduled this week, recently published (10 each, readable entries only)",
    response: Dashboard,
    errors: ["unauthorized", "csrf_failed", "invalid_request", "forbidden"],
  },
];
