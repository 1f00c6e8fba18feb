import { useState } from "preact/hooks";
import { manage, newActionKey, type ManageAnswer } from "../api/client";
import { describeError } from "../api/error-words";
import { paths } from "../router";
import type { ScreenProps } from "../screens/types";
import { useLoad } from "../screens/use-load";
import { Button, Field, Link, Loading, Notice, PageHeader } from "../ui/controls";
import { OutcomeNotice, SiteNav, useOutcome, when } from "./shared";
import "../styles/site.css";

type Schedule = ManageAnswer<"getPublishingCalendar">["days"][number]["schedules"][number];

const STATE_WORDS: Record<Schedule["state"], string> = { scheduled: "Scheduled", done: "Done", stale: "Not published: the entry changed", failed: "Failed", cancelled: "Cancelled" };
const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The publishing calendar (issue #27 item 2, docs/scheduled-publishing.md): the schedules of a
 * span of days (`getPublishingCalendar`, 31 days from a chosen date), by day, each with its entry,
 * language, action and outcome; a waiting one can be cancelled. Releases at a time are on the
 * Releases screen.
 */
export default function CalendarScreen({ site, search }: ScreenProps) {
  const [from, setFrom] = useState(search.get("from") ?? day(new Date()));
  const to = day(new Date(Date.parse(`${from}T00:00:00Z`) + 30 * 86_400_000));
  const loaded = useLoad((signal) => manage("getPublishingCalendar", { query: { from, to }, signal }), [from]);
  const [busy, setBusy] = useState<string | null>(null);
  const note = useOutcome();
  const days = (loaded.data?.days ?? []).filter((d) => d.schedules.length > 0);

  const cancel = async (s: Schedule) => {
    setBusy(s.id);
    try {
      await manage("cancelSchedule", { params: { id: s.id }, body: { expected_revision: s.revision }, key: newActionKey() });
      note.say(`The ${s.action} at ${when(s.at)} is cancelled.`);
      loaded.reload();
    } catch (error) {
      note.fail(error);
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      <PageHeader title="Publishing calendar" />
      <SiteNav site={site} />
      <OutcomeNotice outcome={note.outcome} />
      <section class="stack site-panel" aria-labelledby="calendar-heading">
        <h2 id="calendar-heading">
          Schedules from {from} to {to}
        </h2>
        <Field label="From">{({ id }) => <input id={id} type="date" value={from} onChange={(e) => (e.currentTarget as HTMLInputElement).value && setFrom((e.currentTarget as HTMLInputElement).value)} />}</Field>
        {loaded.loading && !loaded.data ? <Loading label="Loading the calendar…" /> : null}
        {loaded.error ? <Notice kind="error" title={describeError(loaded.error).title} /> : null}
        {loaded.data && days.length === 0 ? <p class="muted">Nothing is scheduled in these days. Schedule a publication from the entry editor.</p> : null}
        {days.map((d) => (
          <table class="list responsive">
            <caption>{new Date(`${d.date}T12:00:00Z`).toLocaleDateString(undefined, { weekday: "long", year: "numeric", month: "long", day: "numeric" })}</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Entry</th>
                <th scope="col">Action</th>
                <th scope="col">State</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {d.schedules.map((s) => (
                <tr>
                  <td>{new Date(s.at).toLocaleTimeString()}</td>
                  <td>
                    {s.pins[0] ? <Link href={paths.entry(site, s.pins[0].instance_id, s.pins[0].lang)}>Open the entry</Link> : s.translation_group_id}
                  </td>
                  <td>
                    {s.action === "publish" ? "Publish" : "Unpublish"} {s.lang ?? "every language"}
                  </td>
                  <td>{STATE_WORDS[s.state]}</td>
                  <td>
                    {s.state === "scheduled" ? (
                      <Button busy={busy === s.id} aria-label={`Cancel the ${s.action} at ${when(s.at)}`} onClick={() => void cancel(s)}>
                        Cancel
                      </Button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      </section>
    </>
  );
}
