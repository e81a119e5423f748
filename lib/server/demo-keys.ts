import "server-only";
import { createHash } from "node:crypto";
import { describeDemo } from "@/lib/demo-upstream/describe";
import type { DemoKeyOption } from "@/lib/schemas/session";
import { isDemoMode } from "./config";

/** An id that names a demo key without revealing it. */
function demoKeyId(key: string): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 16);
}

/** The odd store's key is offered only when the demo upstream was started with it (DEMO_UPSTREAM_ODD=1). */
const demoKeys = () => describeDemo(42, process.env.DEMO_UPSTREAM_ODD === "1").keys;

/** The demo keys to offer on the sign-in page; none unless the demo upstream is in use. */
export function demoKeyOptions(): DemoKeyOption[] {
  if (!isDemoMode()) return [];
  return demoKeys().map((entry) => ({ id: demoKeyId(entry.key), label: entry.label, state: entry.state }));
}

export function resolveDemoKey(id: string): string | undefined {
  if (!isDemoMode()) return undefined;
  return demoKeys().find((entry) => demoKeyId(entry.key) === id)?.key;
}
