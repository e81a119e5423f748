"use client";

import { useCallback, useState } from "react";
import type { User } from "@/shared/schemas/context";
import { Badge, Card } from "@/components/ui/card";
import { Breakable } from "@/components/ui/breakable";

function initials(name: string): string {
  return (
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      // Whole characters, so that an emoji or an accented letter is not cut in half.
      .map((part) => Array.from(part)[0]!.toUpperCase())
      .join("")
  );
}

/** The user's picture, or their initials when there is none or it fails to load. */
function Avatar({ user }: { user: User }) {
  const [failedSrc, setFailedSrc] = useState<string>();
  // An image that failed before hydration fires no error event React sees: check once mounted.
  const checkLoaded = useCallback((img: HTMLImageElement | null) => {
    if (img?.complete && img.naturalWidth === 0) setFailedSrc(img.getAttribute("src") ?? undefined);
  }, []);
  if (user.image && failedSrc !== user.image)
    return (
      // A plain img: the address is the user's own, of unknown host, and is not worth optimizing.
      // eslint-disable-next-line @next/next/no-img-element
      <img
        ref={checkLoaded}
        src={user.image}
        alt=""
        width={48}
        height={48}
        className="h-12 w-12 shrink-0 rounded-full object-cover"
        referrerPolicy="no-referrer"
        onError={() => setFailedSrc(user.image ?? undefined)}
      />
    );
  return (
    <span
      aria-hidden="true"
      data-testid="avatar-initials"
      className="flex h-12 w-12 shrink-0 items-center justify-center rounded-full bg-indigo-100 font-semibold text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200"
    >
      {initials(user.name)}
    </span>
  );
}

export function UserCard({ user }: { user: User }) {
  return (
    <Card title="Signed in as" boundary={{ name: "Your profile", resetKey: user }}>
      <div className="flex items-center gap-4">
        <Avatar user={user} />
        <div className="min-w-0">
          <p className="font-medium">
            <bdi>{user.name}</bdi>
          </p>
          <p className="flex flex-wrap items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
            <Breakable text={user.email} />
            <Badge tone={user.emailVerified ? "good" : "warn"}>{user.emailVerified ? "verified" : "not verified"}</Badge>
          </p>
        </div>
      </div>
    </Card>
  );
}
