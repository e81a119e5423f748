/**
 * Releases are put in place atomically, and builds take turns: builds are killed at random
 * points (a tiny release of many files, written slowly) and two builds race for the lock.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ROOT } from "@/test/processes";
import { installRelease, pruneReleases, readRelease, releaseIsComplete, releasesDir } from "./releases.mjs";

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "dash-releases-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A program that installs release `id` of 40 files, one every few milliseconds, as a build does. */
const INSTALLER = `
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { installRelease } from ${JSON.stringify(join(ROOT, "scripts/releases.mjs"))};
const [root, id] = process.argv.slice(2);
const pause = () => new Promise((resolve) => setTimeout(resolve, 5));
await installRelease(root, id, async (staging) => {
  mkdirSync(join(staging, ".next/static"), { recursive: true });
  for (let i = 0; i < 40; i++) { writeFileSync(join(staging, ".next/static", "chunk" + i + ".js"), "x".repeat(1000)); await pause(); }
  for (const file of ["server.mjs", "rows-worker.mjs", ".next/BUILD_ID", ".next/required-server-files.json"]) { writeFileSync(join(staging, file), id); await pause(); }
  writeFileSync(join(staging, "release.json"), JSON.stringify({ buildId: id, sourceHash: id }));
});
console.log("installed");
`;

function installer(id: string) {
  const script = join(root, "install.mjs");
  writeFileSync(script, INSTALLER);
  return spawn(process.execPath, [script, root, id], { stdio: ["ignore", "pipe", "inherit"] });
}

/** What anyone reading .releases/ sees: current's release id, and whether every release folder is complete. */
function state() {
  const dir = releasesDir(root);
  const current = existsSync(join(dir, "current")) ? readRelease(realpathSync(join(dir, "current"))).buildId : null;
  const releases = readdirSync(dir).filter(
    (name) => !name.startsWith(".") && name !== "current" && lstatSync(join(dir, name)).isDirectory(),
  );
  return { current, allComplete: releases.every((name) => releaseIsComplete(join(dir, name))), releases };
}

describe("a release", () => {
  it("is either the old one or a complete new one, wherever its build is killed", async () => {
    expect(await new Promise<number | null>((resolve) => installer("aaaa").on("exit", resolve))).toBe(0);
    expect(state()).toMatchObject({ current: "aaaa", allComplete: true });
    const seen = new Set<string>();
    for (let round = 0; round < 12; round++) {
      const id = `b${round.toString(16).padStart(3, "0")}`;
      const child = installer(id);
      // Listened for at once: a build that finishes before the kill has exited by then.
      const exited = new Promise((resolve) => child.on("exit", resolve));
      // Anywhere from before its first file to after its rename.
      await new Promise((resolve) => setTimeout(resolve, 60 + Math.random() * 400));
      child.kill("SIGKILL");
      await exited;
      const now = state();
      expect(now.allComplete).toBe(true);
      expect(now.current === "aaaa" || now.current?.startsWith("b")).toBe(true);
      expect(releaseIsComplete(realpathSync(join(releasesDir(root), "current")))).toBe(true);
      seen.add(now.current === "aaaa" ? "old" : now.current === id ? "new" : "earlier");
    }
    // Killed both before and after the switch at least once in 12 rounds of 60–460 ms over a ~300 ms install.
    expect(seen.has("old") || seen.has("earlier")).toBe(true);
    // What killed builds left (staging folders) goes at the next prune; complete releases stay.
    pruneReleases(root, 100);
    expect(readdirSync(releasesDir(root)).filter((name) => name.startsWith("."))).toEqual([]);
  }, 60_000);

  it("replaces an incomplete folder of the same id, never serving it", async () => {
    mkdirSync(join(releasesDir(root), "cccc"), { recursive: true });
    writeFileSync(join(releasesDir(root), "cccc", "server.mjs"), "half");
    await installRelease(root, "cccc", (staging) => {
      for (const file of [
        "server.mjs",
        "rows-worker.mjs",
        ".next/BUILD_ID",
        ".next/required-server-files.json",
        ".next/static/a.js",
        "release.json",
      ]) {
        mkdirSync(join(staging, file, ".."), { recursive: true });
        writeFileSync(join(staging, file), file === "release.json" ? JSON.stringify({ buildId: "cccc" }) : "whole");
      }
    });
    expect(readFileSync(join(releasesDir(root), "current", "server.mjs"), "utf8")).toBe("whole");
  });
});

/** A program that holds the build lock of `root` for 300 ms, noting when it entered and left. */
const HOLDER = `
import { appendFileSync } from "node:fs";
import { withBuildLock } from ${JSON.stringify(join(ROOT, "scripts/build-lock.mjs"))};
const [root, log, lock] = process.argv.slice(2);
await withBuildLock(root, async () => {
  appendFileSync(log, "enter " + process.pid + " " + Date.now() + "\\n");
  await new Promise((resolve) => setTimeout(resolve, 300));
  appendFileSync(log, "leave " + process.pid + " " + Date.now() + "\\n");
}, { lock });
`;

describe("the build lock", () => {
  function holders(count: number, lock: string) {
    const script = join(root, "hold.mjs");
    writeFileSync(script, HOLDER);
    const log = join(root, "lock.log");
    const children = Array.from({ length: count }, () => spawn(process.execPath, [script, root, log, lock], { stdio: "inherit" }));
    return Promise.all(children.map((child) => new Promise<number | null>((resolve) => child.on("exit", resolve)))).then((codes) => ({
      codes,
      events: readFileSync(log, "utf8").trim().split("\n"),
    }));
  }

  it("lets one build in at a time: four racing builds never overlap", async () => {
    const { codes, events } = await holders(4, join(root, "build.lock"));
    expect(codes).toEqual([0, 0, 0, 0]);
    expect(events).toHaveLength(8);
    for (let i = 0; i < events.length; i += 2) {
      const [enter, leave] = [events[i]!.split(" "), events[i + 1]!.split(" ")];
      expect([enter[0], leave[0], leave[1]]).toEqual(["enter", "leave", enter[1]]);
    }
    expect(existsSync(join(root, "build.lock"))).toBe(false);
  }, 30_000);

  it("takes over a lock left by a process that died, once", async () => {
    const dead = spawnSync(process.execPath, ["-e", "process.exit(0)"]).pid!;
    writeFileSync(join(root, "build.lock"), String(dead));
    const { codes, events } = await holders(3, join(root, "build.lock"));
    expect(codes).toEqual([0, 0, 0]);
    expect(events.filter((event) => event.startsWith("enter"))).toHaveLength(3);
    for (let i = 0; i < events.length; i += 2) expect(events[i + 1]!.split(" ")[1]).toBe(events[i]!.split(" ")[1]);
  }, 30_000);
});
