#!/usr/bin/env node
/**
 * npm run bench:import — WordPress import throughput on a generated 20,000-post WXR file
 * (docs/imports.md, "Steps and their bound"; issue #28). A measurement, not a test: it reports.
 *
 *   1. generates a WXR 1.2 file of BENCH_IMPORT_POSTS posts (default 20,000): five authors, twenty
 *      categories, ~1 KB of classic content each (paragraphs, a shortcode in one post of ten),
 *      published with WordPress dates;
 *   2. starts the real service (`wrangler dev` on a fresh seeded state, scripts/lib/dev-server.mjs)
 *      on BENCH_IMPORT_PORT (default 8801) — run it inside `unshare -n` on a shared machine;
 *   3. through the management API of the demo site: a model for the posts (and one for the
 *      categories), a source, an import, the file in 5 MiB parts, the completion with its SHA-256;
 *   4. parse steps until the review (every one timed), the mapping and the approval, then write
 *      steps — all of them, or the first BENCH_IMPORT_WRITE items (a quick run) — each timed;
 *   5. prints `BENCH import_parse=<items/s> import_write=<items/s> batches_per_100=<n> …` and a
 *      table of step times (median, p95, max).
 *
 * D1 batches per 100 items are counted from what the steps did (docs/imports.md): a step records
 * its Idempotency-Key claim (one batch), creates its items (one batch), and publishes them with its
 * findings, the job's move and the claim's end (one batch); the step where the categories end and
 * the posts begin commits the categories' two batches first.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import os from "node:os";
import { request, startDevServer } from "../lib/dev-server.mjs";

const POSTS = Number(process.env.BENCH_IMPORT_POSTS ?? 20_000);
const WRITE = process.env.BENCH_IMPORT_WRITE === undefined ? Infinity : Number(process.env.BENCH_IMPORT_WRITE);
const PORT = Number(process.env.BENCH_IMPORT_PORT ?? 8801);
/** One request's wait for its whole answer; past it the request counts as lost (sent again). */
const TIMEOUT_MS = Number(process.env.BENCH_IMPORT_TIMEOUT_MS ?? 60_000);
/** How long the write may go without an item written before the run stops with the job's state. */
const STALL_MS = Number(process.env.BENCH_IMPORT_STALL_MS ?? 300_000);
/** BENCH_IMPORT_VERBOSE=1: a line per step (else a line per 20 steps, and every step slower than 10 s). */
const VERBOSE = process.env.BENCH_IMPORT_VERBOSE === "1";
const PART = 5 * 1024 * 1024;
const HOST = "demo.localhost";

const say = (line = "") => process.stderr.write(`${line}\n`);
const print = (line = "") => process.stdout.write(`${line}\n`);

const LOREM = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.";

/** The generated export: WordPress's own element layout (WXR 1.2), one `<item>` per post. */
export function generateWxr(posts) {
  const out = [];
  out.push(`<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wfw="http://wellformedweb.org/CommentAPI/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel>
\t<title>Bench</title>
\t<link>https://bench.example.org</link>
\t<wp:wxr_version>1.2</wp:wxr_version>
`);
  for (let a = 1; a <= 5; a++) out.push(`\t<wp:author><wp:author_id>${a}</wp:author_id><wp:author_login><![CDATA[writer${a}]]></wp:author_login><wp:author_email><![CDATA[writer${a}@bench.example.org]]></wp:author_email><wp:author_display_name><![CDATA[Writer ${a}]]></wp:author_display_name></wp:author>\n`);
  for (let c = 1; c <= 20; c++) out.push(`\t<wp:category><wp:term_id>${c}</wp:term_id><wp:category_nicename><![CDATA[topic-${c}]]></wp:category_nicename><wp:category_parent><![CDATA[]]></wp:category_parent><wp:cat_name><![CDATA[Topic ${c}]]></wp:cat_name></wp:category>\n`);
  for (let i = 1; i <= posts; i++) {
    const day = new Date(Date.UTC(2015, 0, 1) + i * 3_600_000).toISOString().replace("T", " ").slice(0, 19);
    const shortcode = i % 10 === 0 ? `\n\n[gallery ids="${i},${i + 1}"]` : "";
    const content = `${LOREM} (${i})\n\n${LOREM}\n\n${LOREM}${shortcode}\n\n${LOREM}`;
    const c1 = (i % 20) + 1;
    const c2 = ((i * 7) % 20) + 1;
    out.push(`\t<item>
\t\t<title><![CDATA[Bench post ${i}]]></title>
\t\t<dc:creator><![CDATA[writer${(i % 5) + 1}]]></dc:creator>
\t\t<content:encoded><![CDATA[${content}]]></content:encoded>
\t\t<excerpt:encoded><![CDATA[]]></excerpt:encoded>
\t\t<wp:post_id>${1000 + i}</wp:post_id>
\t\t<wp:post_date><![CDATA[${day}]]></wp:post_date>
\t\t<wp:post_date_gmt><![CDATA[${day}]]></wp:post_date_gmt>
\t\t<wp:post_name><![CDATA[bench-post-${i}]]></wp:post_name>
\t\t<wp:status><![CDATA[publish]]></wp:status>
\t\t<wp:post_parent>0</wp:post_parent>
\t\t<wp:menu_order>0</wp:menu_order>
\t\t<wp:post_type><![CDATA[post]]></wp:post_type>
\t\t<category domain="category" nicename="topic-${c1}"><![CDATA[Topic ${c1}]]></category>
\t\t<category domain="category" nicename="topic-${c2}"><![CDATA[Topic ${c2}]]></category>
\t</item>
`);
  }
  out.push("</channel>\n</rss>\n");
  return Buffer.from(out.join(""), "utf8");
}

const percentile = (values, p) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

/** The load of the shared machine, as `uptime` prints it (recorded with the figures). */
function uptime() {
  try {
    return execFileSync("uptime", { encoding: "utf8" }).trim();
  } catch {
    return `load average ${os.loadavg().map((x) => x.toFixed(2)).join(", ")}`;
  }
}

/**
 * The whole measurement: `npm run bench:import`, and `npm run bench` with BENCH_ONLY=import (the
 * 20,000-post file written to its end unless BENCH_IMPORT_WRITE says otherwise).
 */
export async function importFigures(print, say) {
  const uptimeAtStart = uptime();
  const started = performance.now();
  say(`generating ${POSTS} posts…`);
  const file = generateWxr(POSTS);
  const sha256 = createHash("sha256").update(file).digest("hex");
  say(`file: ${file.length} bytes, SHA-256 ${sha256}`);
  // BENCH_IMPORT_DEMO_PLUGIN=1 runs the seeded demo plugin, so the events the import writes are
  // delivered (without it every delivery is refused: docs/benchmarks.md, "WordPress import").
  const server = await startDevServer({ port: PORT, demoPlugin: process.env.BENCH_IMPORT_DEMO_PLUGIN === "1", vars: { MANAGE_RATE_LIMIT: "100000" } });
  let keys = 0;
  let resent = 0;
  /**
   * One management call. A 503 ("worker restarted mid-request" under a loaded machine) or a lost
   * connection is sent again with the same Idempotency-Key (a part sent again replaces itself).
   */
  const api = async (method, path, body) => {
    const key = `bench-${Date.now()}-${keys++}`;
    for (let attempt = 1; ; attempt++) {
      let res;
      try {
        res = await request(PORT, {
          method,
          host: HOST,
          path: `/api/manage/v1${path}`,
          body,
          headers: { authorization: `Bearer ${server.info.management_token}`, ...(method === "GET" ? {} : { "idempotency-key": key }) },
          timeoutMs: TIMEOUT_MS,
        });
      } catch (error) {
        if (attempt >= 5) throw error;
        res = { status: 0, text: String(error?.message ?? error) };
      }
      if ((res.status === 0 || res.status === 503) && attempt < 5) {
        resent++;
        say(`${method} ${path}: ${res.status} ${res.text.slice(0, 120)}; sent again in 3 s`);
        await new Promise((r) => setTimeout(r, 3000));
        continue;
      }
      if (res.status >= 300 || !res.text.startsWith("{")) throw new Error(`${method} ${path}: ${res.status} ${res.text.slice(0, 400)}`);
      return JSON.parse(res.text);
    }
  };
  /** The job as the server has it now, in one line (what a stopped run reports). */
  const jobState = async (jobId) => {
    try {
      const job = (await api("GET", `/imports/${jobId}`)).import;
      return `state=${job.state} position=${job.position} progress=${JSON.stringify(job.progress)} next=${JSON.stringify(job.next)}${job.failure ? ` failure=${JSON.stringify(job.failure)}` : ""}`;
    } catch (error) {
      return `job unreadable: ${String(error?.message ?? error).slice(0, 300)}`;
    }
  };
  /**
   * One step; a refused or lost one (a busy machine) is sent again under a new key, as a client
   * would (rule 5: after a timeout the old key answers 409 idempotency_in_progress until its claim
   * ends). Every failure prints the job's state; five in a row stop the run with it.
   */
  let retries = 0;
  const advance = async (jobId) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return (await api("POST", `/imports/${jobId}/advance`, {})).import;
      } catch (error) {
        const state = await jobState(jobId);
        if (attempt >= 5) throw new Error(`${String(error.message ?? error).slice(0, 300)} — stopped after 5 attempts; the job: ${state}`);
        retries++;
        say(`${new Date().toISOString()} step failed (${String(error.message ?? error).slice(0, 200)}); the job: ${state}; again in 2 s`);
        await new Promise((r) => setTimeout(r, 2000));
      }
    }
  };
  try {
    const suffix = Date.now().toString(36);
    const title = { key: "title", label: "Title", type: "text", required: true, title: true };
    const category = { id: (await api("POST", "/models", { definition: { model: { slug: `wp-topic-${suffix}`, name: "WP topic" }, fields: [title] } })).model_id };
    const post = {
      id: (
        await api("POST", "/models", {
          definition: {
            model: { slug: `wp-post-${suffix}`, name: "WP post" },
            fields: [title, { key: "body", label: "Body", type: "rich_text" }, { key: "categories", label: "Categories", type: "relation", multiple: true, targets: [category.id] }],
          },
        })
      ).model_id,
    };
    const source = (await api("POST", "/imports/sources", { kind: "wordpress", name: "bench" })).source;
    const job = (await api("POST", "/imports", { source_id: source.id, file_name: "bench.xml" })).import;
    for (let offset = 0, part = 1; offset < file.length; offset += PART, part++) await api("PUT", `/imports/${job.id}/parts/${part}`, { content_base64: file.subarray(offset, offset + PART).toString("base64") });
    await api("POST", `/imports/${job.id}/complete`, { sha256 });

    const parseTimes = [];
    let state = "uploaded";
    let answer;
    const parseStart = performance.now();
    while (state === "uploaded" || state === "parsing") {
      const t = performance.now();
      answer = await advance(job.id);
      parseTimes.push(performance.now() - t);
      state = answer.state;
      if (parseTimes.length % 10 === 0) say(`parse: ${answer.progress.parsed_bytes}/${file.length} bytes, ${answer.progress.items_total} items`);
    }
    const parseMs = performance.now() - parseStart;
    const staged = answer.progress.items_total;
    say(`parsed ${staged} items in ${parseTimes.length} steps, ${(parseMs / 1000).toFixed(1)} s`);

    await api("POST", `/imports/${job.id}/wordpress/review`, { mapping: { post: post.id, page: null, category: category.id, tag: null }, approve: true });
    const writeTimes = [];
    const writeStart = performance.now();
    let done = 0;
    let lastProgress = performance.now();
    while (state === "review" || state === "writing") {
      const t = performance.now();
      answer = await advance(job.id);
      const ms = performance.now() - t;
      writeTimes.push(ms);
      state = answer.state;
      if (answer.progress.items_done > done) lastProgress = performance.now();
      done = answer.progress.items_done;
      if (VERBOSE || writeTimes.length % 20 === 0 || ms > 10_000) say(`${new Date().toISOString()} write step ${writeTimes.length}: ${done}/${staged} items, ${answer.progress.findings} findings, ${Math.round(ms)} ms, position ${answer.position}`);
      if (done >= WRITE) break;
      // A job that answers but writes nothing: stop with its state rather than loop without end.
      if (performance.now() - lastProgress > STALL_MS) throw new Error(`no item written for ${Math.round(STALL_MS / 1000)} s; the job: ${await jobState(job.id)}`);
    }
    if (state !== "done" && done < WRITE) say(`the write stopped in state ${state}: ${await jobState(job.id)}`);
    const writeMs = performance.now() - writeStart;
    // A step is three batches (docs/imports.md, "Steps and their bound"): its claim recorded, the
    // creates of its items, their publications with the findings, the job's move and the claim's
    // end. The step that goes from the categories to the posts commits the categories first (two more).
    const written = Math.max(0, done - 5);
    const batches = writeTimes.length * 3 + 2;
    const figures = {
      posts: POSTS,
      file_bytes: file.length,
      parse_steps: parseTimes.length,
      import_parse_items_per_s: +(staged / (parseMs / 1000)).toFixed(1),
      write_steps: writeTimes.length,
      items_written: done,
      import_write_items_per_s: +(done / (writeMs / 1000)).toFixed(2),
      batches_per_100_items: +((batches / Math.max(1, written)) * 100).toFixed(1),
      parse_step_ms: { median: Math.round(percentile(parseTimes, 50)), p95: Math.round(percentile(parseTimes, 95)), max: Math.round(Math.max(...parseTimes)) },
      write_step_ms: { median: Math.round(percentile(writeTimes, 50)), p95: Math.round(percentile(writeTimes, 95)), max: Math.round(Math.max(...writeTimes)) },
      run_to_end: state === "done",
      final_state: state,
      steps_sent_again: retries,
      requests_sent_again: resent,
      ...(state === "done" ? {} : { projected_write_minutes_for_all: +((staged / (done / (writeMs / 1000))) / 60).toFixed(1) }),
      write_minutes: +(writeMs / 60_000).toFixed(1),
      total_minutes: +((performance.now() - started) / 60_000).toFixed(1),
      uptime_at_start: uptimeAtStart,
      uptime_at_end: uptime(),
    };
    print(`BENCH import_parse=${figures.import_parse_items_per_s}items/s import_write=${figures.import_write_items_per_s}items/s batches_per_100=${figures.batches_per_100_items}`);
    print(JSON.stringify(figures, null, 2));
  } finally {
    server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  importFigures(print, say).catch((error) => {
    say(String(error?.stack ?? error));
    process.exit(1);
  });
}
