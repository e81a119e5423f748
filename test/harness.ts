import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { vi } from "vitest";
import type { RouteHandler } from "@/server/http/pipeline";

export const DASHBOARD = "http://localhost:3000";
export const ADMIN_KEY = "sk_demo_admin_nw_us_5d8e2f41c7a9";
export const MARKETER_KEY = "sk_demo_marketer_nw_us_9b1c6e03d2f4";
export const US_STORE = "northwind-outfitters.myshopify.com";

/** Points the dashboard's server code at an upstream, with a fixed session secret. */
export function useUpstream(baseUrl: string, extra: Record<string, string> = {}) {
  vi.stubEnv("UPSTREAM_BASE_URL", baseUrl);
  vi.stubEnv("SESSION_SECRET", "test-secret-".padEnd(48, "x"));
  for (const [name, value] of Object.entries(extra)) vi.stubEnv(name, value);
}

/** A request as the dashboard's own pages would send it. */
export function dashboardRequest(path: string, init: RequestInit & { cookie?: string } = {}): Request {
  const headers = new Headers(init.headers);
  headers.set("host", "localhost:3000");
  if (init.cookie) headers.set("cookie", init.cookie);
  if (init.method && init.method !== "GET" && !headers.has("origin")) headers.set("origin", DASHBOARD);
  return new Request(`${DASHBOARD}${path}`, { ...init, headers });
}

/** A request of the session whose cookie is `cookie`, its body sent as JSON when there is one. */
export function sessionRequest(
  method: string,
  path: string,
  cookie: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Request {
  return dashboardRequest(path, { method, cookie, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

/** The `name=value` part of a Set-Cookie header, ready to send back. */
export function cookieFrom(response: Response): string {
  const setCookie = response.headers.get("set-cookie");
  if (!setCookie) throw new Error("no set-cookie on the response");
  return setCookie.split(";")[0]!;
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

/** A scripted upstream that records what it receives, for checking exactly what the proxy sends. */
export async function startRecordingUpstream(
  answer: (request: RecordedRequest) => { status: number; headers?: Record<string, string>; body: string },
) {
  const received: RecordedRequest[] = [];
  const server: Server = createServer((request, response) => {
    const recorded = { method: request.method ?? "", url: request.url ?? "", headers: request.headers };
    received.push(recorded);
    request.resume();
    request.on("end", () => {
      const { status, headers, body } = answer(recorded);
      response.writeHead(status, { "content-type": "application/json", ...headers });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Calls a route handler as Next.js does: with the path parameters of its folder (decoded), read
 * from the request's path.
 */
export function callRoute(handler: RouteHandler, request: Request): Promise<Response> {
  const names: string[] = [];
  const pattern = handler.spec.path.replace(/\[(\.\.\.)?([^\]]+)\]/g, (_match, rest: string | undefined, name: string) => {
    names.push(name);
    return rest ? "(.+)" : "([^/]+)";
  });
  const found = new RegExp(`^${pattern}/?$`).exec(new URL(request.url).pathname);
  const params: Record<string, string | string[]> = {};
  names.forEach((name, index) => {
    const raw = found?.[index + 1] ?? "";
    params[name] = handler.spec.path.includes(`[...${name}]`) ? raw.split("/").map(decodeURIComponent) : decodeURIComponent(raw);
  });
  return handler(request, { params: Promise.resolve(params) });
}
