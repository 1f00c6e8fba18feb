/** What every site screen receives: the site id and the named parts of its address. */
export interface ScreenProps {
  site: string;
  params: Record<string, string>;
  search: URLSearchParams;
}

/** What the superadmin's screens get from the address (admin/src/operators/). */
export interface OperatorScreenProps {
  params: Record<string, string>;
  search: URLSearchParams;
}
