import { workerFetch } from "./worker";

export interface PublicResult<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** GET on the public API of a host, through the real router. */
export async function publicGet<T = unknown>(host: string, path: string, headers: Record<string, string> = {}): Promise<PublicResult<T>> {
  const response = await workerFetch(`http://${host}${path}`, { headers });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T, headers: response.headers };
}

export interface ListBody {
  data: { id: string; slug: string; locale: string; model: string; fields: Record<string, unknown>; relations: Record<string, { instance_id: string; slug: string }[]> }[];
  page: { limit: number; has_more: boolean; next_cursor: string | null };
}
