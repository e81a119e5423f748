import { createHmac, timingSafeEqual } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { deliverWebhook, isBlockedAddress, postWebhook, standardWebhookSecret, type WebhookRequest } from "./webhook";

const SECRET = "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4";

interface Received {
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

let server: Server;
let port: number;
let received: Received[] = [];
let answer: (req: IncomingMessage, res: ServerResponse) => void;

/** How a receiver checks a delivery, exactly as docs/features/alerts.md tells it to. */
function verify(headers: IncomingMessage["headers"], body: string, secret: string): boolean {
  const timestamp = String(headers["x-dashboard-timestamp"]);
  const expected = `v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
  const given = String(headers["x-dashboard-signature"]);
  const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) < 300;
  return fresh && given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

/** How a Standard Webhooks receiver checks it: the secret as `whsec_<base64 key>`, the id, the timestamp and the body. */
function verifyStandard(headers: IncomingMessage["headers"], body: string, whsec: string): boolean {
  const key = Buffer.from(whsec.replace(/^whsec_/, ""), "base64");
  const signed = `${String(headers["webhook-id"])}.${String(headers["webhook-timestamp"])}.${body}`;
  const expected = createHmac("sha256", key).update(signed).digest("base64");
  return String(headers["webhook-signature"])
    .split(" ")
    .some((entry) => entry === `v1,${expected}`);
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body });
      answer(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
beforeEach(() => {
  received = [];
  answer = (_req, res) => res.end("ok");
});

const hook = (changes: Partial<WebhookRequest> = {}): WebhookRequest => ({
  url: `http://127.0.0.1:${port}/hooks/alerts`,
  secret: SECRET,
  deliveryId: "note_1",
  body: { text: "Revenue fell", alert: { value: 12 } },
  timeoutMs: 2_000,
  allowPrivate: true,
  ...changes,
});

describe("webhooks over real HTTP", () => {
  it("posts a signed JSON body that the receiver verifies with the rule's secret", async () => {
    expect(await postWebhook(hook())).toEqual({ outcome: "sent", status: 200 });
    const [delivery] = received;
    expect(delivery!.path).toBe("/hooks/alerts");
    expect(delivery!.headers["content-type"]).toBe("application/json");
    expect(delivery!.headers["x-dashboard-delivery"]).toBe("note_1");
    expect(JSON.parse(delivery!.body)).toEqual({ text: "Revenue fell", alert: { value: 12 } });
    expect(verify(delivery!.headers, delivery!.body, SECRET)).toBe(true);
    expect(verify(delivery!.headers, delivery!.body, "another secret")).toBe(false);
    expect(verify(delivery!.headers, delivery!.body.replace("12", "13"), SECRET)).toBe(false);
    // The Standard Webhooks headers, beside ours.
    expect(delivery!.headers["webhook-id"]).toBe("note_1");
    expect(delivery!.headers["webhook-timestamp"]).toBe(delivery!.headers["x-dashboard-timestamp"]);
    expect(standardWebhookSecret(SECRET)).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(verifyStandard(delivery!.headers, delivery!.body, standardWebhookSecret(SECRET))).toBe(true);
    expect(verifyStandard(delivery!.headers, delivery!.body, standardWebhookSecret("another secret"))).toBe(false);
    expect(verifyStandard(delivery!.headers, delivery!.body.replace("12", "13"), standardWebhookSecret(SECRET))).toBe(false);
  });

  it.each([
    ["IPv4-compatible", "::127.0.0.1"],
    ["IPv4-compatible, in hex", "::7f00:1"],
    ["IPv4-mapped", "::ffff:127.0.0.1"],
    ["IPv4-mapped, in hex", "::ffff:a9fe:a9fe"],
    ["IPv4-translated", "::ffff:0:7f00:1"],
    ["6to4", "2002:7f00:1::1"],
    ["6to4 of a public address", "2002:808:808::1"],
    ["Teredo", "2001:0:4136:e378:8000:63bf:3fff:fdd2"],
    ["NAT64", "64:ff9b::7f00:1"],
    ["local NAT64", "64:ff9b:1::a00:1"],
    ["IPv4 documentation", "192.0.2.10"],
    ["IPv4 documentation", "198.51.100.7"],
    ["IPv4 documentation", "203.0.113.9"],
    ["IPv6 documentation", "2001:db8::1"],
    ["benchmarking", "198.18.0.1"],
    ["unspecified", "0.0.0.0"],
    ["broadcast", "255.255.255.255"],
    ["site-local", "fec0::1"],
    ["not an address", "example.com"],
  ])("refuses a %s address (%s)", (_kind, address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it("reaches global unicast addresses, IPv4-mapped ones judged as the IPv4 they carry", async () => {
    for (const address of ["8.8.8.8", "1.1.1.1", "::ffff:8.8.8.8", "2606:4700::1111", "2a00:1450:4001:80b::200e"])
      expect(isBlockedAddress(address), address).toBe(false);
    for (const host of ["[::127.0.0.1]", "[::ffff:0:7f00:1]", "[64:ff9b::7f00:1]", "[2002:7f00:1::1]"]) {
      const outcome = await postWebhook(hook({ url: `http://${host}:${port}/`, allowPrivate: false }));
      expect(outcome, host).toMatchObject({ outcome: "not_sent", retry: false });
    }
    expect(received).toEqual([]);
  });

  it("refuses loopback, private, link-local and metadata addresses, before and after name resolution", async () => {
    for (const url of [
      `http://127.0.0.1:${port}/`,
      `http://localhost:${port}/`,
      `http://[::1]:${port}/`,
      `http://0x7f000001:${port}/`,
      "http://169.254.169.254/latest/meta-data/",
      "http://10.0.0.8/",
      "http://192.168.1.1/",
      `http://[::ffff:127.0.0.1]:${port}/`,
    ]) {
      const outcome = await postWebhook(hook({ url, allowPrivate: false }));
      expect(outcome, url).toMatchObject({ outcome: "not_sent", retry: false });
    }
    expect(received).toEqual([]);
    expect(isBlockedAddress("fd00:ec2::254")).toBe(true);
    expect(isBlockedAddress("100.64.1.1")).toBe(true);
    expect(isBlockedAddress("8.8.8.8")).toBe(false);
    expect(isBlockedAddress("2606:4700::1111")).toBe(false);
  });

  it("counts a failed TLS handshake as not sent: a certificate it cannot trust, or a server that speaks no TLS", async () => {
    const dir = mkdtempSync(join(tmpdir(), "webhook-tls-"));
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=localhost",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
      ],
      { stdio: "ignore" },
    );
    const requests: string[] = [];
    const tls = createHttpsServer({ key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) }, (req, res) => {
      requests.push(req.url ?? "");
      res.end("ok");
    });
    const plain = createNetServer((socket) => socket.end("HTTP/1.1 400 Bad Request\r\n\r\n"));
    try {
      await new Promise<void>((resolve) => tls.listen(0, "127.0.0.1", resolve));
      await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
      for (const server of [tls, plain]) {
        const outcome = await postWebhook(hook({ url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook` }));
        expect(outcome).toMatchObject({ outcome: "not_sent", retry: false, detail: expect.stringContaining("TLS handshake failed") });
      }
      expect(requests).toEqual([]);
    } finally {
      tls.close();
      plain.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("follows no redirect", async () => {
    answer = (req, res) => {
      if (req.url === "/hooks/alerts") res.writeHead(302, { location: "/elsewhere" }).end();
      else res.end("ok");
    };
    expect(await postWebhook(hook())).toMatchObject({ outcome: "not_sent", status: 302, retry: false });
    expect(received.map((delivery) => delivery.path)).toEqual(["/hooks/alerts"]);
  });

  it("retries a 503 with backoff under the same delivery id, and records every attempt", async () => {
    let calls = 0;
    answer = (_req, res) => {
      calls += 1;
      res.writeHead(calls < 3 ? 503 : 200).end();
    };
    const attempts: [number, string][] = [];
    const started = Date.now();
    const outcome = await deliverWebhook(hook(), async (attempt, result) => void attempts.push([attempt, result.outcome]), [100, 200, 400]);
    expect(outcome).toEqual({ outcome: "sent", status: 200 });
    expect(attempts).toEqual([
      [1, "not_sent"],
      [2, "not_sent"],
      [3, "sent"],
    ]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(new Set(received.map((delivery) => delivery.headers["x-dashboard-delivery"]))).toEqual(new Set(["note_1"]));
  });

  it("does not retry a 400, and gives up after the last backoff", async () => {
    answer = (_req, res) => res.writeHead(400).end();
    const attempts: number[] = [];
    await deliverWebhook(hook(), async (attempt) => void attempts.push(attempt), [10, 10]);
    expect(attempts).toEqual([1]);
    answer = (_req, res) => res.writeHead(500).end();
    attempts.length = 0;
    expect(await deliverWebhook(hook(), async (attempt) => void attempts.push(attempt), [10, 10])).toMatchObject({ outcome: "not_sent" });
    expect(attempts).toEqual([1, 2, 3]);
  });

  it("caps the time (sent but unanswered is unknown) and the size read back", async () => {
    answer = () => undefined; // never answers
    const started = Date.now();
    expect(await postWebhook(hook({ timeoutMs: 300 }))).toMatchObject({ outcome: "unknown" });
    expect(Date.now() - started).toBeLessThan(1_500);
    answer = (_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 120);
      const pump = () => {
        while (res.write(chunk));
        res.once("drain", pump);
      };
      pump();
      res.on("close", () => res.removeAllListeners("drain"));
    };
    expect(await postWebhook(hook())).toEqual({ outcome: "sent", status: 200 });
  });
});
