import { describe, expect, it } from "vitest";
import { plainServiceWords } from "./error-words";

describe("plainServiceWords", () => {
  it("drops the permission's code name and keeps the sentence", () => {
    expect(
      plainServiceWords("this key is not allowed to remove tracking connections (missing permission tracking-connections:delete)"),
    ).toBe("this key is not allowed to remove tracking connections");
    expect(plainServiceWords("Not found.")).toBe("Not found.");
  });
});
