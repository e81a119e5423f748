/** A TCP relay put in front of a server (PostgreSQL), so that a test can hold or cut the traffic without stopping the server. */
import { connect, createServer, type Socket } from "node:net";

export interface TcpProxy {
  port: number;
  /** Stops forwarding (bytes wait in the relay) until `resume`; new connections are held too. */
  hold(): void;
  resume(): void;
  /** How many chunks wait in the relay while it holds. */
  heldChunks(): number;
  /** Each client connection closed, in order: when (Date.now()), and whether the server had answered anything on it. */
  closed: { at: number; answered: boolean }[];
  /** As if the server went away: every connection is destroyed and nothing listens. */
  cut(): Promise<void>;
  /** Listens again on the same port (if cut). */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let held = false;
  // Bytes held back, in the order they arrived; each knows where it goes.
  let waiting: Array<{ to: Socket; chunk: Buffer }> = [];

  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  };
  const relay = (from: Socket, to: Socket) => {
    from.on("data", (chunk: Buffer) => (held ? waiting.push({ to, chunk }) : to.write(chunk)));
    from.once("close", () => to.destroy());
  };

  const closed: { at: number; answered: boolean }[] = [];
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    let answered = false;
    upstream.once("data", () => (answered = true));
    client.once("close", () => closed.push({ at: Date.now(), answered }));
    track(client);
    track(upstream);
    relay(client, upstream);
    relay(upstream, client);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen({ port, host: "127.0.0.1" }, () => {
        server.off("error", reject);
        resolve();
      });
    });
  const stopListening = () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
  const cut = async () => {
    const closed = stopListening();
    for (const socket of sockets) socket.destroy();
    waiting = [];
    await closed;
  };

  await listen(0);
  const { port } = server.address() as { port: number };
  return {
    port,
    hold: () => void (held = true),
    resume: () => {
      held = false;
      for (const { to, chunk } of waiting.splice(0)) if (!to.destroyed) to.write(chunk);
    },
    heldChunks: () => waiting.length,
    closed,
    cut,
    restore: () => (server.listening ? Promise.resolve() : listen(port)),
    close: cut,
  };
}
