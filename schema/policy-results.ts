import * as v from "valibot";

/**
 * What content policies did to a write that went ahead (docs/plugin-policies.md): a transform, or
 * an advisory policy that could not be asked. The same rows answer a bulk action's id and a
 * release's publish; `description` says when they appear.
 */
export function PolicyResults(description: string) {
  return v.optional(
    v.pipe(
      v.array(
        v.object({
          installation_id: v.string(),
          plugin_name: v.string(),
          policy_id: v.string(),
          policy_label: v.string(),
          locale: v.string(),
          message: v.nullable(v.string()),
          fields: v.array(v.string()),
          outcome: v.picklist(["transformed", "unavailable"]),
          failure: v.optional(v.string()),
        }),
      ),
      v.description(description),
    ),
  );
}
