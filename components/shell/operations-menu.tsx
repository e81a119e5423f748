"use client";

import Link from "next/link";
import { useEffect, useId, useRef, useState } from "react";

/** The operator's pages, grouped under one disclosure so the header leads with the store's pages. */
const OPERATIONS_LINKS: readonly { group?: string; href: string; label: string }[] = [
  { href: "/activity", label: "Activity" },
  { group: "Deliveries", href: "/runs", label: "Runs" },
  { group: "Deliveries", href: "/outbox", label: "Outbox" },
  { href: "/sign-ins", label: "Sign-ins" },
];

const linkClass =
  "block rounded px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-100 focus-visible:bg-slate-100 aria-[current=page]:font-semibold aria-[current=page]:text-indigo-700 dark:text-slate-200 dark:hover:bg-slate-800 dark:focus-visible:bg-slate-800 dark:aria-[current=page]:text-indigo-300";

/**
 * "More": a button that shows and hides a list of links (the disclosure pattern). Escape and
 * a click elsewhere close it; Escape gives the focus back to the button.
 */
export function OperationsMenu({ pathname }: { pathname: string }) {
  // Open on the page where it was opened: moving to another page closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const setOpen = (next: boolean | ((was: boolean) => boolean)) =>
    setOpenOn((was) => ((typeof next === "function" ? next(was === pathname) : next) ? pathname : null));
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const current = OPERATIONS_LINKS.some((link) => link.href === pathname);

  useEffect(() => {
    if (!open) return;
    function onPointer(event: PointerEvent) {
      if (!root.current?.contains(event.target as Node)) setOpenOn(null);
    }
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, [open]);

  const single = OPERATIONS_LINKS.filter((link) => !link.group);
  const grouped = OPERATIONS_LINKS.filter((link) => link.group);
  const item = (link: (typeof OPERATIONS_LINKS)[number]) => (
    <li key={link.href}>
      <Link href={link.href} aria-current={pathname === link.href ? "page" : undefined} className={linkClass}>
        {link.label}
      </Link>
    </li>
  );

  return (
    <div
      ref={root}
      className="relative"
      onKeyDown={(event) => {
        if (event.key === "Escape" && open) {
          setOpen(false);
          button.current?.focus();
        }
      }}
      onBlur={(event) => {
        if (open && !root.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((was) => !was)}
        className={`inline-flex items-center gap-1 text-sm font-medium hover:text-slate-900 dark:hover:text-white ${
          current ? "text-indigo-700 dark:text-indigo-300" : "text-slate-600 dark:text-slate-300"
        }`}
      >
        More
        <span aria-hidden="true" className={`text-xs transition-transform ${open ? "rotate-180" : ""}`}>
          ▾
        </span>
      </button>
      <div
        id={panelId}
        hidden={!open}
        className="absolute right-0 z-20 mt-2 w-56 max-w-[calc(100vw-2rem)] rounded-lg border border-slate-200 bg-white p-2 shadow-lg dark:border-slate-700 dark:bg-slate-900"
      >
        <ul>{single.slice(0, 1).map(item)}</ul>
        <p
          className="mt-2 px-3 text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400"
          id={`${panelId}-deliveries`}
        >
          Deliveries
        </p>
        <ul aria-labelledby={`${panelId}-deliveries`}>{grouped.map(item)}</ul>
        <ul className="mt-2 border-t border-slate-200 pt-2 dark:border-slate-700">{single.slice(1).map(item)}</ul>
      </div>
    </div>
  );
}

/** Without scripts the menu cannot open: the same pages then show as plain links in the header. */
export function OperationsLinksWithoutScript() {
  return (
    <noscript>
      {OPERATIONS_LINKS.map((link) => (
        <a key={link.href} href={link.href} className="mr-4 text-sm font-medium text-slate-600 dark:text-slate-300">
          {link.label}
        </a>
      ))}
    </noscript>
  );
}
