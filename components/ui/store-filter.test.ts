import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { StoreFilter, storeName } from "./store-filter";

const US = { url: "northwind-outfitters.myshopify.com", name: "Northwind US" };
const EU = { url: "northwind-eu.myshopify.com", name: "northwind-eu.myshopify.com" };

const draw = (stores: { url: string; name: string }[] | undefined, value?: string) =>
  renderToStaticMarkup(createElement(StoreFilter, { id: "store", stores, value, onChange: () => {} }));

describe("the store filter of the organization-wide pages", () => {
  it("is not shown while the session reaches one store, or before the page has loaded", () => {
    expect(draw([US])).toBe("");
    expect(draw(undefined)).toBe("");
  });

  it("offers every store of the reach by its name, and all of them at once", () => {
    const html = draw([US, EU], EU.url);
    expect(html).toContain('<label for="store"');
    expect(html).toContain('<option value="">All stores</option>');
    expect(html).toContain(`<option value="${US.url}">Northwind US</option>`);
    expect(html).toContain(`<option value="${EU.url}" selected="">${EU.url}</option>`);
  });

  it("names a store by its name if known, else by its URL", () => {
    expect(storeName([US, EU], US.url)).toBe("Northwind US");
    expect(storeName([US], "unknown.example")).toBe("unknown.example");
    expect(storeName(undefined, EU.url)).toBe(EU.url);
  });
});
