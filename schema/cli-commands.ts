import type { Surface } from "./contract";
import { IDEMPOTENCY_ARGUMENT, omissionOf, operationTool, toolName } from "./mcp-tools";

/**
 * The command table of the generated command line `cli/manage.mjs` (docs/cli.md), computed from
 * the management route table through the same argument lists as the MCP tools (`operationTool`):
 * one command per operation, named in kebab case of its operation id, whose flags are the path
 * parameters, the query parameters and the body's flat scalar fields, under the same names (kebab
 * case) as the tool arguments. Everything else of a body goes in `--body`. Nothing is per operation.
 */

type Json = Record<string, unknown>;

/** The value kinds a flag can take (a body field of another shape goes in `--body`). */
export type FlagType = "string" | "integer" | "number" | "boolean";

export interface CliFlag {
  /** Flag name without dashes (`model-id`). */
  flag: string;
  /** The argument name in the request (`model_id`). */
  name: string;
  /** Where the value goes. */
  in: "path" | "query" | "body";
  type: FlagType;
  required: boolean;
  /** `null` is a value of it (sent when the flag says `null`). */
  nullable: boolean;
  enum?: string[];
  description?: string;
}

export interface CliCommand {
  command: string;
  operationId: string;
  method: string;
  /** Path relative to `basePath`, with `{name}` parameters. */
  path: string;
  summary: string;
  scope?: string;
  /** Sends an Idempotency-Key (every write but those the router asks none for). */
  keyed: boolean;
  destructive: boolean;
  flags: CliFlag[];
  /** Body fields with no flag (objects, arrays…): only through `--body`. */
  bodyOnly: string[];
  /** Whether the operation has a body at all (`--body` accepted). */
  hasBody: boolean;
  /** Multipart upload: the file part's name (`--file <path>`), the body's fields go as text parts. */
  file?: string;
  /** The answer is binary (an archive): written to `--out <path>`, which the command then requires. */
  binary?: true;
}

/** Flags of the tool itself: no operation's argument may take these names. */
export const GLOBAL_FLAGS = ["url", "key", "body", "json", "help", "file", "scope", "no-open", "out"] as const;

/** Commands of the tool itself (docs/cli.md): no operation may take these names. */
export const OWN_COMMANDS = ["help", "login", "status", "logout", "mcp"] as const;

/** `publishEntry` → `publish-entry`. */
export function commandName(operationId: string): string {
  return toolName(operationId).replace(/_/g, "-");
}

/** `model_id` → `model-id`, `sortBy` → `sort-by`. */
export function flagName(argument: string): string {
  return toolName(argument).replace(/_/g, "-");
}

function scalar(schema: Json): { type: FlagType; nullable: boolean; enum?: string[] } | null {
  let nullable = false;
  let s = schema;
  if (Array.isArray(schema.anyOf)) {
    const parts = schema.anyOf as Json[];
    const others = parts.filter((p) => p.type !== "null");
    if (others.length !== 1 || parts.length !== 2) return null;
    nullable = true;
    s = others[0] as Json;
  }
  const type = s.type;
  if (type !== "string" && type !== "integer" && type !== "number" && type !== "boolean") return null;
  const values = Array.isArray(s.enum) && s.enum.every((e) => typeof e === "string") ? (s.enum as string[]) : undefined;
  return { type, nullable, ...(values ? { enum: values } : {}) };
}

/** Every command of a surface, in the table's order; throws on a name two commands or flags share. */
export function cliCommands(surface: Surface): CliCommand[] {
  const commands: CliCommand[] = [];
  const seen = new Set<string>();
  for (const route of surface.routes) {
    const tool = operationTool(route);
    const schema = tool.description.inputSchema as { properties: Record<string, Json>; required: string[] };
    const command = commandName(route.operationId);
    if (seen.has(command) || (OWN_COMMANDS as readonly string[]).includes(command)) throw new Error(`two operations (or one and the tool) make the command ${command}`);
    seen.add(command);
    const flags: CliFlag[] = [];
    const bodyOnly: string[] = [];
    const flagNames = new Set<string>(GLOBAL_FLAGS);
    const place = (names: string[], where: CliFlag["in"]) => {
      for (const name of names) {
        const prop = schema.properties[name] ?? {};
        const kind = scalar(prop);
        if (!kind) {
          if (where !== "body") throw new Error(`${route.operationId}: ${where} parameter "${name}" is not a scalar`);
          bodyOnly.push(name);
          continue;
        }
        const flag = flagName(name);
        if (flagNames.has(flag)) throw new Error(`${route.operationId}: flag --${flag} is taken`);
        flagNames.add(flag);
        const description = typeof prop.description === "string" ? prop.description : undefined;
        flags.push({ flag, name, in: where, ...kind, required: schema.required.includes(name), ...(description ? { description } : {}) });
      }
    };
    place(tool.params, "path");
    place(tool.query, "query");
    place(tool.body, "body");
    if (tool.keyed && IDEMPOTENCY_ARGUMENT in schema.properties === false) throw new Error("keyed tool without its key argument");
    commands.push({
      command,
      operationId: route.operationId,
      method: route.method.toUpperCase(),
      path: route.path,
      summary: route.summary,
      ...(route.scope ? { scope: route.scope } : {}),
      keyed: tool.keyed,
      destructive: route.destructive === true,
      flags,
      bodyOnly,
      hasBody: route.body !== undefined,
      ...(route.multipart ? { file: route.multipart.file } : {}),
      // A binary answer (docs/cli.md, "Binary answers") is written to --out, never to the terminal.
      ...(omissionOf(route) === "binary_answer" ? { binary: true } : {}),
    });
  }
  return commands;
}
