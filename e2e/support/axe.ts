import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
/**
 * The rules whose outcome a colour scheme can change: the schemes differ only in their styles (the DOM is
 * the same), so the other rules, read whole in light, would find the same in dark.
 */
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

/** Serious and critical WCAG 2.2 A/AA violations on the page as it is now, one line each (`rules`: only those). */
export async function violations(page: Page, rules?: string[]) {
  const builder = new AxeBuilder({ page }).withTags(WCAG_TAGS);
  if (rules) builder.withRules(rules);
  const results = await builder.analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id}: ${violation.nodes
          .map((node) => node.target.join(" "))
          .slice(0, 3)
          .join(", ")}`,
    );
}

/**
 * The page as it is now, in both schemes: every rule in light, then the colour rules in dark (the same
 * page restyled, not loaded again). Leaves the page in light.
 */
export async function violationsInBothSchemes(page: Page, name: string) {
  await inScheme(page, "light");
  expect(await violations(page), `${name}, light`).toEqual([]);
  await inScheme(page, "dark");
  expect(await violations(page, COLOUR_RULES), `${name}, dark`).toEqual([]);
  await inScheme(page, "light");
}

/**
 * Restyles the page in a scheme with no colour transition running (a button's `transition-colors`
 * would otherwise show axe a colour midway between the schemes).
 */
async function inScheme(page: Page, colorScheme: "light" | "dark") {
  await page.addStyleTag({ content: "*, *::before, *::after { transition: none !important; }" });
  await page.emulateMedia({ colorScheme });
}
