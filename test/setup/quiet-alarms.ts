import { env, listDurableObjectIds, runInDurableObject } from "cloudflare:test";
import { afterAll, beforeAll } from "vitest";

/**
 * The files of a group share one runtime (vitest.config.ts), so a site object a file made keeps
 * its alarm after the file ends: its rate windows, leases, event marks and resends ring while
 * the group's later files run — each ring a call through the pool's wrapper (a module-runner
 * import in the runner object) and D1 reads, in a runtime no test of that file watches any more
 * (docs/testing.md, "A silent workerd suite"). After each file, the alarms of the site objects it
 * made are deleted. Tests that need an alarm run it themselves (`runDurableObjectAlarm`) within
 * their file, so nothing a test checks changes.
 */
let before = new Set<string>();

beforeAll(async () => {
  before = new Set((await listDurableObjectIds(env.SITE)).map((id) => id.toString()));
});

afterAll(async () => {
  const made = (await listDurableObjectIds(env.SITE)).filter((id) => !before.has(id.toString()));
  const pending: number[] = [];
  for (const id of made) {
    await runInDurableObject(env.SITE.get(id), async (_object, state) => {
      const at = await state.storage.getAlarm();
      if (at !== null) pending.push(at - Date.now());
      await state.storage.deleteAlarm();
    }).catch((error: unknown) => {
      console.warn(`quiet-alarms: could not delete the alarm of site object ${id.toString()}:`, error);
    });
  }
  // QUIET_ALARMS_REPORT=1 (vitest.config.ts passes it on): what each file left ringing, for measuring.
  if ((env as { QUIET_ALARMS_REPORT?: string }).QUIET_ALARMS_REPORT === "1") {
    const soon = pending.filter((ms) => ms < 10 * 60_000).length;
    console.log(`quiet-alarms: ${made.length} site objects made, ${pending.length} alarms deleted, ${soon} of them due within 10 minutes`);
  }
}, 60_000);
