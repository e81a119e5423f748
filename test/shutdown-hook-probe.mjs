// Preloaded into scripts/server.mjs by its tests (`node --import`): registers shutdown hooks as
// soon as the server publishes its state, as app code does through server/runtime/lifecycle.ts.
const key = Symbol.for("dashboard.server");
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

Object.defineProperty(globalThis, key, {
  configurable: true,
  set(state) {
    Object.defineProperty(globalThis, key, { value: state, writable: true, configurable: true });
    state.shutdownHooks.push(
      async () => {
        await sleep(100);
        console.info("hook 1 done");
      },
      () => new Promise(() => {}),
      async () => {
        throw new Error("hook 3 broke");
      },
      async () => console.info("hook 4 done"),
    );
  },
});
