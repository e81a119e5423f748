/**
 * How this project launches Debian's Chromium, headless, for tests, screenshots and the page
 * benchmark: the machine's own browser (nothing is downloaded), with no background traffic.
 */
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
  ],
};
