import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

/** A real SMTP server on a free local port that keeps every message it accepts, parsed. */
export interface MailSink {
  url: string;
  messages: ParsedMail[];
  /** Holds each accepted message this long before answering (a slow server: its sender can be killed mid-send). */
  hold(ms: number): void;
  /** While on, takes each message's data and never answers it (a server gone silent after DATA): its outcome is unknown to the sender. */
  silence(on: boolean): void;
  /** Resolves once `count` messages in all have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ParsedMail[]>;
  close(): Promise<void>;
}

/** `reject`: recipients the server refuses (550), as a real server refuses an unknown mailbox. */
export async function startMailSink(options: { reject?: string[] } = {}): Promise<MailSink> {
  const messages: ParsedMail[] = [];
  let holdMs = 0;
  let silent = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (options.reject?.includes(address.address)) {
        callback(Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 }));
      } else callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((message) => {
          messages.push(message);
          if (!silent) setTimeout(callback, holdMs);
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    hold: (ms) => void (holdMs = ms),
    silence: (on) => void (silent = on),
    async waitFor(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > deadline) throw new Error(`${messages.length} of ${count} messages arrived`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return messages;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
