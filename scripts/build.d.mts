export function buildDashboard(options?: { root?: string; ifStale?: boolean }): Promise<number>;
