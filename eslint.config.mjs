import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const serverOnlyModules = [
  "@/lib/upstream/*",
  "@/lib/session/*",
  "@/lib/server/*",
  "@/lib/handlers/*",
  "@/lib/store/*",
  "@/lib/actions/*",
  "@/lib/metrics/server/*",
  "@/lib/demo-upstream/*",
];

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([".next/**", "node_modules/**", "test-results/**", "playwright-report/**", "next-env.d.ts"]),
  {
    rules: {
      "no-console": ["error", { allow: ["warn", "error", "info"] }],
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    // The browser must never load code that touches the API key: UI and client hooks stay on their side.
    files: ["components/**", "lib/queries/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: serverOnlyModules, message: "Server-only module: not importable from UI or client hooks." }] },
      ],
    },
  },
  {
    files: ["lib/demo-upstream/**", "scripts/**", "bench/**", "e2e/**"],
    rules: { "no-console": "off" },
  },
  {
    // Playwright fixtures call `use`, which is not React's hook.
    files: ["e2e/**"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
]);
