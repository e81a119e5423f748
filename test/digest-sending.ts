import { vi } from "vitest";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { registerAllJobs } from "@/server/jobs/catalog";
import { startBackgroundWork, stopBackgroundWork } from "@/server/jobs/worker";
import { startMailSink, type MailSink } from "./mail-sink";

/** What a digest needs to go out for real: the demo upstream (with its control API), a mail sink, and the job worker. */
export interface DigestSending {
  upstream: DemoUpstream;
  sink: MailSink;
  /** Stops the worker, restores the environment, and closes the sink and the upstream. */
  stop(): Promise<void>;
}

/** Starts them, with the dashboard pointed at the upstream and the sink, and `settings` besides. */
export async function startDigestSending(settings: Record<string, string>): Promise<DigestSending> {
  const upstream = await startDemoUpstream({ port: 0, control: true });
  const sink = await startMailSink();
  const env = { UPSTREAM_BASE_URL: upstream.baseUrl, SMTP_URL: sink.url, ...settings };
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  registerAllJobs();
  startBackgroundWork({ pollMs: 50 });
  return {
    upstream,
    sink,
    stop: async () => {
      await stopBackgroundWork();
      vi.unstubAllEnvs();
      await sink.close();
      await upstream.close();
    },
  };
}
