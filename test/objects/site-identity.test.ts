import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SiteIdentity } from "../../objects/site/site-identity";
import { insertUnsentEvent, siteWithOneCreate } from "../helpers/outbox";

/**
 * An object woken cold by its alarm has no ctx.id.name (workerd); the site id it serves is kept in
 * its storage (objects/site/site-identity.ts), so the alarm still marks and resends the site's
 * events. Found by the session-7 probe: after a restart, a burst's events stayed unsent.
 */
describe("SiteIdentity", () => {
  it("keeps the site id a named start or a request gave, for a start without a name", async () => {
    const stub = env.SITE.getByName("site_identity_probe");
    await runInDurableObject(stub, (_o, state) => {
      // The object's own constructor already noted its name.
      expect(new SiteIdentity(state.storage, undefined).siteId).toBe("site_identity_probe");
      const nameless = new SiteIdentity(state.storage, undefined);
      nameless.note("site_identity_probe");
      expect(state.storage.sql.exec("SELECT count(*) AS n FROM site_identity").one().n).toBe(1);
    });
  });

  it("lets an alarm that finds the object's name missing still send and mark the site's unsent events", async () => {
    const { s, stub } = await siteWithOneCreate("Before the stop");
    await insertUnsentEvent(s.site.id, "evt_after_stop");
    // The stored id is what the alarm reads (a cold start's object would have nothing else).
    const stored = await runInDurableObject(stub, (_o, state) => state.storage.sql.exec<{ site_id: string }>("SELECT site_id FROM site_identity").one().site_id);
    expect(stored).toBe(s.site.id);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const row = await env.DB.prepare("SELECT enqueued_at FROM outbox_events WHERE id = 'evt_after_stop'").first<{ enqueued_at: string | null }>();
    expect(row?.enqueued_at).not.toBeNull();
  });
});
