export function buildLockPath(root: string): string;
export function withBuildLock<T>(root: string, run: () => Promise<T> | T, options?: { waitMs?: number; lock?: string }): Promise<T>;
