import { newId } from "../../ids";

/**
 * R2 keys of media objects: `<site id>/<media id>/<object id>`. Objects are immutable — every upload
 * and every replacement gets a new object id (a replaced object is kept) — so a key in a row always names the bytes it
 * was written with, and no R2 listing is ever needed to answer a request.
 */
export function newObjectKey(siteId: string, mediaId: string): { objectId: string; objectKey: string } {
  const objectId = newId("obj");
  return { objectId, objectKey: `${siteId}/${mediaId}/${objectId}` };
}

/** The object id of a key (its last segment). */
export function objectIdOf(objectKey: string): string {
  return objectKey.slice(objectKey.lastIndexOf("/") + 1);
}
