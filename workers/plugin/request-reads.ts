import type { ScheduleCommand, TransitionCommand } from "../../schema/plugin-protocol";
import type { ReadsWithInstallation } from "../../shared/auth/plugin-authority";
import { delegationReads, delegationRowsOf, type DelegationRows } from "../../shared/auth/plugin-delegation";
import { sha256Hex } from "../../shared/crypto/digest";
import { toSite, type Site } from "../../shared/repositories/site-repository";
import { exchangeReads, exchangeRowsOf, type ExchangeRows } from "../../shared/services/plugins/launches";

/**
 * The control-database reads a plugin operation's handler needs, sent in the installation's own
 * batch (shared/auth/plugin-authority.ts, `authenticatePluginWith`): keyed by the ids the request
 * names and, through subqueries, by the installation the token names, so a request pays one round
 * trip for the token, the delegation, its person's membership and the launch credential. The
 * handlers look at these rows in the protocol's order of checks; nothing here decides anything.
 */

/** What the handler finds already read (only what its operation asked for). */
export interface PluginPreread {
  /** getContext: the installation's site (undefined: gone). */
  site?: Site | undefined;
  /** getContent with `delegation_id`, transitionContent: the named delegation's rows. */
  delegation?: DelegationRows;
  /** exchangeLaunchCode: the code's rows. */
  exchange?: ExchangeRows;
}

export interface PluginReadPlan {
  reads: ReadsWithInstallation;
  decode(answers: unknown[][]): PluginPreread;
}

/** The parsed input of a matched operation. */
export interface ParsedInput {
  operationId: string;
  query: Record<string, string | undefined>;
  body: unknown;
}

/** The reads to send with the installation's for this operation, or undefined when it needs none. */
export async function pluginReadPlan(input: ParsedInput, now: number): Promise<PluginReadPlan | undefined> {
  switch (input.operationId) {
    case "getContext":
      return {
        reads: (db, keys) => [db.selectFrom("sites").selectAll().where("id", "=", keys.siteId).compile()],
        decode: ([sites]) => {
          const row = sites?.[0] as Parameters<typeof toSite>[0] | undefined;
          return { site: row ? toSite(row) : undefined };
        },
      };
    case "getContent":
      return input.query.delegation_id === undefined ? undefined : delegationPlan(input.query.delegation_id);
    case "transitionContent":
    case "scheduleContent":
      return delegationPlan((input.body as TransitionCommand | ScheduleCommand).delegation_id);
    case "exchangeLaunchCode": {
      const digest = await sha256Hex((input.body as { code: string }).code);
      return {
        reads: (db, keys) => exchangeReads(db, digest, keys.installationId, keys.siteId, now),
        decode: (answers) => ({ exchange: exchangeRowsOf(answers) }),
      };
    }
    default:
      return undefined;
  }
}

function delegationPlan(delegationId: string): PluginReadPlan {
  return {
    reads: (db, keys) => delegationReads(db, delegationId, keys.installationId, keys.siteId),
    decode: ([delegation, authority, credential, connection]) => ({
      delegation: delegationRowsOf([delegation ?? [], authority ?? [], credential ?? [], connection ?? []]),
    }),
  };
}
