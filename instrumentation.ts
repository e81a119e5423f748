/** Checks the settings and opens the database once at start-up, so a misconfigured server stops with a clear message. */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startOrExit } = await import("@/lib/server/startup");
    await startOrExit();
  }
}
