const reasons: Record<string, string> = {
  key_expired: "it has expired",
  key_revoked: "it has been revoked",
  key_invalid: "it is not valid",
};

/** Keys of the ring the analytics service refused: named by store, told once, on the next page. */
export function RingNotices({ notices }: { notices: { storeUrls: string[]; label: string; reason: string }[] }) {
  if (notices.length === 0) return null;
  return (
    <div role="alert" className="mx-auto mt-4 max-w-7xl px-4">
      {notices.map((notice) => (
        <p
          key={notice.label}
          data-testid="ring-notice"
          className="mb-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-100"
        >
          The analytics service refused the key for {notice.storeUrls.join(", ") || notice.label} (
          {reasons[notice.reason] ?? "it was refused"}
          ), so it has left your key ring and that store is closed to this session. Your other stores stay. Add the store again with a new
          key.
        </p>
      ))}
    </div>
  );
}
