/**
 * The Node side of the many-sites figures of `npm run bench` (issue #14, item 3; the worker side is
 * scale-bench.ts). The seeded bench site (1,000 published articles) is copied with SQL into 99 more
 * sites; the same read mix — item reads spread over 20 slugs of each site — is then measured against
 * 1, 10 and 100 sites, uncached and cached, each request going to the next (site, slug) pair in turn.
 * The figure that matters is the ratio of the 100-site (and 10-site) rate to the 1-site rate measured
 * in the same run: one deployment must not get slower per request as it serves more sites.
 */
export const SCALE_SITES = [1, 10, 100];
const SLUGS_PER_SITE = 20;
const CLONE_CHUNK = 11;
export const SCALE_TARGET = 0.8;

/** 20 slugs spread over the seeded articles. */
export function scaleSlugs(items) {
  const step = Math.max(1, Math.floor(items / SLUGS_PER_SITE));
  return Array.from({ length: Math.min(SLUGS_PER_SITE, items) }, (_, i) => `article-${String(i * step).padStart(5, "0")}`);
}

/** Copies the bench site until `count` sites serve the same content; returns every host, the original first. */
export async function cloneSites(bench, sourceHost, count, say) {
  const hosts = [sourceHost];
  const t0 = Date.now();
  for (let from = 1; from < count; from += CLONE_CHUNK) {
    const to = Math.min(count - 1, from + CLONE_CHUNK - 1);
    const done = await bench("POST", "/_bench/scale/clone", { host: sourceHost, from, to });
    hosts.push(...done.hosts);
    say(`  copied sites ${from}..${to} (${done.published_rows} copied published rows so far) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
  return hosts;
}

/** Every (host, path) pair of the mix over the first `sites` hosts. */
export function mixTargets(hosts, sites, slugs) {
  const targets = [];
  for (const slug of slugs) for (const host of hosts.slice(0, sites)) targets.push({ host, path: `/v1/article/${slug}` });
  return targets;
}

/** An autocannon `requests` entry that sends each request to the next pair of the mix. */
export function rotatingRequests(targets) {
  let next = 0;
  return [
    {
      method: "GET",
      setupRequest(req) {
        const t = targets[next];
        next = (next + 1) % targets.length;
        return { ...req, path: t.path, headers: { ...(req.headers ?? {}), host: t.host } };
      },
    },
  ];
}

/** One GET, retried on a dropped connection (the loaded local runtime sometimes resets one). */
async function getWithRetry(call, base, t) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call(base, "GET", t.path, t.host);
    } catch (error) {
      if (attempt >= 4) throw error;
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }
}

/** Requests every pair once (the cache puts it), then checks each answers from the cache. */
export async function primeMix(call, base, targets, concurrency = 8) {
  let index = 0;
  let hits = 0;
  const worker = async () => {
    while (index < targets.length) {
      const t = targets[index++];
      const first = await getWithRetry(call, base, t);
      if (first.status !== 200) throw new Error(`${t.host}${t.path} answered ${first.status}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await new Promise((r) => setTimeout(r, 300));
  index = 0;
  const check = async () => {
    while (index < targets.length) {
      const t = targets[index++];
      const again = await getWithRetry(call, base, t);
      if (again.headers["cf-cache-status"] === "HIT") hits += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, check));
  return hits;
}
