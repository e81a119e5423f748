#!/usr/bin/env node
// The dashboard's HTTP server: Next.js behind a node:http listener that
// - vouches for the client address (x-dashboard-client-address), so that per-client limits
//   (sign-in attempts) cannot be dodged with a made-up header;
// - cuts off clients too slow to send their request (headers and request timeouts);
// - stops gracefully on SIGTERM or SIGINT: no new connections, requests in flight finish within
//   SHUTDOWN_GRACE_MS, then the shutdown hooks run (lib/server/lifecycle.ts). A second signal, a second or
//   more later, stops at once.
import { createServer } from "node:http";
import { PROTO_HEADER, rawPathProblem, refuse, requestProtocol } from "./request-guard.mjs";
import { vouchForClient } from "./client-address.mjs";

const HOOK_TIMEOUT_MS = 5_000;
const DUPLICATE_SIGNAL_MS = 1_000;

function fail(message) {
  console.error(message);
  process.exit(1);
}

function wholeNumber(name, fallback, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}) {
  const raw = process.env[name] || String(fallback);
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) fail(`${name} must be a whole number from ${min} to ${max}, got "${raw}".`);
  return value;
}

const dev = process.argv.includes("--dev");
// As `next start` and `next dev` do: the mode decides secure cookies and required secrets.
process.env.NODE_ENV = dev ? "development" : "production";
const port = wholeNumber("PORT", 3000, { min: 1, max: 65_535 });
const hops = wholeNumber("TRUST_PROXY_HOPS", 0);
const headersTimeout = wholeNumber("SERVER_HEADERS_TIMEOUT_MS", 20_000, { min: 1 });
// Longer than the slowest legitimate upload: request bodies are at most 64 KB.
const requestTimeout = wholeNumber("SERVER_REQUEST_TIMEOUT_MS", 60_000, { min: headersTimeout });
// Longer than the 60 s idle timeout of common load balancers and reverse proxies, so that they,
// not the dashboard, close idle connections: else one may reuse a connection as it is being closed (a 502).
const keepAliveTimeout = wholeNumber("SERVER_KEEP_ALIVE_TIMEOUT_MS", 65_000, { min: 1 });
const graceMs = wholeNumber("SHUTDOWN_GRACE_MS", 10_000);

// Read by lib/server/client-address.ts and lib/server/lifecycle.ts, whatever the bundling: Symbol.for is process-wide.
const lifecycle = { vouchesClientAddress: true, draining: false, shutdownHooks: [] };
globalThis[Symbol.for("dashboard.server")] = lifecycle;

const { default: next } = await import("next");
const app = next({ dev, hostname: "localhost", port });
const handle = app.getRequestHandler();
let markReady;
// Requests that arrive while Next.js loads wait for it.
const ready = new Promise((resolve) => (markReady = resolve));

const server = createServer(
  // Timeouts are enforced by a sweep every connectionsCheckingInterval (30 s by default); 1 s keeps them close to their value.
  { headersTimeout, requestTimeout, keepAliveTimeout, connectionsCheckingInterval: 1_000 },
  (request, response) => {
    const problem = rawPathProblem(request.url);
    if (problem) return refuse(request, response, 400, `Bad request: ${problem}.`);
    vouchForClient(request.headers, request.socket.remoteAddress, hops);
    const protocol = requestProtocol(request.headers, Boolean(request.socket.encrypted), hops);
    request.headers[PROTO_HEADER] = protocol;
    // Over HTTPS, browsers are told to come back only over HTTPS.
    if (protocol === "https") response.setHeader("strict-transport-security", "max-age=63072000; includeSubDomains");
    if (lifecycle.draining) response.setHeader("connection", "close");
    // Once a response is sent during the drain, its keep-alive connection is idle: close it.
    response.once("finish", () => lifecycle.draining && setImmediate(() => server.closeIdleConnections()));
    void ready.then(() => handle(request, response));
  },
);
// After listening, the port is known to be ours: a port in use is reported before Next.js loads.
server.on("error", (error) => {
  if (server.listening) return console.error(error);
  fail(
    error.code === "EADDRINUSE"
      ? `PORT ${port} is already in use: stop what listens there, or choose another port (PORT=${port + 1}).`
      : `Cannot listen on PORT ${port}: ${error.message}`,
  );
});
await new Promise((resolve) => server.listen(port, resolve));
await app.prepare();
markReady();
console.log(`Listening on http://localhost:${port} (${dev ? "development" : "production"})`);

/** Settles with the promise's outcome, or with `onTimeout` after `ms`; the timer keeps the process alive meanwhile. */
function within(promise, ms, onTimeout) {
  let timer;
  const timedOut = new Promise((resolve) => (timer = setTimeout(() => resolve(onTimeout), ms)));
  return Promise.race([promise, timedOut]).finally(() => clearTimeout(timer));
}

async function runShutdownHooks() {
  for (const hook of lifecycle.shutdownHooks) {
    const ran = Promise.resolve()
      .then(hook)
      .then(
        () => "done",
        (error) => `failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    const outcome = await within(ran, HOOK_TIMEOUT_MS, `did not finish within ${HOOK_TIMEOUT_MS} ms`);
    if (outcome !== "done") console.error(`A shutdown hook ${outcome}.`);
  }
}

let signalledAt = 0;

async function shutDown(signal) {
  if (lifecycle.draining) {
    // Within a second it is the same request delivered twice: Ctrl-C reaches the whole
    // process group, and npm start and scripts/start.mjs pass signals on as well.
    if (Date.now() - signalledAt < DUPLICATE_SIGNAL_MS) return;
    console.error(`${signal} again: stopping now.`);
    process.exit(1);
  }
  signalledAt = Date.now();
  lifecycle.draining = true;
  console.log(`${signal}: finishing the requests in flight (up to ${graceMs} ms), then stopping.`);
  const closed = new Promise((resolve) => server.close(resolve));
  server.closeIdleConnections();
  const drained = await within(
    closed.then(() => true),
    graceMs,
    false,
  );
  if (!drained) {
    console.error(`Requests still in flight after ${graceMs} ms: closing their connections.`);
    server.closeAllConnections();
  }
  await runShutdownHooks();
  process.exit(0);
}

process.on("SIGTERM", () => void shutDown("SIGTERM"));
process.on("SIGINT", () => void shutDown("SIGINT"));
