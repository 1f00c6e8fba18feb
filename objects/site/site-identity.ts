/**
 * Which site this object serves. Objects are addressed by site id (`getByName`), so `ctx.id.name`
 * is the site id — but not for an object woken cold by its alarm, which workerd starts without a
 * name. The id is kept in storage the first time it is known, so the alarm's site work (marking
 * sent events, resending unsent ones, cleaning up uploads and removed media) never depends on
 * whether a request or the alarm woke the object.
 */
export class SiteIdentity {
  #siteId: string | undefined;

  constructor(
    private readonly storage: DurableObjectStorage,
    name: string | undefined,
  ) {
    this.#siteId = storage.sql.exec<{ site_id: string }>("SELECT site_id FROM site_identity WHERE id = 1").toArray()[0]?.site_id;
    if (name) this.note(name);
  }

  /** Keeps the site id (a request names it); written once, when it was not known yet. */
  note(siteId: string): void {
    if (this.#siteId === siteId) return;
    this.storage.sql.exec("INSERT INTO site_identity (id, site_id) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET site_id = excluded.site_id", siteId);
    this.#siteId = siteId;
  }

  /** The site id, or undefined for an object that never learnt it (it has no site work to do). */
  get siteId(): string | undefined {
    return this.#siteId;
  }
}
