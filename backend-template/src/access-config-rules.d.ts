export function accessConfigProblems(value: unknown, expected: { site: string; models: readonly string[] }): string[];
