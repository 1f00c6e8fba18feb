export function accessConfigProblems(value: unknown, expected: { site: string; models: readonly string[] }): string[];
export function accessConfigUnion(
  owned: unknown,
  generated: unknown,
  expected: { site: string; models: readonly string[] },
): { ok: true; config: { version: 1; site: string; tokens: unknown[] } } | { ok: false; code: string; problems: string[] };
