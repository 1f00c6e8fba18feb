import { useEffect, useState } from "preact/hooks";
import { admin } from "../api/client";

/**
 * Names of the site's members by person id (admin route `listMemberNames`), for "Being edited by
 * NAME" and version authors: the lease and version views carry ids only. Answers are kept per site
 * for the page's life; an id the route leaves out (not a member) stays unnamed.
 */
const known = new Map<string, Map<string, string>>();

export async function memberNames(site: string, ids: readonly (string | null | undefined)[]): Promise<Map<string, string>> {
  const names = known.get(site) ?? new Map<string, string>();
  known.set(site, names);
  const missing = [...new Set(ids.filter((id): id is string => Boolean(id) && !names.has(id as string)))].slice(0, 100);
  if (missing.length > 0) {
    try {
      const answer = await admin("listMemberNames", { query: { ids: missing.join(",") } });
      for (const person of answer.data) names.set(person.id, person.name);
    } catch {
      // Names are a courtesy: without them the screens say "another person".
    }
  }
  return names;
}

/** The names of `ids` once known (re-asked when the list changes). */
export function useMemberNames(site: string, ids: readonly (string | null | undefined)[]): Map<string, string> {
  const [names, setNames] = useState<Map<string, string>>(() => new Map(known.get(site) ?? []));
  const wanted = [...new Set(ids.filter(Boolean))].sort().join(",");
  useEffect(() => {
    let live = true;
    void memberNames(site, wanted ? wanted.split(",") : []).then((all) => live && setNames(new Map(all)));
    return () => {
      live = false;
    };
  }, [site, wanted]);
  return names;
}
