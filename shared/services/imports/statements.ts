import { CompiledQuery } from "kysely";

/**
 * A statement over the import and export tables, which are kept out of the kysely table types on
 * purpose: they are read and written only by the job services, always with `site_id` bound.
 */
export function statement(sql: string, parameters: readonly unknown[]): CompiledQuery {
  return CompiledQuery.raw(sql, [...parameters]);
}

/** Rows of one query on a D1 handle, typed by the caller. */
export async function rows<T>(d1: D1Database, sql: string, parameters: readonly unknown[]): Promise<T[]> {
  return (await d1.prepare(sql).bind(...parameters).all<T>()).results;
}

/** The first row of one query, or undefined. */
export async function firstRow<T>(d1: D1Database, sql: string, parameters: readonly unknown[]): Promise<T | undefined> {
  return (await d1.prepare(sql).bind(...parameters).first<T>()) ?? undefined;
}
