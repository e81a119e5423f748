import { afterEach, describe, expect, it, vi } from "vitest";
import { newSessionData, sealedSessionCookie, sealSession, sessionSetCookies, unsealSession } from "./cookie";

const secretA = "a".repeat(40);
const secretB = "b".repeat(40);
const data = () =>
  newSessionData({
    sessionId: "s_1",
    apiKey: "sk_test_key",
    organizationId: "org_1",
    stores: [],
    user: { name: "Ada", email: "ada@example.com" },
  });

afterEach(() => {
  vi.unstubAllEnvs();
  vi.useRealTimers();
});

describe("the session cookie", () => {
  it("round-trips the session data", async () => {
    vi.stubEnv("SESSION_SECRET", secretA);
    const session = data();
    expect(await unsealSession(await sealSession(session))).toEqual(session);
  });

  it("does not contain the key in clear", async () => {
    vi.stubEnv("SESSION_SECRET", secretA);
    const sealed = await sealSession(data());
    expect(sealed).not.toContain("sk_test_key");
    expect(Buffer.from(sealed, "base64").toString("latin1")).not.toContain("sk_test_key");
  });

  it("treats a tampered cookie as no session", async () => {
    vi.stubEnv("SESSION_SECRET", secretA);
    const sealed = await sealSession(data());
    const index = Math.floor(sealed.length / 2);
    const tampered = sealed.slice(0, index) + (sealed[index] === "A" ? "B" : "A") + sealed.slice(index + 1);
    expect(await unsealSession(tampered)).toBeNull();
    expect(await unsealSession("garbage")).toBeNull();
    expect(await unsealSession("")).toBeNull();
  });

  it("treats a cookie sealed with an unknown secret as no session", async () => {
    vi.stubEnv("SESSION_SECRET", secretA);
    const sealed = await sealSession(data());
    vi.stubEnv("SESSION_SECRET", secretB);
    expect(await unsealSession(sealed)).toBeNull();
  });

  it("still accepts cookies sealed before a secret rotation", async () => {
    vi.stubEnv("SESSION_SECRET", secretA);
    const sealed = await sealSession(data());
    vi.stubEnv("SESSION_SECRET", `${secretB},${secretA}`);
    expect(await unsealSession(sealed)).not.toBeNull();
  });

  it("expires after its lifetime", async () => {
    vi.stubEnv("SESSION_SECRET", secretA);
    vi.stubEnv("SESSION_TTL_SECONDS", "60");
    vi.useFakeTimers({ now: Date.now() });
    const sealed = await sealSession(data());
    vi.setSystemTime(Date.now() + 61_000);
    expect(await unsealSession(sealed)).toBeNull();
  });

  it("over HTTPS is a __Host- cookie: Secure, httpOnly, SameSite=Lax, on path /, with a bounded lifetime", async () => {
    vi.stubEnv("SESSION_SECRET", secretA);
    const cookie = (await sessionSetCookies(data(), new Request("https://dashboard.example/api/session")))[0]!;
    expect(cookie).toMatch(/^__Host-session=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=(\d+); Secure$/);
    expect(Number(/Max-Age=(\d+)/.exec(cookie)![1])).toBeLessThanOrEqual(8 * 3600);
  });

  it("over HTTPS behind a proxy the dashboard's server vouches for is Secure too", async () => {
    vi.stubEnv("SESSION_SECRET", secretA);
    const request = new Request("http://dashboard.example/api/session", { headers: { "x-dashboard-proto": "https" } });
    expect((await sessionSetCookies(data(), request))[0]).toMatch(/^__Host-session=.*; Secure$/);
  });

  it("over plain HTTP is not Secure, so the browser keeps it (a production build on a LAN host)", async () => {
    vi.stubEnv("SESSION_SECRET", secretA);
    vi.stubEnv("NODE_ENV", "production");
    vi.stubEnv("EMBEDDED_DATABASE", "1");
    const cookie = (await sessionSetCookies(data(), new Request("http://10.0.0.5:3000/api/session")))[0]!;
    expect(cookie).toMatch(/^session=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
  });

  it("cuts a large key ring's seal into parts and joins them on read; a part left from a longer seal is ignored", async () => {
    vi.stubEnv("SESSION_SECRET", secretA);
    const ring = Array.from({ length: 19 }, (_, index) => ({
      apiKey: `sk_live_${String(index).padStart(2, "0")}_${"k".repeat(150)}`,
      stores: [{ url: `store-${index}.example`, type: "shopify", currency: "USD" }],
    }));
    const session = { ...data(), ring };
    const cookies = await sessionSetCookies(session, new Request("http://localhost/api/session/keys"));
    expect(cookies.length).toBeGreaterThan(1);
    expect(cookies.map((cookie) => cookie.split("=")[0])).toEqual(
      cookies.map((_, index) => (index === 0 ? "session" : `session.${index}`)),
    );
    for (const cookie of cookies) expect(cookie).not.toContain("sk_live_");
    const header = cookies.map((cookie) => cookie.split(";")[0]).join("; ");
    expect(await unsealSession(sealedSessionCookie(header))).toEqual(session);

    // A one-part seal read with a stale second part from the longer one still unseals.
    const one = data();
    const [small] = await sessionSetCookies(one, new Request("http://localhost/api/session/keys"));
    const stale = `${small!.split(";")[0]}; ${cookies[1]!.split(";")[0]}`;
    expect(await unsealSession(sealedSessionCookie(stale))).toEqual(one);
  });
});
