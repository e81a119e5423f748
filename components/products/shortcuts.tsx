"use client";

import { useEffect, useRef } from "react";
import { typing } from "@/components/shell/shortcuts-help";

/** The product page's keyboard shortcuts; none fires while typing in a field. Their list is the header's "?" (shell/shortcuts-help.tsx). */
export function Shortcuts({ onStep, onToggleCompare }: { onStep: (direction: -1 | 1) => void; onToggleCompare: () => void }) {
  const handlers = useRef({ onStep, onToggleCompare });
  useEffect(() => {
    handlers.current = { onStep, onToggleCompare };
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || typing(event)) return;
      const act = {
        ArrowLeft: () => handlers.current.onStep(-1),
        ArrowRight: () => handlers.current.onStep(1),
        x: () => handlers.current.onToggleCompare(),
        "/": () => document.getElementById("product-search")?.focus(),
      }[event.key];
      if (!act) return;
      event.preventDefault();
      act();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  return null;
}
