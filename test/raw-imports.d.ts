/** Text fixtures imported whole (vite `?raw`), e.g. the WordPress exports of test/fixtures/wordpress. */
declare module "*.xml?raw" {
  const text: string;
  export default text;
}
