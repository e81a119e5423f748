export function isRunning(pid: number): boolean;
export function createExclusive(path: string, content?: string): boolean;
