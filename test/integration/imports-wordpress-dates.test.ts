import { describe, expect, it } from "vitest";
import { seedSite } from "../helpers/fixtures";
import { allFindings, advanceWhile, newImport, step, uploadFile } from "../helpers/imports-api";
import { credential } from "../helpers/manage-api";
import { publicGet } from "../helpers/public-api";
import { addTopicAndPostModels, wxrWithTopics } from "../helpers/wxr-build";

const post = (id: number, slug: string, date: string) =>
  `<item><title>Post ${id}</title><dc:creator>writer</dc:creator><content:encoded><![CDATA[<p>x</p>]]></content:encoded><wp:post_id>${id}</wp:post_id><wp:post_date_gmt>${date}</wp:post_date_gmt><wp:post_name>${slug}</wp:post_name><wp:status>publish</wp:status><wp:post_type>post</wp:post_type></item>`;

/**
 * Probe finding (session 17): a published WordPress item's `post_date_gmt` became its first
 * publication whatever it said — `9999-12-31 23:59:59` put the post at the top of every newest-first
 * list for ever — and a date that does not parse was dropped without a word. A first publication is
 * never in the future; either date not kept is a `date_not_kept` finding and the entry's first
 * publication is its import (docs/imports.md, "Writing").
 */
describe("WordPress import: the first publication of a published item", () => {
  it("keeps a past date, and reports (date_not_kept) a future or unreadable one, publishing at the import", async () => {
    const s = await seedSite();
    await addTopicAndPostModels(s.ctx());
    const token = await credential(s);
    const startedAt = Date.now();
    const file = wxrWithTopics("Dates", 0, [post(1, "past", "2019-05-06 07:08:09"), post(2, "far-future", "9999-12-31 23:59:59"), post(3, "bad-date", "2020-13-45 99:99:99"), post(4, "no-date", "0000-00-00 00:00:00")]);
    const job = await newImport(token);
    expect((await uploadFile(token, job.id, new TextEncoder().encode(file))).status).toBe(200);
    await advanceWhile(token, job.id, ["uploaded", "parsing"]);
    expect((await step(token, job.id, "wordpress/review", { approve: true })).status).toBe(200);
    expect((await advanceWhile(token, job.id, ["review", "writing"])).state).toBe("done");

    const first = async (slug: string) => (await publicGet<{ data: { first_published_at: string } }>(s.host, `/v1/post/${slug}`)).body.data.first_published_at;
    expect(await first("past")).toBe("2019-05-06T07:08:09.000Z");
    for (const slug of ["far-future", "bad-date", "no-date"]) {
      const at = Date.parse(await first(slug));
      expect([slug, at >= startedAt && at <= Date.now()]).toEqual([slug, true]);
    }
    const notKept = (await allFindings(token, job.id)).filter((f) => f.code === "date_not_kept").map((f) => [f.item_seq, f.details]);
    expect(notKept).toEqual([
      [3, { post_date_gmt: "9999-12-31 23:59:59", reason: "future" }],
      [4, { post_date_gmt: "2020-13-45 99:99:99", reason: "invalid" }],
    ]);
  });
});
