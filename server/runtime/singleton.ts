import "server-only";

const registry = globalThis as typeof globalThis & { __dashboardSingletons?: Map<string, unknown> };

/** One instance per process, though the bundler may load separate copies of a module. */
export function processSingleton<T>(name: string, create: () => T): T {
  const singletons = (registry.__dashboardSingletons ??= new Map());
  if (!singletons.has(name)) singletons.set(name, create());
  return singletons.get(name) as T;
}
