/**
 * The product-metrics page in headless Chromium, on a store with more than 200,000 rows in
 * range: time from navigation until the KPIs, the time chart and the first table rows are
 * visible, the longest main-thread task, and the gzipped JavaScript the page loaded.
 */
import { chromium } from "@playwright/test";
import { gzipSync } from "node:zlib";
import { chromiumLaunchOptions } from "../e2e/support/chromium";
import { ADMIN_KEY, signInCookie, startDashboardProcess, startDemoUpstreamProcess, US_STORE } from "./processes";

export async function benchPage({ runs = 3 }: { runs?: number } = {}) {
  const upstream = await startDemoUpstreamProcess(["--scale", "35"]);
  const dashboard = await startDashboardProcess(upstream.baseUrl, 3901);
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const cookie = await signInCookie(dashboard.origin, ADMIN_KEY);
    const [name, value] = cookie.split("=") as [string, string];
    console.log(`\nProduct-metrics page in headless Chromium (${runs} runs, fresh browser context each, nothing cached)`);
    for (let run = 0; run < runs; run++) {
      // A different range each run, so the dashboard's short cache never answers.
      const start = `2025-0${run + 1}-01`;
      const end = `2025-0${run + 3}-15`;
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      await context.addCookies([{ name, value, url: dashboard.origin, httpOnly: true }]);
      await context.addInitScript(() => {
        const state = window as unknown as { __longTasks: [number, number][] };
        state.__longTasks = [];
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) state.__longTasks.push([Math.round(entry.startTime), Math.round(entry.duration)]);
        }).observe({ type: "longtask", buffered: true });
      });
      const page = await context.newPage();
      const scripts: Promise<number>[] = [];
      page.on("response", (response) => {
        if (response.request().resourceType() === "script")
          scripts.push(
            response.body().then(
              (body) => gzipSync(body).length,
              () => 0,
            ),
          );
      });
      const started = Date.now();
      await page.goto(`${dashboard.origin}/stores/${US_STORE}/products?range=custom&from=${start}&to=${end}`);
      await page.getByTestId("kpi-Revenue").waitFor({ timeout: 60_000 });
      const kpis = Date.now() - started;
      await page.getByTestId("time-chart").locator(".recharts-area-area").first().waitFor({ timeout: 60_000 });
      const chart = Date.now() - started;
      await page.getByTestId("product-row").first().waitFor({ timeout: 60_000 });
      const table = Date.now() - started;
      await page.waitForTimeout(300);
      const longTasks = await page.evaluate(() => (window as unknown as { __longTasks: [number, number][] }).__longTasks);
      const longestTask = Math.max(0, ...longTasks.map(([, duration]) => duration));
      const rows = await page.evaluate(async (url) => {
        const response = await fetch(url);
        const lines = (await response.text()).trim().split("\n");
        return JSON.parse(lines.at(-1)!).view.totals.rows as number;
      }, `${dashboard.origin}/api/stores/${US_STORE}/product-metrics?startDate=${start}&endDate=${end}`);
      const jsKb = (await Promise.all(scripts)).reduce((sum, size) => sum + size, 0) / 1024;
      console.log(
        `  run ${run + 1}: ${rows.toLocaleString("en-US")} rows   KPIs ${kpis} ms   time chart ${chart} ms   first table rows ${table} ms   longest task ${longestTask} ms (tasks over 50 ms, at ms: ${longTasks.map(([at, duration]) => `${duration}@${at}`).join(" ") || "none"})   JS loaded ${jsKb.toFixed(0)} kB gzipped`,
      );
      await context.close();
    }
    console.log("  targets: visible within 2,500 ms; no task over 200 ms; at most 320 kB of JavaScript");
  } finally {
    await browser.close();
    await dashboard.stop();
    await upstream.stop();
  }
}
