import { describe, expect, it } from "vitest";
import { isSameOrigin } from "./origin";

const request = (headers: Record<string, string>) =>
  new Request("http://localhost:3000/api/session", { method: "POST", headers: { host: "localhost:3000", ...headers } });

describe("isSameOrigin", () => {
  it("accepts the dashboard's own origin", () => {
    expect(isSameOrigin(request({ origin: "http://localhost:3000" }))).toBe(true);
    expect(isSameOrigin(request({ origin: "http://localhost:3000", "sec-fetch-site": "same-origin" }))).toBe(true);
    expect(isSameOrigin(request({ "sec-fetch-site": "same-origin" }))).toBe(true);
  });

  it.each([
    ["another origin", { origin: "https://evil.example" }],
    ["another port", { origin: "http://localhost:4000" }],
    ["Origin: null", { origin: "null" }],
    ["a cross-site fetch", { "sec-fetch-site": "cross-site", origin: "http://localhost:3000" }],
    ["a same-site but other-origin fetch", { "sec-fetch-site": "same-site" }],
    ["neither Origin nor Sec-Fetch-Site", {}],
    ["a malformed Origin", { origin: "::::" }],
  ])("refuses %s", (_label, headers) => {
    expect(isSameOrigin(request(headers))).toBe(false);
  });
});
