/**
 * The worker `npm run bench` bundles and runs on Miniflare: the REAL worker (its default export and
 * SiteObject, unchanged but for counted bindings: write-bench.ts) plus bench-only routes answered
 * before the real router, on the host `primitive.bench` only. Every other host goes straight to the real worker.
 *
 * Primitives (see primitives.ts):      GET /fixed, GET /d1, GET /cache
 * Media primitives (media-bench.ts):   PUT /r2put, GET /r2get?key=, GET /cache_media
 * Write primitives (write-bench.ts):   POST /do_write, POST /d1_batch?n=
 * Set-up and measurement helpers:      POST /_bench/site, POST /_bench/articles, POST /_bench/setup,
 *                                      GET /_bench/rows, POST /_bench/grow, GET|POST /_bench/stats,
 *                                      POST /_bench/media/credential, /_bench/media/gallery, /_bench/media/prime,
 *                                      POST /_bench/scale/clone, GET /_bench/scale/caches (scale-bench.ts),
 *                                      POST /_bench/search/grow, POST /_bench/search/measure (search-bench.ts),
 *                                      POST /_bench/write/setup, /_bench/write/plugins, GET|POST /_bench/write/counters,
 *                                      GET /_bench/write/dependents?host=
 *
 * The stats count the real worker's answers by status and `cf-cache-status` (set by the Cache API
 * on a hit), so the bench can prove that cached runs were served from the cache and uncached ones
 * were not. Counting is one header read per answer.
 */
import * as v from "valibot";
import type { Env, EventMessage } from "../../shared/env";
import worker from "../../workers/index";
import { cacheHit, d1Read, fixedBytes, setupPrimitives } from "./primitives";
import { benchCredential, benchGallery, cacheMedia, primeMediaCache, r2Get, r2Put } from "./media-bench";
import { measureRowsRead } from "./rows-read";
import { cacheStats, cloneSites } from "./scale-bench";
import { growSearch, measureSearch } from "./search-bench";
import { BENCH_HOST, CHOSEN_AUTHOR_SLUG, growArticles, provisionBenchSite, seedArticles } from "./seed-bench";
import { SiteObject as RealSiteObject } from "../../workers/index";
import {
  countingEnv,
  d1Batch,
  dependentsQueryRows,
  doWrite,
  installWritePlugins,
  readCounters,
  resetCounters,
  setupWriteSite,
  workerEnv,
} from "./write-bench";
import { readPhases, resetPhases, startTracing, traceAlarm, traceWrite } from "./write-tracer";
import type { CommandName, CommandInput } from "../../objects/site/command-registry";
import type { WriteRequest } from "../../objects/site/commands";

export { BenchWriteObject } from "./write-bench";

/** The real SiteObject, handed an env whose D1, DO and queue bindings count their calls (write-bench.ts). */
export class SiteObject extends RealSiteObject {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, countingEnv(env, "object"));
    if (env.BENCH_WRITE_PHASES) startTracing();
  }

  // BENCH_WRITE_PHASES: each command's phases in the object, by its Idempotency-Key (write-tracer.ts).
  override command<K extends CommandName>(name: K, request: WriteRequest<CommandInput<K>>) {
    return traceWrite("object", request.idempotency?.key, () => super.command(name, request));
  }

  override alarm(): Promise<void> {
    return traceAlarm(() => super.alarm());
  }
}

const PRIMITIVE_HOST = "primitive.bench";

interface Stats {
  answers: number;
  ok: number;
  cache_hits: number;
}

let stats: Stats = { answers: 0, ok: 0, cache_hits: 0 };

const BenchSiteBody = v.object({
  site_id: v.string(),
  person_id: v.string(),
  article_model_id: v.string(),
  author_ids: v.array(v.string()),
  category_ids: v.array(v.string()),
});
const ArticlesBody = v.object({ site: BenchSiteBody, from: v.pipe(v.number(), v.integer()), count: v.pipe(v.number(), v.integer()) });
const SetupBody = v.object({ host: v.string(), model: v.string(), slug: v.string() });
const GrowBody = v.object({ target: v.pipe(v.number(), v.integer()) });
const CredentialBody = v.object({ site_id: v.string(), person_id: v.string() });
const GalleryBody = v.object({ site_id: v.string(), person_id: v.string(), media_id: v.string() });
const PrimeBody = v.object({ object_key: v.string() });
const SearchBody = v.object({ kind: v.picklist(["search", "suggest"]), queries: v.array(v.string()), rounds: v.pipe(v.number(), v.integer()) });
const RangeBody = v.object({ from: v.pipe(v.number(), v.integer()), to: v.pipe(v.number(), v.integer()) });
const CloneBody = v.object({ host: v.string(), from: v.pipe(v.number(), v.integer()), to: v.pipe(v.number(), v.integer()) });
const WriteSetupBody = v.object({ index: v.pipe(v.number(), v.integer()) });
const PhasesBody = v.object({ keys: v.array(v.string()) });
const WritePluginsBody = v.object({
  site: v.object({ host: v.string(), site_id: v.string(), person_id: v.string(), model_id: v.string(), token: v.string() }),
  from: v.pipe(v.number(), v.integer()),
  count: v.pipe(v.number(), v.integer()),
});

function hostOf(request: Request): string {
  return (request.headers.get("host") ?? new URL(request.url).host).toLowerCase().replace(/:\d+$/, "");
}

async function body<T extends v.GenericSchema>(request: Request, schema: T): Promise<v.InferOutput<T>> {
  return v.parse(schema, await request.json());
}

async function benchRoute(request: Request, env: Env): Promise<Response> {
  const url = new URL(request.url);
  const route = `${request.method} ${url.pathname}`;
  switch (route) {
    case "GET /fixed":
      return fixedBytes();
    case "GET /d1":
      return d1Read(env.DB);
    case "GET /cache":
      return cacheHit();
    case "PUT /r2put":
      return r2Put(env, request);
    case "GET /r2get":
      return r2Get(env, url);
    case "GET /cache_media":
      return cacheMedia();
    case "POST /_bench/media/credential": {
      const input = await body(request, CredentialBody);
      return Response.json({ token: await benchCredential(env, input.site_id, input.person_id) });
    }
    case "POST /_bench/media/gallery": {
      const input = await body(request, GalleryBody);
      return Response.json(await benchGallery(env, input.site_id, input.person_id, input.media_id));
    }
    case "POST /_bench/media/prime": {
      const input = await body(request, PrimeBody);
      return Response.json(await primeMediaCache(env, input.object_key));
    }
    case "POST /_bench/site":
      return Response.json(await provisionBenchSite(env.DB));
    case "POST /_bench/articles": {
      const input = await body(request, ArticlesBody);
      return Response.json(await seedArticles(env.DB, input.site, input.from, input.count));
    }
    case "POST /_bench/setup": {
      const input = await body(request, SetupBody);
      return setupPrimitives(env.DB, input.host, input.model, input.slug);
    }
    case "GET /_bench/rows":
      return Response.json(await measureRowsRead(env.DB, BENCH_HOST, "article", CHOSEN_AUTHOR_SLUG, Number(url.searchParams.get("deep") ?? "5")));
    case "POST /_bench/grow": {
      const input = await body(request, GrowBody);
      const site = await env.DB.prepare(
        "SELECT m.site_id, m.id FROM models m JOIN site_hosts h ON h.site_id = m.site_id WHERE h.host = ? AND m.slug = 'article'",
      )
        .bind(BENCH_HOST)
        .first<{ site_id: string; id: string }>();
      if (!site) return new Response("no bench article model\n", { status: 404 });
      return Response.json(await growArticles(env.DB, site.site_id, site.id, input.target));
    }
    case "POST /_bench/scale/clone": {
      const input = await body(request, CloneBody);
      return Response.json(await cloneSites(env.DB, input.host, input.from, input.to));
    }
    case "POST /_bench/search/grow": {
      const input = await body(request, RangeBody);
      return Response.json(await growSearch(env.DB, BENCH_HOST, input.from, input.to));
    }
    case "POST /_bench/search/measure": {
      const input = await body(request, SearchBody);
      return Response.json(await measureSearch(env.DB, BENCH_HOST, input.kind, input.queries, input.rounds));
    }
    case "GET /_bench/scale/caches":
      return Response.json(cacheStats());
    case "POST /do_write":
      return doWrite(env, request);
    case "POST /d1_batch":
      return d1Batch(env, request, url);
    case "POST /_bench/write/setup": {
      const input = await body(request, WriteSetupBody);
      return Response.json(await setupWriteSite(env, input.index));
    }
    case "POST /_bench/write/plugins": {
      const input = await body(request, WritePluginsBody);
      return Response.json({ plugins: await installWritePlugins(env, input.site, input.from, input.count) });
    }
    case "GET /_bench/write/dependents":
      return Response.json(await dependentsQueryRows(env, url.searchParams.get("host") ?? ""));
    case "GET /_bench/write/counters":
      return Response.json(readCounters());
    case "POST /_bench/write/counters":
      resetPhases();
      return Response.json(resetCounters());
    case "POST /_bench/write/phases": {
      const input = await body(request, PhasesBody);
      return Response.json(readPhases(input.keys));
    }
    case "GET /_bench/stats":
      return Response.json(stats);
    case "POST /_bench/stats":
      stats = { answers: 0, ok: 0, cache_hits: 0 };
      return Response.json(stats);
    default:
      return new Response("unknown bench route\n", { status: 404 });
  }
}

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    if (hostOf(request) === PRIMITIVE_HOST) {
      try {
        return await benchRoute(request, env);
      } catch (error) {
        const message = error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ""}` : String(error);
        return new Response(`${message}\n`, { status: 500 });
      }
    }
    if (env.BENCH_WRITE_PHASES) startTracing();
    // BENCH_WRITE_PHASES: the request's phases in the worker, by its Idempotency-Key (write-tracer.ts).
    const response = await traceWrite("worker", request.headers.get("idempotency-key"), () => worker.fetch(request, workerEnv(env), ctx));
    stats.answers += 1;
    if (response.status === 200) stats.ok += 1;
    if (response.headers.get("cf-cache-status") === "HIT") stats.cache_hits += 1;
    return response;
  },
  queue: worker.queue,
} satisfies ExportedHandler<Env, EventMessage>;
