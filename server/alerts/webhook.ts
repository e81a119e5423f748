import "server-only";
import { createHmac } from "node:crypto";
import { lookup } from "node:dns";
import { request as httpRequest, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import ipaddr from "ipaddr.js";

/**
 * Webhooks: a POST of a Slack-compatible JSON body to an address a user typed, so the server
 * guards itself. The name is resolved by our own lookup, which refuses loopback, private,
 * link-local (cloud metadata at 169.254.169.254 included), carrier-grade NAT, multicast and
 * reserved addresses unless private addresses are allowed, and the connection goes to the very
 * address that was checked (no second resolution to race). Redirects are never followed. The
 * time is capped and at most 64 KB of the answer is read.
 *
 * Signatures (docs/webhooks.md): `X-Dashboard-Signature: v1=<hex HMAC-SHA256 of "<timestamp>.<body>"
 * keyed by the rule's secret>`, with the timestamp (Unix seconds) in `X-Dashboard-Timestamp`; and
 * beside it the Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature:
 * v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`), keyed by the same secret's bytes, which
 * a Standard Webhooks library takes as `whsec_<base64 of the secret>`.
 */

/**
 * Whether an address is one a webhook may not reach. Classified by ipaddr.js: only global unicast
 * passes. IPv4-mapped IPv6 (::ffff:0:0/96) is judged as the IPv4 it carries; IPv4-compatible
 * (::a.b.c.d, the whole ::/96), 6to4, Teredo and NAT64 (64:ff9b::/96, 64:ff9b:1::/48) carry an
 * IPv4 address a gateway would reach for us, so they are refused; so are the documentation
 * (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24, 2001:db8::/32), benchmarking, private,
 * loopback, link-local (cloud metadata), carrier-grade NAT, multicast and reserved ranges.
 */
export function isBlockedAddress(address: string): boolean {
  if (isIP(address) === 0 || !ipaddr.isValid(address)) return true;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv4") return parsed.range() !== "unicast";
  const v6 = parsed as ipaddr.IPv6;
  // ipaddr.js reads "::a.b.c.d" as IPv4-mapped: the text tells the compatible form apart.
  const compatibleText = address.includes(".") && !/ffff:/i.test(address);
  if (compatibleText || v6.parts.slice(0, 6).every((part) => part === 0)) return true;
  if (v6.isIPv4MappedAddress()) return isBlockedAddress(v6.toIPv4Address().toString());
  return v6.range() !== "unicast";
}

class WebhookRefused extends Error {
  readonly code = "webhook_refused";
}

/** A lookup that only ever hands the socket an address that passed the guard. */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { all: true, family: options.family ?? 0 }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const list = addresses as unknown as { address: string; family: number }[];
      const refused = list.find((entry) => !allowPrivate && isBlockedAddress(entry.address));
      if (refused || list.length === 0) {
        return callback(
          new WebhookRefused(`${hostname} resolves to ${refused?.address ?? "nothing"}, which webhooks may not reach`),
          "",
          0,
        );
      }
      const first = list[0]!;
      if (options.all) return (callback as unknown as (e: null, all: typeof list) => void)(null, [first]);
      callback(null, first.address, first.family);
    });
  };
}

function signature(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

function standardSignature(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac("sha256", secret).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

/** The rule's secret as Standard Webhooks libraries take it. */
export function standardWebhookSecret(secret: string): string {
  return `whsec_${Buffer.from(secret, "utf8").toString("base64")}`;
}

/** A failed TLS handshake: the request never left, and retrying soon will not fix a certificate. */
const TLS_FAILURE = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|TLS|SSL|EPROTO|HANDSHAKE/i;

type WebhookOutcome =
  | { outcome: "sent"; status: number }
  /** Surely not received: refused address, no connection, or an answer that is not 2xx. */
  | { outcome: "not_sent"; status?: number; detail: string; retry: boolean }
  /** Sent, but no answer in time: the receiver may have it (it can tell by X-Dashboard-Delivery). */
  | { outcome: "unknown"; detail: string };

const MAX_ANSWER_BYTES = 64 * 1024;

export interface WebhookRequest {
  url: string;
  secret: string;
  /** Same on every retry, so a receiver can drop a repeat. */
  deliveryId: string;
  body: unknown;
  timeoutMs: number;
  allowPrivate: boolean;
  now?: () => number;
  /** A background run's signal: aborted, the request is cut (unknown once its bytes left) and not tried again. */
  signal?: AbortSignal;
}

/** One attempt. Never throws: the outcome says what happened. */
export function postWebhook(hook: WebhookRequest): Promise<WebhookOutcome> {
  return new Promise((resolve) => {
    if (hook.signal?.aborted) return resolve({ outcome: "not_sent", detail: "the run was stopped before the request left", retry: false });
    let url: URL;
    try {
      url = new URL(hook.url);
    } catch {
      return resolve({ outcome: "not_sent", detail: "the URL is not valid", retry: false });
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      return resolve({ outcome: "not_sent", detail: "only http and https URLs are called", retry: false });
    }
    const host = url.hostname.replace(/^\[|\]$/g, "");
    if (isIP(host) && !hook.allowPrivate && isBlockedAddress(host)) {
      return resolve({ outcome: "not_sent", detail: `${host} is an address webhooks may not reach`, retry: false });
    }
    const body = JSON.stringify(hook.body);
    const timestamp = Math.floor((hook.now?.() ?? Date.now()) / 1000);
    const options: RequestOptions = {
      method: "POST",
      // A fresh connection each time: our lookup runs for it, and "sent" means this request's bytes left.
      agent: false,
      lookup: guardedLookup(hook.allowPrivate),
      timeout: hook.timeoutMs,
      headers: {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
        "user-agent": "store-analytics-dashboard-webhooks",
        "x-dashboard-timestamp": String(timestamp),
        "x-dashboard-signature": signature(hook.secret, timestamp, body),
        "x-dashboard-delivery": hook.deliveryId,
        "webhook-id": hook.deliveryId,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": standardSignature(hook.secret, hook.deliveryId, timestamp, body),
      },
    };
    let sent = false;
    let settled = false;
    const finish = (outcome: WebhookOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      request.destroy();
      resolve(outcome);
    };
    const request = (url.protocol === "https:" ? httpsRequest : httpRequest)(url, options, (response) => {
      const status = response.statusCode ?? 0;
      let read = 0;
      response.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) response.destroy();
      });
      const done = () =>
        finish(
          status >= 200 && status < 300
            ? { outcome: "sent", status }
            : {
                outcome: "not_sent",
                status,
                detail:
                  status >= 300 && status < 400
                    ? "the receiver answered with a redirect, which is not followed"
                    : `the receiver answered ${status}`,
                retry: status === 429 || status >= 500,
              },
        );
      response.on("end", done);
      response.on("close", done);
      response.on("error", done);
    });
    // The whole exchange, connection included, within the timeout.
    const deadline = setTimeout(
      () =>
        finish(
          sent
            ? { outcome: "unknown", detail: "no answer in time" }
            : { outcome: "not_sent", detail: "no connection in time", retry: true },
        ),
      hook.timeoutMs,
    );
    const stopped = () =>
      finish(
        sent
          ? { outcome: "unknown", detail: "the run was stopped before an answer" }
          : { outcome: "not_sent", detail: "the run was stopped before the request left", retry: false },
      );
    hook.signal?.addEventListener("abort", stopped, { once: true });
    request.once("close", () => hook.signal?.removeEventListener("abort", stopped));
    // Bytes of the request leave only once the connection is up: over TLS, once its handshake is done.
    request.on("socket", (socket) => socket.on(url.protocol === "https:" ? "secureConnect" : "connect", () => (sent = true)));
    request.on("error", (error) => {
      if (error instanceof WebhookRefused || (error as { code?: string }).code === "webhook_refused") {
        return finish({ outcome: "not_sent", detail: error.message, retry: false });
      }
      const code = (error as { code?: string }).code ?? "";
      if (!sent && TLS_FAILURE.test(`${code} ${error.message}`)) {
        return finish({ outcome: "not_sent", detail: `the TLS handshake failed: ${error.message}`, retry: false });
      }
      finish(
        sent
          ? { outcome: "unknown", detail: "the connection broke before an answer" }
          : { outcome: "not_sent", detail: error.message, retry: true },
      );
    });
    request.end(body);
  });
}

/** Waits between attempts: 1 s, then 4 s, then 16 s by default (tests pass shorter ones). */
export const DEFAULT_BACKOFF_MS = [1_000, 4_000, 16_000];

/**
 * Sends with retries and backoff. Refusals (a blocked address, a redirect, a 4xx other than 429)
 * are final; an unknown outcome is retried with the same delivery id, which receivers use to
 * drop a repeat (at-least-once, as webhooks go). `record` is told every attempt.
 */
export async function deliverWebhook(
  hook: WebhookRequest,
  record: (attempt: number, outcome: WebhookOutcome) => Promise<void>,
  backoffMs: readonly number[] = DEFAULT_BACKOFF_MS,
): Promise<WebhookOutcome> {
  for (let attempt = 1; ; attempt++) {
    const outcome = await postWebhook(hook);
    await record(attempt, outcome);
    const retry = outcome.outcome === "unknown" || (outcome.outcome === "not_sent" && outcome.retry);
    if (!retry || attempt > backoffMs.length || hook.signal?.aborted) return outcome;
    await sleep(backoffMs[attempt - 1], undefined, { signal: hook.signal }).catch(() => {});
  }
}
