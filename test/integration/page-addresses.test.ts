import { describe, expect, it } from "vitest";
import { addModel, seedSite, type SeededSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";

/**
 * Issue #29 item 2's last clause (docs/pages.md, "Addresses"): a page's website address — its
 * path — is checked against redirects and other live addresses when the page editor's save gives
 * it a path and when it is published, with the redirects' codes (spec 3 "Redirects and sitemap",
 * issue #27 item 5): 409 `address_redirected` naming the rule, 409 `address_taken` naming the
 * published item served there. Nothing is written by a refused save.
 */

type Err = { error: { code: string; address?: string; rule?: { id: string; source: string }; item?: { instance_id: string; address: string } } };
type Page = { instance_id: string; path: string | null };

async function fixture(): Promise<{ s: SeededSite; token: string; post: string }> {
  const s = await seedSite();
  await addModel(s.ctx(), {
    slug: "page",
    name: "Page",
    fields: [
      { key: "title", label: "Title", type: "text", required: true, title: true },
      { key: "parent", label: "Parent page", type: "relation", relation: "many_to_one", hierarchy: true },
    ],
  });
  const token = await credential(s);
  const post = await manage<{ model_id: string }>(token, "POST", "/models", {
    body: { definition: { model: { name: "Post", slug: "post", settings: { site_path: "/blog/{slug}" } }, fields: [{ key: "title", label: "Title", type: "text", title: true }] } },
  });
  expect(post.status, JSON.stringify(post.body)).toBe(201);
  return { s, token, post: post.body.model_id };
}

const save = (token: string, body: unknown) => manage<Page & Err>(token, "POST", "/pages", { body });
const publish = (token: string, id: string) => manage<Err>(token, "POST", `/entries/${id}/publish`, { body: {} });
const paths = async (token: string) => (await manage<{ data: Page[] }>(token, "GET", "/pages")).body.data.map((p) => p.path);

describe("page addresses", () => {
  it("a save giving a page a path a redirect holds (exact or pattern) or another model's item serves is refused naming it; nothing is written", async () => {
    const { token, post } = await fixture();
    const hello = await manage<{ instance_id: string }>(token, "POST", "/entries", { body: { model_id: post, slug: "hello", fields: { title: "Hello" } } });
    expect((await publish(token, hello.body.instance_id)).status).toBe(200);
    const moved = await manage<{ id: string }>(token, "POST", "/redirects", { body: { source: "/moved", target: "/elsewhere", status: 301 } });
    const docs = await manage<{ id: string }>(token, "POST", "/redirects", { body: { source: "/docs/*", target: "/manual/*", status: 301 } });
    expect([moved.status, docs.status]).toEqual([201, 201]);

    const exact = await save(token, { slug: "moved", fields: { title: "Moved" } });
    expect([exact.status, exact.body.error.code, exact.body.error.address, exact.body.error.rule]).toEqual([409, "address_redirected", "/moved", { id: moved.body.id, source: "/moved" }]);

    const blog = await save(token, { slug: "blog", fields: { title: "Blog" } });
    const docsPage = await save(token, { slug: "docs", fields: { title: "Docs" } });
    expect([blog.status, docsPage.status]).toEqual([201, 201]);
    const pattern = await save(token, { slug: "intro", parent_id: docsPage.body.instance_id, fields: { title: "Intro" } });
    expect([pattern.status, pattern.body.error.code, pattern.body.error.address, pattern.body.error.rule?.source]).toEqual([409, "address_redirected", "/docs/intro", "/docs/*"]);
    // /blog/hello is the published post's address (its model's site_path).
    const taken = await save(token, { slug: "hello", parent_id: blog.body.instance_id, fields: { title: "Hello page" } });
    expect([taken.status, taken.body.error.code, taken.body.error.address, taken.body.error.item]).toEqual([409, "address_taken", "/blog/hello", { instance_id: hello.body.instance_id, model_id: post, lang: "en", address: "/blog/hello" }]);

    // Moving an existing page there is refused the same way; a save keeping its path is not checked again.
    const greeting = await save(token, { slug: "hello", fields: { title: "Greeting" } });
    expect(greeting.status, JSON.stringify(greeting.body)).toBe(201);
    const move = await save(token, { id: greeting.body.instance_id, parent_id: blog.body.instance_id });
    expect([move.status, move.body.error.code]).toEqual([409, "address_taken"]);
    expect((await save(token, { id: greeting.body.instance_id, fields: { title: "Greeting, edited" } })).status).toBe(200);
    expect(await paths(token)).toEqual(["/blog", "/docs", "/hello"]);
  });

  it("publishing a page where a redirect now holds its path, or where another model's item was published since, is refused naming it", async () => {
    const { token, post } = await fixture();
    const about = await save(token, { slug: "about", fields: { title: "About" } });
    const blog = await save(token, { slug: "blog", fields: { title: "Blog" } });
    const world = await save(token, { slug: "world", parent_id: blog.body.instance_id, fields: { title: "World" } });
    expect([about.status, blog.status, world.status]).toEqual([201, 201, 201]);
    // Drafts are not live: a redirect may take /about, and a post may be published at /blog/world.
    const rule = await manage<{ id: string }>(token, "POST", "/redirects", { body: { source: "/about", target: "/who-we-are", status: 308 } });
    expect(rule.status).toBe(201);
    const worldPost = await manage<{ instance_id: string }>(token, "POST", "/entries", { body: { model_id: post, slug: "world", fields: { title: "World post" } } });
    expect((await publish(token, worldPost.body.instance_id)).status).toBe(200);

    const redirected = await publish(token, about.body.instance_id);
    expect([redirected.status, redirected.body.error.code, redirected.body.error.rule]).toEqual([409, "address_redirected", { id: rule.body.id, source: "/about" }]);
    // Under an unpublished parent a page is served nowhere; once the parent is, its path is /blog/world.
    expect((await publish(token, blog.body.instance_id)).status).toBe(200);
    const taken = await publish(token, world.body.instance_id);
    expect([taken.status, taken.body.error.code, taken.body.error.address, taken.body.error.item?.instance_id]).toEqual([409, "address_taken", "/blog/world", worldPost.body.instance_id]);
    const served = (await manage<{ data: (Page & { published_version_id: string | null })[] }>(token, "GET", "/pages")).body.data;
    expect(served.map((p) => [p.path, p.published_version_id !== null])).toEqual([["/about", false], ["/blog", true], ["/blog/world", false]]);
  });
});
