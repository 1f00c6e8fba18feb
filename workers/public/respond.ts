/** A public answer before caching decides its headers. */
export interface PublicAnswer {
  /** JSON text, assembled from stored snapshots without re-parsing them. */
  body: string;
  /** Cache tags naming the site, the model and every item the body mentions. */
  tags: string[];
  /** False for token-carrying and preview requests: never stored, `private, no-store`. */
  cacheable: boolean;
  /** Default JSON; the sitemap answers XML. */
  contentType?: string;
}

export function publicResponse(answer: PublicAnswer, maxAge: number): Response {
  const headers = new Headers({ "content-type": answer.contentType ?? "application/json; charset=utf-8" });
  if (!answer.cacheable) headers.set("cache-control", "private, no-store");
  else if (maxAge > 0) {
    headers.set("cache-control", `public, max-age=${maxAge}`);
    headers.set("cache-tag", answer.tags.join(","));
  } else headers.set("cache-control", "no-store");
  return new Response(answer.body, { status: 200, headers });
}
