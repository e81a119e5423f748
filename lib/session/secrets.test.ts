import { describe, expect, it } from "vitest";
import { parseSessionSecrets } from "./secrets";

const newest = "n".repeat(40);
const older = "o".repeat(40);

describe("parseSessionSecrets", () => {
  it("refuses to start in production without a secret, saying what to set", () => {
    expect(() => parseSessionSecrets(undefined, true)).toThrow(/SESSION_SECRET is required in production/);
  });

  it("refuses a secret shorter than 32 characters", () => {
    expect(() => parseSessionSecrets("short", true)).toThrow(/at least 32/);
    expect(() => parseSessionSecrets(`${newest},tooshort`, true)).toThrow(/secret number 2/);
  });

  it("seals with the newest secret and unseals with all of them", () => {
    const secrets = parseSessionSecrets(`${newest}, ${older}`, true);
    expect(Object.values(secrets.sealing)).toEqual([newest]);
    expect(Object.values(secrets.unsealing).sort()).toEqual([newest, older].sort());
  });

  it("gives a secret the same id wherever it stands in the list", () => {
    const before = parseSessionSecrets(older, true);
    const after = parseSessionSecrets(`${newest},${older}`, true);
    const olderId = Object.keys(before.sealing)[0]!;
    expect(after.unsealing[olderId]).toBe(older);
  });

  it("generates a random secret outside production", () => {
    const first = parseSessionSecrets(undefined, false);
    const second = parseSessionSecrets("", false);
    expect(Object.values(first.sealing)[0]!.length).toBeGreaterThanOrEqual(32);
    expect(second.sealing).toEqual(first.sealing);
  });
});
