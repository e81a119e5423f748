/** Dashboard processes (the current release, as `npm run start:prod` runs it) sharing one PostgreSQL database, and requests to them as a browser sends them. */
import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { expect } from "vitest";
import { describeDemo } from "@/demo-upstream/describe";
import { startDemoUpstream, type DemoUpstream } from "@/demo-upstream/server";
import { US_STORE } from "./harness";
import { copyOfTemplate } from "./pglite-template";
import { ensureBuild, freePort, portIsFree, runNode, SERVE, type RunningScript } from "./processes";

const [account] = describeDemo().adAccounts.filter((candidate) => candidate.storeUrl === US_STORE);
const sourceGroup = account!.campaignGroups[1]!;
const CLONE_PATH = `/api/v1/platform/${US_STORE}/actions/clone-linkedin-campaign`;

function cloneBody(name = "Spring copy"): string {
  return JSON.stringify({
    adAccountId: account!.id,
    payload: { sourceCampaignGroupId: sourceGroup.id, name, status: "PAUSED", budget: 50 },
  });
}

/** One dashboard process on a fixed port, so that it can be stopped and started again at the same address. */
export class Dashboard {
  script?: RunningScript;
  private constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
    private readonly cwd?: string,
  ) {}

  /** Not started yet: `start` it. `cwd`: the checkout whose current release it serves (by default this one). */
  static async create(env: Record<string, string>, cwd?: string): Promise<Dashboard> {
    return new Dashboard(await freePort(), env, cwd);
  }

  get running(): boolean {
    return this.script !== undefined && this.script.child.exitCode === null && this.script.child.signalCode === null;
  }

  get origin(): string {
    return `http://localhost:${this.port}`;
  }

  async start(): Promise<void> {
    // After a kill the kernel may take a moment to release the port.
    for (const deadline = Date.now() + 5_000; !(await portIsFree(this.port)) && Date.now() < deadline;)
      await new Promise((resolve) => setTimeout(resolve, 50));
    this.script = runNode(SERVE, { ...this.env, PORT: String(this.port) }, { cwd: this.cwd });
    await this.script.waitFor(/Listening on/);
  }

  /** SIGTERM; resolves with the exit code once the process has exited. */
  async stop(): Promise<number | null> {
    this.script!.child.kill("SIGTERM");
    return this.script!.exited;
  }

  /** kill -9, and what it started. */
  kill(): Promise<void> {
    return this.script?.kill() ?? Promise.resolve();
  }

  /** A request as the dashboard's pages send it: same-origin, with the session cookie and, for actions, an Idempotency-Key. */
  request(
    path: string,
    init: {
      method?: string;
      cookie?: string;
      body?: string;
      idempotencyKey?: string;
      client?: string;
      headers?: Record<string, string>;
    } = {},
  ) {
    const headers: Record<string, string> = { origin: this.origin, ...init.headers };
    if (init.cookie) headers.cookie = init.cookie;
    if (init.body) headers["content-type"] = "application/json";
    if (init.idempotencyKey) headers["idempotency-key"] = init.idempotencyKey;
    if (init.client) headers["x-forwarded-for"] = init.client;
    return fetch(`${this.origin}${path}`, { method: init.method ?? "GET", headers, body: init.body });
  }

  signIn(apiKey: string, client = "198.51.100.1"): Promise<Response> {
    return this.request("/api/session", { method: "POST", body: JSON.stringify({ apiKey }), client });
  }

  /** Signs in and returns the session cookie (`name=value`). */
  async cookieFor(apiKey: string, client?: string): Promise<string> {
    const response = await this.signIn(apiKey, client);
    if (response.status !== 200) throw new Error(`sign-in answered ${response.status}: ${await response.text()}`);
    return response.headers.get("set-cookie")!.split(";")[0]!;
  }

  /** A daily 06:00 digest of a new saved view of the US store's first two weeks of 2026, made as the session's pages make it: its id. */
  async dailyDigest(cookie: string, name: string, recipients: string[]): Promise<string> {
    const view = await this.request(`/api/stores/${US_STORE}/saved-views`, {
      method: "POST",
      cookie,
      body: JSON.stringify({ name, search: "range=custom&from=2026-01-01&to=2026-01-14" }),
    });
    const { id: savedViewId } = (await view.json()) as { id: string };
    const digest = await this.request(`/api/stores/${US_STORE}/digests`, {
      method: "POST",
      cookie,
      body: JSON.stringify({ savedViewId, cadence: "daily", localTime: "06:00", recipients }),
    });
    expect(digest.status).toBe(201);
    return ((await digest.json()) as { id: string }).id;
  }

  clone(cookie: string, idempotencyKey: string = randomUUID(), body = cloneBody()): Promise<Response> {
    return this.request(CLONE_PATH, { method: "POST", cookie, body, idempotencyKey });
  }
}

/** A started dashboard process of the current build, on an embedded database of its own, reading a demo upstream with its control API. */
export interface EmbeddedDashboard {
  upstream: DemoUpstream;
  dashboard: Dashboard;
  /** The embedded database's data directory (a copy of the migrated template). */
  dataDir: string;
  /** Kills the process, closes the upstream and removes the data directory. */
  close(): Promise<void>;
}

/** Builds if the sources changed, then starts the upstream and the dashboard with `env` besides their addresses; on a failed start, all is closed again. */
export async function startEmbeddedDashboard(env: Record<string, string>): Promise<EmbeddedDashboard> {
  ensureBuild();
  const upstream = await startDemoUpstream({ port: 0, control: true });
  let dataDir: string | undefined;
  let dashboard: Dashboard | undefined;
  const close = async () => {
    await dashboard?.kill();
    await upstream.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    dataDir = copyOfTemplate();
    dashboard = await Dashboard.create({ UPSTREAM_BASE_URL: upstream.baseUrl, EMBEDDED_DATABASE: "1", DATA_DIR: dataDir, ...env });
    await dashboard.start();
    return { upstream, dashboard, dataDir, close };
  } catch (error) {
    await close();
    throw error;
  }
}

export interface ErrorBody {
  code: string;
  requestId: string;
  details?: { auditId?: string };
}
