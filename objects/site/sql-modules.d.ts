// wrangler.jsonc has a `Text` module rule for **/*.sql, so importing a .sql file yields its text.
// The same rule is honoured by the vitest workers pool, which reads wrangler.jsonc.
declare module "*.sql" {
  const text: string;
  export default text;
}
