/** A table's header row: one column heading per name, each with `className`. */
export function ColumnHeadings({ headings, className = "py-2 pr-4" }: { headings: readonly string[]; className?: string }) {
  return (
    <tr>
      {headings.map((heading) => (
        <th key={heading} scope="col" className={className}>
          {heading}
        </th>
      ))}
    </tr>
  );
}
