import "server-only";
import { createHash } from "node:crypto";
import { settings } from "@/server/config/settings";
import type { DemoKeyOption } from "@/shared/schemas/session";

/** The demo upstream's keys for sign-in (DEMO_KEYS); the page posts an opaque id, so even a demo key never reaches the browser. */

/** An id that names a demo key without revealing it. */
function demoKeyId(key: string): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 16);
}

/** The demo keys to offer on the sign-in page; none unless the demo upstream is in use. */
export function demoKeyOptions(): DemoKeyOption[] {
  return settings().demoKeys.map((entry) => ({ id: demoKeyId(entry.key), label: entry.label, state: entry.state }));
}

export function resolveDemoKey(id: string): string | undefined {
  return settings().demoKeys.find((entry) => demoKeyId(entry.key) === id)?.key;
}
