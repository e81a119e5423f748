// Stands in for "server-only" under vitest, which runs outside React Server Components.
export {};
