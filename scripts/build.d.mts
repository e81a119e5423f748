export function buildDashboard(options?: { root?: string; ifStale?: boolean }): Promise<number>;
export function bundleRowsWorker(root: string, outfile: string): Promise<void>;
