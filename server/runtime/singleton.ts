import "server-only";

const registry = globalThis as typeof globalThis & { __dashboardSingletons?: Map<string, unknown> };

/**
 * One instance per process, whatever the bundler splits into separate module copies (route
 * handlers and pages may each load their own copy of a module).
 */
export function processSingleton<T>(name: string, create: () => T): T {
  const singletons = (registry.__dashboardSingletons ??= new Map());
  if (!singletons.has(name)) singletons.set(name, create());
  return singletons.get(name) as T;
}
