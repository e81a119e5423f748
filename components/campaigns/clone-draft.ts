"use client";

import { useEffect, useState } from "react";
import type { CloneCampaignRequest, CloneFormValues } from "@/shared/schemas/campaign-clone";

/**
 * The clone form as the user left it in this tab (its fields, and the request under review),
 * kept in sessionStorage so that a reload on the form or on the review step keeps every field.
 * Nothing secret is in it: the key stays on the server.
 */
interface CloneDraft {
  values: CloneFormValues;
  nameEdited: boolean;
  /** Set while the request is under review. */
  review?: CloneCampaignRequest;
}

const storageKey = (storeUrl: string) => `clone-draft:${storeUrl}`;

function readDraft(storeUrl: string): CloneDraft | undefined {
  try {
    const raw = window.sessionStorage.getItem(storageKey(storeUrl));
    return raw ? (JSON.parse(raw) as CloneDraft) : undefined;
  } catch {
    return undefined;
  }
}

/** The tab's draft for the store, or `initial()`; every change is written back; `clear` forgets it. */
export function useCloneDraft(storeUrl: string, initial: () => CloneDraft) {
  const [draft, setDraft] = useState<CloneDraft>(() => readDraft(storeUrl) ?? initial());
  useEffect(() => {
    try {
      window.sessionStorage.setItem(storageKey(storeUrl), JSON.stringify(draft));
    } catch {
      // Storage full or refused: the draft then lives as long as the page.
    }
  }, [storeUrl, draft]);
  const clear = () => {
    try {
      window.sessionStorage.removeItem(storageKey(storeUrl));
    } catch {
      // Nothing kept.
    }
    setDraft(initial());
  };
  return { draft, setDraft, clear };
}
