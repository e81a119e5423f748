import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

/**
 * Where code runs, by folder, enforced by path:
 * - server/: server-only (the pipeline and routes, the upstream client, the database, sessions, actions,
 *   metrics aggregation, configuration); it may hold the API key.
 * - shared/: safe in the browser and on the server (schemas, formatting, time zones, locale).
 * - client/: browser code (query hooks, the guarded-action hook).
 * - components/: UI.
 * - demo-upstream/: a program of its own, which the product never imports.
 */
const zone = (target, from, message) => ({ target, from, message });
const boundaries = [
  zone(["./components", "./client", "./shared"], "./server", "Server-only code: not importable from the browser's side."),
  zone("./shared", ["./client", "./components"], "Shared code is imported by the server: it may not depend on browser code."),
];
// Tests may start the demo upstream to test against; the product itself never imports it.
const productOnly = zone(
  ["./app", "./components", "./client", "./shared", "./server", "./proxy.ts", "./instrumentation.ts"],
  "./demo-upstream",
  "The product never imports the demo upstream.",
);

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([".next/**", ".releases/**", "node_modules/**", "test-results/**", "playwright-report/**", "next-env.d.ts"]),
  {
    rules: {
      "no-console": ["error", { allow: ["warn", "error", "info"] }],
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "import/no-restricted-paths": ["error", { zones: [...boundaries, productOnly] }],
    },
  },
  {
    files: ["**/*.test.ts"],
    rules: { "import/no-restricted-paths": ["error", { zones: boundaries }] },
  },
  {
    files: ["demo-upstream/**", "scripts/**", "bench/**", "e2e/**"],
    rules: { "no-console": "off" },
  },
  {
    // Playwright fixtures call `use`, which is not React's hook.
    files: ["e2e/**"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
]);
