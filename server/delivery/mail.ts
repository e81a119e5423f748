import "server-only";
import { escapeText } from "@/server/email/document";
import nodemailer, { type Transporter } from "nodemailer";
import { settings } from "@/server/config/settings";
import { database } from "@/server/db/database";
import { processSingleton } from "@/server/runtime/singleton";
import { beginDelivery, finishDelivery, type Delivery } from "./ledger";

/** Sends one e-mail once, by SMTP (SMTP_URL) or into the in-app Outbox, through the ledger so a retried key never sends twice. */
interface MailMessage {
  /** What, which slot, which recipient: "digest:<schedule>:<slot>:<address>". */
  key: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Extra headers (List-Unsubscribe). */
  headers?: Record<string, string>;
  organizationId?: string;
  /** The store the message is about: who reaches it sees the message on the Runs and Outbox pages. */
  storeUrl: string;
  jobId?: string;
  /** With jobId: the worker that must still hold the job's lease when the message is claimed, else nothing is sent. */
  workerId?: string;
  /** Once aborted, no message is begun; one handed to SMTP is not cut off (SMTP_TIMEOUT_MS bounds it). */
  signal?: AbortSignal;
}

/** Where links in e-mails point: APP_ORIGIN, else this server's own address. */
export function publicOrigin(): string {
  const { appOrigin, server } = settings();
  return appOrigin ?? `http://localhost:${server.port}`;
}

/** Text as it may stand in an e-mail's HTML: escaped by React, as every e-mail's components are. */
export const escapeHtml = escapeText;

/** A header's value on one line: a line break inside would start a header of its own. */
const oneLine = (value: string) => value.replace(/[\r\n\u2028\u2029]+/g, " ");

/** An attempt in flight longer than this belonged to a process that died. */
const SEND_TIMEOUT_MS = 30_000;

/** Each wait on the server (connection, greeting, each answer) within SMTP_TIMEOUT_MS, which a stop's grace holds. */
function transporter(url: string, timeoutMs: number): Transporter {
  return processSingleton(`smtp:${url}:${timeoutMs}`, () =>
    nodemailer.createTransport({ url, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs } as Parameters<
      typeof nodemailer.createTransport
    >[0]),
  );
}

/** SMTP commands after which the message may have been accepted even though no answer came back. */
const AFTER_DATA = new Set(["DATA", "API", undefined]);

/** Refused by the server (an SMTP reply) or never connected: not sent. Cut off after the message was handed over: unknown. */
function classify(error: unknown): { outcome: "not_sent" | "unknown"; detail: string } {
  const failure = error as { responseCode?: number; command?: string; code?: string; message?: string; timeoutType?: string };
  const detail = (failure.message ?? String(error)).slice(0, 300);
  if (typeof failure.responseCode === "number") return { outcome: "not_sent", detail };
  // A server silent after the greeting times out as a socket timeout named "CONN", whichever answer it
  // withheld: it may be the one after the message's data, so the outcome is unknown, never re-sent.
  if (failure.timeoutType === "SOCKET_TIMEOUT") return { outcome: "unknown", detail };
  if (failure.command === "CONN" || failure.code === "ECONNECTION" || failure.code === "EDNS") return { outcome: "not_sent", detail };
  if (!AFTER_DATA.has(failure.command)) return { outcome: "not_sent", detail };
  return { outcome: "unknown", detail };
}

export async function deliverMail(unsafe: MailMessage): Promise<Delivery> {
  unsafe.signal?.throwIfAborted();
  const message = {
    ...unsafe,
    subject: oneLine(unsafe.subject),
    headers: Object.fromEntries(Object.entries(unsafe.headers ?? {}).map(([name, value]) => [name, oneLine(value)])),
  };
  const db = await database();
  const { smtpUrl, from, timeoutMs } = settings().mail;
  const { begun, delivery } = await beginDelivery(
    db,
    {
      key: message.key,
      recipient: message.to,
      subject: message.subject,
      html: message.html,
      textBody: message.text,
      headers: message.headers ?? {},
      channel: smtpUrl ? "smtp" : "outbox",
      organizationId: message.organizationId,
      storeUrl: message.storeUrl,
      jobId: message.jobId,
      leaseHolder: message.workerId,
    },
    SEND_TIMEOUT_MS,
  );
  if (!begun) return delivery;
  if (!smtpUrl) return finishDelivery(db, message.key, { outcome: "sent", detail: "In the Outbox (no SMTP_URL is set)." });
  try {
    const info = (await transporter(smtpUrl, timeoutMs).sendMail({
      from,
      to: message.to,
      subject: message.subject,
      html: message.html,
      text: message.text,
      headers: message.headers,
    })) as { messageId?: string; response?: string };
    return finishDelivery(db, message.key, { outcome: "sent", messageId: info.messageId, detail: info.response?.slice(0, 300) });
  } catch (error) {
    return finishDelivery(db, message.key, classify(error));
  }
}
