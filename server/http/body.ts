import "server-only";
import { DashboardError } from "./responses";

/** Reads a body as UTF-8, counting bytes as they arrive: past `maxBytes` it stops with a 413, never holding a large body whole. */
async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  const tooLarge = () => new DashboardError(413, "payload_too_large", `The request body is larger than ${Math.round(maxBytes / 1024)} KB.`);
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let read: ReadableStreamReadResult<Uint8Array>;
    try {
      read = await reader.read();
    } catch {
      // The client went away (or its connection was cut for being slow) mid-body: an answer, not a crash.
      throw new DashboardError(400, "bad_request", "The request body was cut off before its end.");
    }
    const { done, value } = read;
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new DashboardError(400, "bad_request", "The request body is not valid UTF-8.");
  }
}

/** How deep a JSON body may nest: no body of the dashboard's needs more than a few levels. */
const MAX_BODY_DEPTH = 64;

/** Whether JSON text nests deeper than MAX_BODY_DEPTH, judged in one pass before parsing (a deep walk would overflow the stack). */
function nestsTooDeep(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > MAX_BODY_DEPTH) return true;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return false;
}

/** The body as JSON, or as a form (application/x-www-form-urlencoded) when `form` allows it. */
export async function readBody(
  request: Request,
  maxBytes: number,
  options: { form?: boolean } = {},
): Promise<{ value: unknown; form: boolean }> {
  const text = await readBodyText(request, maxBytes);
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (options.form && type === "application/x-www-form-urlencoded") {
    return { value: Object.fromEntries(new URLSearchParams(text)), form: true };
  }
  if (nestsTooDeep(text))
    throw new DashboardError(400, "bad_request", `The request body nests deeper than ${MAX_BODY_DEPTH} levels of arrays and objects.`);
  try {
    return { value: JSON.parse(text), form: false };
  } catch {
    throw new DashboardError(400, "bad_request", "The request body is not valid JSON.");
  }
}
