/** One line of the live event log. */
export type LogEntry = {
  /** Unique within the log, for React's keys. */
  id: number
  at: Date
  source: string
  event: string
  detail?: unknown
}

/** The newest events first, each with its time and source. */
export function EventLog(props: {
  entries: readonly LogEntry[]
  /** The list's `data-testid`. @default 'event-log' */
  testId?: string | undefined
}) {
  return (
    <div className="event-log">
      <h3>Events</h3>
      {props.entries.length === 0 ? (
        <p className="muted">No events yet.</p>
      ) : (
        <ol data-testid={props.testId ?? 'event-log'}>
          {props.entries.map((entry) => (
            <li key={entry.id}>
              <time>{entry.at.toLocaleTimeString()}</time>{' '}
              <strong>{entry.source}</strong> {entry.event}
              {entry.detail !== undefined && (
                <code> {JSON.stringify(entry.detail)}</code>
              )}
            </li>
          ))}
        </ol>
      )}
    </div>
  )
}
