import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { freePort } from "@/test/processes";
import { startMailSink, type MailSink } from "@/test/mail-sink";
import { database } from "@/server/db/database";
import { inReach } from "@/server/db/reach";
import { LeaseLost } from "./ledger";
import { deliverMail as deliver } from "./mail";

/** Sends in the reach of the message's store, as a job of that store does. */
const deliverMail = (message: Parameters<typeof deliver>[0]) => inReach([message.storeUrl], () => deliver(message));

let sink: MailSink;
beforeAll(async () => (sink = await startMailSink({ reject: ["nobody@example.com"] })));
afterAll(() => sink.close());
afterEach(() => vi.unstubAllEnvs());

const mail = (key: string, to: string) => ({
  key,
  to,
  subject: "Hello",
  html: "<p>Hello</p>",
  text: "Hello",
  organizationId: "org_mail",
  storeUrl: "shop.example",
});

describe("deliverMail", () => {
  it("sends by SMTP once per key: the same key again sends nothing", async () => {
    vi.stubEnv("SMTP_URL", sink.url);
    expect(await deliverMail(mail("mail:once", "ada@example.com"))).toMatchObject({ outcome: "sent", channel: "smtp" });
    expect(await deliverMail(mail("mail:once", "ada@example.com"))).toMatchObject({ outcome: "sent" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sink.messages.filter((message) => message.subject === "Hello").length).toBe(1);
  });

  it("records 'not sent' when the server refuses the recipient or cannot be reached", async () => {
    vi.stubEnv("SMTP_URL", sink.url);
    const refused = await deliverMail(mail("mail:refused", "nobody@example.com"));
    expect(refused).toMatchObject({ outcome: "not_sent", detail: expect.stringContaining("550") });
    vi.stubEnv("SMTP_URL", `smtp://127.0.0.1:${await freePort()}`);
    expect(await deliverMail(mail("mail:unreachable", "ada@example.com"))).toMatchObject({ outcome: "not_sent" });
  });

  it("records 'unknown' when the server takes the message and never answers: it is not sent again", async () => {
    vi.stubEnv("SMTP_URL", sink.url);
    vi.stubEnv("SMTP_TIMEOUT_MS", "500");
    sink.silence(true);
    try {
      const before = sink.messages.length;
      const silent = await deliverMail(mail("mail:silent", "ada@example.com"));
      expect(silent).toMatchObject({ outcome: "unknown" });
      expect(sink.messages.length).toBe(before + 1);
      expect(await deliverMail(mail("mail:silent", "ada@example.com"))).toMatchObject({ outcome: "unknown" });
      expect(sink.messages.length).toBe(before + 1);
    } finally {
      sink.silence(false);
    }
  });

  it("keeps the subject and every header on one line, whatever text reaches them", async () => {
    vi.stubEnv("SMTP_URL", sink.url);
    const sent = await deliverMail({
      ...mail("mail:lines", "ada@example.com"),
      subject: "Revenue fell\r\nBcc: everyone@example.com",
      headers: { "X-Note": "one\ntwo" },
    });
    expect(sent).toMatchObject({ outcome: "sent", subject: "Revenue fell Bcc: everyone@example.com" });
    await vi.waitFor(() => expect(sink.messages.some((candidate) => candidate.subject?.startsWith("Revenue fell"))).toBe(true));
    const message = sink.messages.find((candidate) => candidate.subject?.startsWith("Revenue fell"));
    expect(message!.subject).toBe("Revenue fell Bcc: everyone@example.com");
    expect(message!.headerLines.some((line) => line.key === "bcc")).toBe(false);
    expect(message!.headerLines.find((line) => line.key === "x-note")?.line).toBe("X-Note: one two");
  });

  it("sends nothing for a job whose lease another worker holds now, and records nothing under the key", async () => {
    vi.stubEnv("SMTP_URL", sink.url);
    const db = await database();
    const lease = (holder: string) =>
      db
        .query<{ id: string }>(
          "insert into jobs (name, state, locked_by, lease_until) values ('test.lease', 'running', $1, now() + interval '1 minute') returning id::text as id",
          [holder],
        )
        .then((rows) => rows[0]!.id);
    const taken = await lease("another-worker");
    await expect(deliverMail({ ...mail("mail:lease-lost", "ada@example.com"), jobId: taken, workerId: "this-worker" })).rejects.toThrow(
      LeaseLost,
    );
    expect(await inReach(["shop.example"], () => db.query("select 1 from deliveries where key = 'mail:lease-lost'"))).toEqual([]);
    const held = await lease("this-worker");
    expect(await deliverMail({ ...mail("mail:lease-held", "ada@example.com"), jobId: held, workerId: "this-worker" })).toMatchObject({
      outcome: "sent",
    });
  });

  it("keeps every message in the Outbox when no SMTP server is set", async () => {
    expect(await deliverMail(mail("mail:outbox", "ada@example.com"))).toMatchObject({
      outcome: "sent",
      channel: "outbox",
      html: "<p>Hello</p>",
    });
  });
});
