import { existsSync, readFileSync } from "node:fs";
import type { NextConfig } from "next";
import serverExternalPackages from "./scripts/server-packages.json";

/** Headers for every response; the page CSP (with its per-request nonce) is set in proxy.ts. */
const securityHeaders = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];

/** Written by scripts/build.mjs: a hash of the sources, so that a build id names what it was built from. */
const BUILD_ID_FILE = ".releases/next-build-id";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // A self-contained server; scripts/build.mjs assembles it into a release with the server program.
  output: "standalone",
  // Loaded from node_modules at run time, not bundled: one copy each, shared by the app and the server
  // program (the database drivers, the logger, the metrics registry, tracing).
  serverExternalPackages,
  // The server writes nothing into its release (which may be read-only): what Next.js caches at run
  // time (a rendered 404 page, among others) stays in memory, never in .next/server.
  experimental: { isrFlushToDisk: false },
  generateBuildId: () => (existsSync(BUILD_ID_FILE) ? readFileSync(BUILD_ID_FILE, "utf8").trim() : null),
  // The build type-checks the app only: tests, benchmarks and scripts need devDependencies,
  // which `npm ci --omit=dev` leaves out (`npm run typecheck` checks everything).
  typescript: { tsconfigPath: "tsconfig.build.json" },
  async headers() {
    return [
      { source: "/:path*", headers: securityHeaders },
      {
        // JSON and CSV answers never need to run or embed anything.
        source: "/api/:path*",
        headers: [
          { key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'" },
          { key: "Cache-Control", value: "no-store" },
        ],
      },
    ];
  },
};

export default nextConfig;
