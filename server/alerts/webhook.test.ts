import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { deliverWebhook, isBlockedAddress, postWebhook, type WebhookRequest } from "./webhook";

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
