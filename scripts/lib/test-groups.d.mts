/** The workerd suite's test files (paths from the repository root) in groups of `size`. */
export function testGroups(size: number): string[][];
export const workerMain: string;
