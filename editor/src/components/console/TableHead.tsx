/** A console table's column headings; `actions` adds a last column for row buttons, named for screen readers. */
export function TableHead({ columns, actions }: { columns: readonly string[]; actions?: boolean }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th key={c}>{c}</th>
        ))}
        {actions && (
          <th>
            <span className="sr-only">Actions</span>
          </th>
        )}
      </tr>
    </thead>
  );
}
