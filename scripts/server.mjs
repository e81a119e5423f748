#!/usr/bin/env node
// The dashboard's HTTP server: Next.js behind a node:http listener that replaces
// X-Forwarded-For with the client address it can vouch for, so that per-client limits
// (sign-in attempts) cannot be dodged by sending a made-up header.
import { createServer } from "node:http";
import { clientAddress } from "./client-address.mjs";

const dev = process.argv.includes("--dev");
// As `next start` and `next dev` do: the mode decides secure cookies and required secrets.
process.env.NODE_ENV = dev ? "development" : "production";
const { default: next } = await import("next");
const port = Number(process.env.PORT ?? 3000);
const hops = Number(process.env.TRUST_PROXY_HOPS ?? 0);
if (!Number.isInteger(hops) || hops < 0) {
  console.error(`TRUST_PROXY_HOPS must be a whole number of proxies (0 or more), got "${process.env.TRUST_PROXY_HOPS}".`);
  process.exit(1);
}

const app = next({ dev, hostname: "localhost", port });
const handle = app.getRequestHandler();
await app.prepare();

createServer((request, response) => {
  const forwarded = request.headers["x-forwarded-for"];
  request.headers["x-forwarded-for"] = clientAddress(
    Array.isArray(forwarded) ? forwarded.join(",") : forwarded,
    request.socket.remoteAddress,
    hops,
  );
  handle(request, response);
}).listen(port, () => console.log(`Listening on http://localhost:${port} (${dev ? "development" : "production"})`));
