import { env, runInDurableObject } from "cloudflare:test";
import { SITE_OBJECT_MIGRATIONS } from "../../objects/site/migrations";
import { migrateStorage } from "../../objects/site/storage";

/**
 * Runs `callback` inside the SiteObject named `name`, over its migrated storage. Use a distinct
 * name per test: each name is its own object with its own storage.
 */
export function inSiteStorage<R>(name: string, callback: (storage: DurableObjectStorage) => R | Promise<R>): Promise<R> {
  return runInDurableObject(env.SITE.getByName(name), (_instance, state) => {
    migrateStorage(state.storage, SITE_OBJECT_MIGRATIONS);
    return callback(state.storage);
  });
}
