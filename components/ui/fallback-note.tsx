/**
 * What the page says next to dates or amounts when the store's time zone or currency had to
 * be read another way (see `interpretTimeZone` and `interpretCurrency`); nothing otherwise.
 */
export function FallbackNote({ text, className = "" }: { text?: string; className?: string }) {
  if (!text) return null;
  return (
    <p role="note" data-testid="fallback-note" className={`text-xs text-amber-900 dark:text-amber-200 ${className}`}>
      {text}
    </p>
  );
}
