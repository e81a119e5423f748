/**
 * /__control endpoints (outside /v1, only with `control: true`): let end-to-end tests that
 * run the demo upstream as a separate process read its state, set faults and reset it.
 */

import type { IncomingMessage, ServerResponse } from "node:http";
import type { Runtime } from "./context";
import { HttpError, sendJson, validationError } from "./errors";
import { faultRulesSchema } from "./faults";
import { readBody } from "./input";

export function resetRuntime(runtime: Runtime): void {
  runtime.state.reset();
  runtime.faults.reset();
  for (const id of Object.keys(runtime.counts) as Array<keyof Runtime["counts"]>) runtime.counts[id] = 0;
}

const ENDPOINTS: Record<string, string> = { state: "GET", faults: "PUT", reset: "POST" };

export async function handleControl(req: IncomingMessage, res: ServerResponse, runtime: Runtime, segments: readonly string[]): Promise<void> {
  const name = segments.length === 2 ? (segments[1] as string) : "";
  const method = Object.hasOwn(ENDPOINTS, name) ? ENDPOINTS[name] : undefined;
  if (!method) throw new HttpError(404, `there is no control endpoint /${segments.join("/")}`);
  if (req.method !== method) throw new HttpError(405, `use ${method} on /__control/${name}`, { headers: { allow: method } });
  switch (name) {
    case "state":
      sendJson(res, 200, { ...runtime.state.snapshot(), requestCounts: { ...runtime.counts }, faults: runtime.faults.list() });
      return;
    case "faults": {
      const text = await readBody(req);
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new HttpError(400, "the request body is not valid JSON: send an array of fault rules");
      }
      const parsed = faultRulesSchema.safeParse(value);
      if (!parsed.success) throw validationError("body", parsed.error);
      runtime.faults.setRules(parsed.data);
      sendJson(res, 200, { ok: true, faults: runtime.faults.list() });
      return;
    }
    default:
      resetRuntime(runtime);
      sendJson(res, 200, { ok: true });
  }
}
