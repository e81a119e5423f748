"use client";

import { useEffect, useSyncExternalStore } from "react";
import { usePathname } from "next/navigation";

const LAST_STORE_KEY = "dashboard.lastStore";

/** The store a pathname names ("/stores/<url>/…"), decoded; undefined elsewhere. */
function storeOfPath(pathname: string): string | undefined {
  const match = /^\/stores\/([^/]+)/.exec(pathname);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return undefined;
  }
}

function subscribe(onChange: () => void) {
  window.addEventListener("storage", onChange);
  return () => window.removeEventListener("storage", onChange);
}

function readLastStore(): string | null {
  try {
    return window.localStorage.getItem(LAST_STORE_KEY);
  } catch {
    return null;
  }
}

/**
 * The store the header's store pages point to: the one on screen, else the last one visited
 * (when still within the session's reach), else the session's first store.
 */
export function useCurrentStore(reach: readonly string[]): string | undefined {
  const onScreen = storeOfPath(usePathname());
  const last = useSyncExternalStore(subscribe, readLastStore, () => null);
  useEffect(() => {
    if (!onScreen) return;
    try {
      window.localStorage.setItem(LAST_STORE_KEY, onScreen);
    } catch {
      // Private modes may refuse storage: the header then falls back to the first store.
    }
  }, [onScreen]);
  if (onScreen) return onScreen;
  if (last && reach.includes(last)) return last;
  return reach[0];
}
