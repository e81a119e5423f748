import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Breakable, breakablePieces } from "./breakable";

describe("Breakable", () => {
  it("breaks a domain only after its dots and hyphens, never inside a word", () => {
    expect(breakablePieces("northwindoutfitters.com")).toEqual(["northwindoutfitters.", "com"]);
    expect(breakablePieces("northwind-outfitters.myshopify.com")).toEqual(["northwind-", "outfitters.", "myshopify.", "com"]);
    expect(breakablePieces("store_01H7NW5QK2US")).toEqual(["store_", "01H7NW5QK2US"]);
    for (const text of ["northwindoutfitters.com", "kumoliving.com.au", "maya.chen@northwindoutfitters.com"])
      expect(breakablePieces(text).join("")).toBe(text);
  });

  it("puts a break opportunity after each separator only", () => {
    const html = renderToStaticMarkup(createElement(Breakable, { text: "northwindoutfitters.com" }));
    expect(html).toBe('<span class="break-normal ">northwindoutfitters.<wbr/>com</span>');
  });

  it("truncates a piece too long for a line, with the whole value on hover and a focus stop", () => {
    const token = "a3f9c2e1b7d84f0e9a6c5b2d1e0f7a8b";
    const html = renderToStaticMarkup(createElement(Breakable, { text: `feeds.example.com/${token}` }));
    expect(html).toContain(`title="feeds.example.com/${token}"`);
    expect(html).toContain(`<span tabindex="0" class="inline-block max-w-full truncate`);
    expect(html).toContain(`>${token}</span>`);
  });
});
