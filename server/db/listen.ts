import "server-only";
import pg from "pg";

/** The longest wait before listening again after the connection was lost. */
const MAX_RETRY_MS = 30_000;

/** LISTEN on a connection of its own (a pooled one would stop listening when released), reconnecting with backoff from 1 s to 30 s. */
export function listenOnPostgres(
  url: string,
  channel: string,
  onNotify: (payload: string) => void,
  onListening: () => void,
): () => Promise<void> {
  let client: pg.Client | undefined;
  let stopped = false;
  let retryMs = 1_000;
  let timer: NodeJS.Timeout | undefined;
  const connect = async () => {
    const current = new pg.Client({ connectionString: url, keepAlive: true, application_name: "store-analytics-dashboard jobs" });
    client = current;
    const lost = () => {
      if (client !== current) return;
      client = undefined;
      current.end().catch(() => {});
      if (stopped) return;
      timer = setTimeout(() => void connect(), retryMs);
      retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
    };
    current.on("notification", (message) => message.channel === channel && onNotify(message.payload ?? ""));
    current.on("error", lost);
    current.on("end", lost);
    try {
      await current.connect();
      await current.query(`listen ${pg.escapeIdentifier(channel)}`);
      retryMs = 1_000;
      if (client === current && !stopped) onListening();
    } catch {
      lost();
    }
  };
  void connect();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    const last = client;
    client = undefined;
    await last?.end().catch(() => {});
  };
}
