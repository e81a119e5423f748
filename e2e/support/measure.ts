import type { Page } from "@playwright/test";

/**
 * Words shown split over two lines: every visible text node is cut into words (at spaces,
 * hyphens, dashes and slashes, where a break is normal) and each word's boxes must sit on one
 * line. Addresses and IDs carry `<wbr>` at their separators, so their pieces are text nodes of
 * their own and are checked the same way.
 */
export const splitWords = (page: Page) =>
  page.evaluate(() => {
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest("svg, script, style, noscript, template, .sr-only, [hidden]")) continue;
      if (!parent.checkVisibility({ visibilityProperty: true })) continue;
      const text = node.textContent ?? "";
      for (const match of text.matchAll(/[^\s\-/\u2010-\u2015]+/g)) {
        if (match[0].length < 2) continue;
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
        if (tops.size > 1) found.push(match[0]);
      }
    }
    return found;
  });

/** Figures cut by their box: number cells and KPI values whose text is wider than they are, or on two lines. */
export const clippedFigures = (page: Page) =>
  page.evaluate(() => {
    const found: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>(
      // A tile's changes stack one per comparison; each is kept on one line by its own style.
      '[data-testid="number-cell"], [data-testid^="kpi-"]:not([data-testid^="kpi-change-"])',
    )) {
      if (!element.checkVisibility()) continue;
      // The boxes of the visible text only: a screen reader's sentence (`.sr-only`) is clipped on purpose.
      const boxes: DOMRect[] = [];
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.parentElement?.closest(".sr-only")) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        boxes.push(...[...range.getClientRects()].filter((rect) => rect.width > 0));
      }
      // Two lines: two boxes that share no height (text of different sizes on one line still overlaps).
      const twoLines = boxes.some((a) => boxes.some((b) => a.bottom <= b.top + 1));
      if (element.scrollWidth > element.clientWidth + 1 || twoLines) found.push(element.textContent ?? "");
    }
    return found;
  });
