import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The process tests (scripts/: builds, servers, instances) first. They are the suite's longest files, and on a
 * run with no timings cached (a fresh clone in CI) the default order starts them last, leaving one worker
 * idle while the other finishes a two-minute file.
 */
class ProcessTestsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files);
    const isProcessTest = (file: TestSpecification) => file.moduleId.includes("/scripts/");
    return [...sorted.filter(isProcessTest), ...sorted.filter((file) => !isProcessTest(file))];
  }
}

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./", import.meta.url)),
      // Outside React Server Components the "server-only" guard would throw on import.
      "server-only": fileURLToPath(new URL("./test/server-only-stub.ts", import.meta.url)),
    },
  },
  test: {
    include: [
      "server/**/*.test.ts",
      "shared/**/*.test.ts",
      "client/**/*.test.ts",
      "demo-upstream/**/*.test.ts",
      "app/**/*.test.ts",
      "components/**/*.test.ts",
      "scripts/**/*.test.ts",
    ],
    environment: "node",
    // The process's database is an in-memory PGlite per test file; the storage suite also runs on TEST_DATABASE_URL.
    setupFiles: ["test/database-setup.ts"],
    globalSetup: ["test/database-global-setup.ts"],
    testTimeout: 20_000,
    // Request and audit log lines are shown for failing tests only.
    silent: "passed-only",
    hookTimeout: 30_000,
    // Two files at a time even on two cores: the process tests mostly wait on their children
    // (a build, a planner's minute, a lease), so a second file fills that time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: ProcessTestsFirst },
  },
});
