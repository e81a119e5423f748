export const BUILD_INPUTS: readonly string[];
export function sourceHash(root?: string, inputs?: readonly string[]): string;
export function buildIsCurrent(root?: string): boolean;
export function buildDashboard(options?: { root?: string; ifStale?: boolean }): number;
