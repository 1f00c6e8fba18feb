import { Link } from "./controls";

/** A sortable column's header: a link that sorts by it (again: the other way), with aria-sort. */
export function SortHeader({ label, column, sort, href }: { label: string; column: string; sort: string; href: (value: string) => string }) {
  const ascending = sort === column;
  const descending = sort === `-${column}`;
  const next = ascending ? `-${column}` : descending ? "" : column;
  return (
    <th scope="col" aria-sort={ascending ? "ascending" : descending ? "descending" : "none"}>
      <Link href={href(next)} aria-label={`${label}: sort ${ascending ? "descending" : descending ? "as listed" : "ascending"}`}>
        {label}
        <span aria-hidden="true">{ascending ? " ▲" : descending ? " ▼" : " ↕"}</span>
      </Link>
    </th>
  );
}
