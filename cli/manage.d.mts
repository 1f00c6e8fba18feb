/** The worker imports the generated command line as text (wrangler.jsonc rules: Text). */
declare const text: string;
export default text;
