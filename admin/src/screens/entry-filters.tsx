import { useEffect, useState } from "preact/hooks";
import { navigate, paths } from "../router";
import { Button } from "../ui/controls";
import { stateName } from "../ui/state-names";
import { languageLabel } from "../media/types";

export type State = "draft" | "in_review" | "published" | "unpublished";

/** The built-in states the list filters by, in workflow order, named as the badges name them. */
const STATES: readonly State[] = ["draft", "in_review", "published", "unpublished"];

/** How many entries a page of the list shows (`?size=`; 20 is the default and left out of the address). */
export const PAGE_SIZES = ["20", "50", "100"];

/** Sets one filter in the address (empty removes it) and keeps the others. */
export function withFilter(site: string, modelId: string, current: URLSearchParams, name: string, value: string): string {
  const next = new URLSearchParams(current);
  if (value) next.set(name, value);
  else next.delete(name);
  const text = next.toString();
  return `${paths.entries(site, modelId)}${text ? `?${text}` : ""}`;
}

/**
 * The entry list's filters (issue #15 item 3): title search, language, page size and workflow
 * state, each kept in the address (so a reload or a shared link shows the same list); changing one
 * replaces the address and keeps the others.
 */
export function EntryFilters(props: { site: string; modelId: string; current: URLSearchParams; languages: string[]; trash: boolean; lang: string; state: State | ""; q: string; size: string; sort: string }) {
  const { site, current, trash } = props;
  const [searchText, setSearchText] = useState(props.q);
  // The box follows the address (back, a link): what was typed and not searched goes.
  useEffect(() => setSearchText(props.q), [props.modelId, trash, props.lang, props.state, props.q, props.size, props.sort]);
  return (
    <form
      class="filters"
      role="search"
      aria-label="Filter entries"
      onSubmit={(event) => {
        event.preventDefault();
        navigate(withFilter(site, props.modelId, current, "q", searchText.trim()), { replace: true });
      }}
    >
      <div class="field">
        <label for="entry-search">Search by title</label>
        <div class="row">
          <input id="entry-search" type="search" value={searchText} maxLength={200} onInput={(e) => setSearchText((e.currentTarget as HTMLInputElement).value)} />
          <Button type="submit">Search</Button>
        </div>
      </div>
      <div class="field">
        <label for="entry-lang">Language</label>
        <select id="entry-lang" value={props.lang} onChange={(e) => navigate(withFilter(site, props.modelId, current, "lang", (e.currentTarget as HTMLSelectElement).value), { replace: true })}>
          <option value="">All languages</option>
          {props.languages.map((l) => (
            <option value={l}>{languageLabel(l)}</option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="entry-size">Per page</label>
        <select id="entry-size" value={props.size} onChange={(e) => navigate(withFilter(site, props.modelId, current, "size", (e.currentTarget as HTMLSelectElement).value === "20" ? "" : (e.currentTarget as HTMLSelectElement).value), { replace: true })}>
          {PAGE_SIZES.map((n) => (
            <option value={n}>{n}</option>
          ))}
        </select>
      </div>
      {trash ? null : (
        <div class="field">
          <label for="entry-state">Workflow state</label>
          <select id="entry-state" value={props.state} onChange={(e) => navigate(withFilter(site, props.modelId, current, "state", (e.currentTarget as HTMLSelectElement).value), { replace: true })}>
            <option value="">All states</option>
            {STATES.map((s) => (
              <option value={s}>{stateName(s)}</option>
            ))}
          </select>
        </div>
      )}
    </form>
  );
}
