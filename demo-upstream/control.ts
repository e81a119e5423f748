/**
 * /__control endpoints (outside /v1, only with `control: true`): let end-to-end tests that
 * run the demo upstream as a separate process read its state, set faults, switch odd mode
 * (PUT /__control/odd `{ "enabled": true }`), revoke a key (as its owner would,
 * mid-session), inject anomalies (PUT /__control/anomalies, anomalies.ts) and reset it (odd mode back to how the server started).
 */

import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { anomalyRulesSchema } from "./anomalies";
import type { Runtime } from "./context";
import { HttpError, sendJson, validationError } from "./errors";
import { faultRulesSchema } from "./faults";
import { readBody } from "./input";

const revokeSchema = z.strictObject({ key: z.string().min(1) });
const oddSchema = z.strictObject({ enabled: z.boolean() });

export function resetRuntime(runtime: Runtime): void {
  runtime.state.reset();
  runtime.odd = runtime.oddAtStart;
  runtime.faults.reset();
  runtime.anomalies.reset();
  for (const id of Object.keys(runtime.counts) as Array<keyof Runtime["counts"]>) runtime.counts[id] = 0;
  runtime.keyUses.length = 0;
}

const ENDPOINTS: Record<string, string> = { state: "GET", faults: "PUT", odd: "PUT", revoke: "POST", reset: "POST", anomalies: "PUT" };

async function readJson(req: IncomingMessage, what: string): Promise<unknown> {
  try {
    return JSON.parse(await readBody(req));
  } catch {
    throw new HttpError(400, `the request body is not valid JSON: send ${what}`);
  }
}

export async function handleControl(
  req: IncomingMessage,
  res: ServerResponse,
  runtime: Runtime,
  segments: readonly string[],
): Promise<void> {
  const name = segments.length === 2 ? (segments[1] as string) : "";
  const method = Object.hasOwn(ENDPOINTS, name) ? ENDPOINTS[name] : undefined;
  if (!method) throw new HttpError(404, `there is no control endpoint /${segments.join("/")}`);
  if (req.method !== method) throw new HttpError(405, `use ${method} on /__control/${name}`, { headers: { allow: method } });
  switch (name) {
    case "state":
      sendJson(res, 200, {
        ...runtime.state.snapshot(runtime.odd),
        requestCounts: { ...runtime.counts },
        keyUses: [...runtime.keyUses],
        faults: runtime.faults.list(),
        anomalies: runtime.anomalies.list(),
        odd: runtime.odd,
      });
      return;
    case "odd": {
      const parsed = oddSchema.safeParse(await readJson(req, '{ "enabled": true }'));
      if (!parsed.success) throw validationError("body", parsed.error);
      runtime.odd = parsed.data.enabled;
      sendJson(res, 200, { ok: true, odd: runtime.odd });
      return;
    }
    case "revoke": {
      const parsed = revokeSchema.safeParse(await readJson(req, '{ "key": "<API key>" }'));
      if (!parsed.success) throw validationError("body", parsed.error);
      runtime.state.revokedKeys.add(parsed.data.key);
      sendJson(res, 200, { ok: true });
      return;
    }
    case "faults": {
      const parsed = faultRulesSchema.safeParse(await readJson(req, "an array of fault rules"));
      if (!parsed.success) throw validationError("body", parsed.error);
      runtime.faults.setRules(parsed.data);
      sendJson(res, 200, { ok: true, faults: runtime.faults.list() });
      return;
    }
    case "anomalies": {
      const parsed = anomalyRulesSchema.safeParse(await readJson(req, "an array of anomaly rules"));
      if (!parsed.success) throw validationError("body", parsed.error);
      runtime.anomalies.setRules(parsed.data);
      sendJson(res, 200, { ok: true, anomalies: runtime.anomalies.list() });
      return;
    }
    default:
      resetRuntime(runtime);
      sendJson(res, 200, { ok: true });
  }
}
