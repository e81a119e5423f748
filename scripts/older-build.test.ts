import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { Dashboard } from "@/test/dashboard-instances";
import { newLocation, storageBackends, unique, type Location } from "@/test/databases";
import { ADMIN_KEY, US_STORE } from "@/test/harness";
import { commitBeforeNewestMigration, knowsUpgradeContract, olderBuild } from "@/test/older-build";
import { ensureBuild } from "@/test/processes";

/**
 * A rolling upgrade, or a rollback of `current` after migrating: the build of the commit before
 * the newest migration, started against a database this build migrated and wrote to, works
 * fully (signs in, reads a saved view this build made, answers a product view, lists Activity)
 * or refuses to start in one line that names what to do. It never serves an empty dashboard.
 */
const REFUSAL =
  /the database is at (\d{4}_\w+), this build knows up to (\d{4}_\w+): start the newer build, or restore the backup taken before migrating/;

const older = commitBeforeNewestMigration();

// The release before may predate the upgrade lines (0023), when this release is the one that
// brings them: such a build refuses nothing and is upgraded by stopping it (docs/operations.md).
describe.skipIf(!knowsUpgradeContract(older.commit))("the build before the newest migration, on a database this build migrated", () => {
  let upstream: DemoUpstream;
  let location: Location;
  let olderDir: string;
  const dashboards: Dashboard[] = [];

  beforeAll(async () => {
    ensureBuild();
    olderDir = olderBuild(older.commit);
    upstream = await startDemoUpstream({ port: 0 });
    // PostgreSQL when the suite has one (as production runs), else the embedded database.
    location = await newLocation(storageBackends().at(-1)!);
  }, 600_000);
  afterAll(async () => {
    for (const dashboard of dashboards) await dashboard.kill();
    await upstream?.close();
    await location?.drop();
  });

  const settingsOf = (location: Location) => ({
    UPSTREAM_BASE_URL: upstream.baseUrl,
    SESSION_SECRET: "older-build-secret-".padEnd(48, "x"),
    ...(location.url ? { DATABASE_URL: location.url } : { EMBEDDED_DATABASE: "1", DATA_DIR: location.dataDir! }),
  });

  it(`works fully or refuses to start, naming ${older.migration}`, async () => {
    const newer = await Dashboard.create(settingsOf(location));
    dashboards.push(newer);
    await newer.start();
    const cookie = await newer.cookieFor(ADMIN_KEY);
    const viewName = unique("Made by the newer build");
    const view = await newer.request(`/api/stores/${US_STORE}/saved-views`, {
      method: "POST",
      cookie,
      body: JSON.stringify({ name: viewName, search: "range=custom&from=2026-01-01&to=2026-01-14" }),
    });
    expect(view.status).toBe(201);
    const ruleName = unique("Rule made by the newer build");
    const rule = await newer.request(`/api/stores/${US_STORE}/alerts`, {
      method: "POST",
      cookie,
      body: JSON.stringify({
        name: ruleName,
        metric: "revenue",
        target: { kind: "store" },
        savedViewId: null,
        granularity: "day",
        condition: { kind: "threshold", operator: "below", threshold: 1 },
        emails: [],
        webhookUrl: null,
      }),
    });
    expect(rule.status).toBe(201);
    expect(await newer.stop()).toBe(0);

    const previous = await Dashboard.create(settingsOf(location), olderDir);
    dashboards.push(previous);
    const started = await previous.start().then(
      () => true,
      () => false,
    );
    if (!started) {
      // The refusal: exit code 1, and the line that says what to do.
      expect(await previous.script!.exited).toBe(1);
      const [, at, knows] = REFUSAL.exec(previous.script!.output()) ?? [];
      expect(at, previous.script!.output()).toBeDefined();
      expect(knows! < at!).toBe(true);
      return;
    }
    const olderCookie = await previous.cookieFor(ADMIN_KEY);
    const views = await previous.request(`/api/stores/${US_STORE}/saved-views`, { cookie: olderCookie });
    expect(views.status).toBe(200);
    expect(JSON.stringify(await views.json())).toContain(viewName);
    const product = await previous.request(`/api/stores/${US_STORE}/product-metrics?startDate=2026-01-01&endDate=2026-01-14`, {
      cookie: olderCookie,
    });
    expect(product.status).toBe(200);
    // An NDJSON stream: progress lines, then the result.
    const last = JSON.parse((await product.text()).trim().split("\n").at(-1)!) as { type: string; view: { totals: { revenue: number } } };
    expect(last.type).toBe("result");
    expect(last.view.totals.revenue).toBeGreaterThan(0);
    const activity = await previous.request("/api/activity", { cookie: olderCookie });
    expect(activity.status).toBe(200);
    const { entries } = (await activity.json()) as { entries: { action: string; target: { ruleName?: string } }[] };
    expect(entries.filter((entry) => entry.action === "alert-rule.create").map((entry) => entry.target.ruleName)).toContain(ruleName);
  }, 600_000);
});
