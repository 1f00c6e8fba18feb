import { parseFragment, type DefaultTreeAdapterTypes } from "parse5";
import { describe, expect, it } from "vitest";
import type { EntryView } from "../../shared/services/lifecycle";
import { blogModels, seedSite } from "../helpers/fixtures";
import { credential, manage } from "../helpers/manage-api";
import { publicGet } from "../helpers/public-api";

/**
 * "Open in a new tab" (issue #30 item 9; docs/rich-text.md, "Links that open a new tab"): a link
 * keeps exactly `target="_blank"`, and the service writes `rel="noopener noreferrer"` itself; any
 * other target, any rel as sent, and script addresses are left out — through the management API's
 * writes and the public API's published item.
 */

type Warned = EntryView & { warnings?: { code: string; path: string; dropped: string[] }[] };
interface ItemBody { data: { fields: Record<string, unknown> } }
type Element = DefaultTreeAdapterTypes.Element;

/** Every link of served HTML as a browser parses it: its attributes by name. */
function links(html: string): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  const walk = (nodes: readonly DefaultTreeAdapterTypes.ChildNode[]) => {
    for (const node of nodes) {
      if (!("tagName" in node)) continue;
      if (node.tagName === "a") found.push(Object.fromEntries((node as Element).attrs.map((a) => [a.name, a.value])));
      walk(node.childNodes);
    }
  };
  walk(parseFragment(html).childNodes);
  return found;
}

const NEW_TAB = { target: "_blank", rel: "noopener noreferrer" };

describe("rich-text links that open a new tab", () => {
  it("stores and serves target=_blank with rel=noopener noreferrer, silently for the canonical form", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const token = await credential(s);
    const canonical = `<p>See <a href="https://example.com/tides" target="_blank" rel="noopener noreferrer">the tides</a> and <a href="/about">about</a>.</p>`;
    const created = await manage<Warned>(token, "POST", "/entries", { body: { model_id: article.id, slug: "new-tab", fields: { title: "New tab", body: canonical } } });
    expect(created.status).toBe(201);
    expect(created.body.fields.body).toBe(canonical);
    expect(created.body.warnings).toBeUndefined();

    // A save of the bare attribute gets the rel written; a WordPress-style rel="noopener" is not a loss worth a warning.
    const saved = await manage<Warned>(token, "PUT", `/entries/${created.body.instance_id}`, {
      body: { expected_version_id: created.body.current_version_id, fields: { body: `<p><a href="https://example.com/" TARGET="_Blank" rel="noopener">x</a></p>` } },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.fields.body).toBe(`<p><a href="https://example.com/" target="_blank" rel="noopener noreferrer">x</a></p>`);
    expect(saved.body.warnings).toBeUndefined();

    expect((await manage(token, "POST", `/entries/${created.body.instance_id}/publish`, { body: {} })).status).toBe(200);
    const item = await publicGet<ItemBody>(s.host, "/v1/article/new-tab");
    expect(item.status).toBe(200);
    expect(links(String(item.body.data.fields.body))).toEqual([{ href: "https://example.com/", ...NEW_TAB }]);
  });

  it("leaves out every other target, any rel as sent and script addresses, and says so", async () => {
    const s = await seedSite();
    const { article } = await blogModels(s.ctx());
    const token = await credential(s);
    const hostile =
      `<p><a href="/a" target="_top">top</a><a href="/b" target="_parent" rel="opener">parent</a>` +
      `<a href="/c" rel="noopener&quot; onclick=&quot;alert(1)" target="_blank">injected rel</a>` +
      `<a href="/d" target="_blank" rel="opener nofollow" onclick="alert(1)">opener</a>` +
      `<a href="javascript:alert(1)" target="_blank">script</a><a href="&#106;avascript:alert(2)" target="_blank">encoded</a>` +
      `<a href="/e" target="_blank _top">two</a><span target="_blank">not a link</span></p>`;
    const created = await manage<Warned>(token, "POST", "/entries", { body: { model_id: article.id, slug: "hostile-tab", fields: { title: "Hostile", body: hostile } } });
    expect(created.status).toBe(201);
    const body = String(created.body.fields.body);
    expect(links(body)).toEqual([
      { href: "/a" },
      { href: "/b" },
      { href: "/c", ...NEW_TAB },
      { href: "/d", ...NEW_TAB },
      NEW_TAB,
      NEW_TAB,
      { href: "/e" },
    ]);
    expect(body).toContain(`<span>not a link</span>`);
    expect(created.body.warnings).toEqual([{ code: "rich_markup_dropped", path: "body", dropped: ["a[target]", "a[rel]", "a[onclick]", "a[href]", "span[target]"] }]);

    expect((await manage(token, "POST", `/entries/${created.body.instance_id}/publish`, { body: {} })).status).toBe(200);
    const item = await publicGet<ItemBody>(s.host, "/v1/article/hostile-tab");
    expect(item.body.data.fields.body).toBe(body);
    for (const link of links(body)) {
      expect(Object.keys(link).sort()).toEqual(Object.keys(link).filter((name) => ["href", "target", "rel"].includes(name)).sort());
      if (link.target !== undefined) expect(link.rel).toBe("noopener noreferrer");
    }
  });
});
