import { TtlCache } from "../public/config-cache";

/**
 * Translation group of an instance, for list filters that name a target by an instance id (the
 * served view keys filter rows by the target's group). An instance never changes group, so a hit
 * may be kept long; an unknown id is never kept (it may be created the next second).
 */
const groups = new TtlCache<string>("translation groups by instance", 10_000);

/** How long a found group is kept per isolate: an hour, or not at all where caches are off (tests). */
export function instanceGroupTtlMs(configCacheMs: number): number {
  return configCacheMs > 0 ? 3_600_000 : 0;
}

class UnknownInstance extends Error {}

export async function groupOfInstance(d1: D1Database, siteId: string, instanceId: string, ttlMs: number): Promise<string | undefined> {
  try {
    return await groups.get(`${siteId}|${instanceId}`, ttlMs, Date.now(), async () => {
      const row = await d1.prepare("SELECT translation_group_id AS g FROM entries WHERE site_id = ? AND instance_id = ?").bind(siteId, instanceId).first<{ g: string }>();
      if (!row) throw new UnknownInstance();
      return row.g;
    });
  } catch (error) {
    if (error instanceof UnknownInstance) return undefined;
    throw error;
  }
}
