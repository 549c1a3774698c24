import { useState } from 'react'
import { toJson } from '../ui/format.js'

/** One line of an event log. */
export type LogEntry = {
  /** Unique within the log, for React's keys. */
  id: number
  at: Date
  /** Who emitted it: `wagmi`, `provider`, `login`, `passport (silent)`, … */
  source: string
  /** The event's own name, e.g. `accountsChanged`. */
  event: string
  /** What it means, in a few words. */
  summary?: string | undefined
  /** The event's data, shown as JSON on demand. */
  detail?: unknown
}

/**
 * The newest events first, one line each (time, source, event, summary);
 * an entry with data shows it as JSON when asked. A button clears the log.
 */
export function EventLog(props: {
  entries: readonly LogEntry[]
  onClear: () => void
  /** A heading, when the log is part of a larger panel. */
  title?: string | undefined
  /** The list's `data-testid`. @default 'event-log' */
  testId?: string | undefined
}) {
  const { entries, onClear, title, testId = 'event-log' } = props
  return (
    <div className="event-log">
      <div className="event-log-head">
        {title && <h3>{title}</h3>}
        <button
          type="button"
          onClick={onClear}
          disabled={entries.length === 0}
          data-testid={`${testId}-clear`}
        >
          Clear
        </button>
      </div>
      {entries.length === 0 ? (
        <p className="muted" data-testid={`${testId}-empty`}>
          No events yet.
        </p>
      ) : (
        <ol data-testid={testId}>
          {entries.map((entry) => (
            <LogLine key={entry.id} entry={entry} />
          ))}
        </ol>
      )}
    </div>
  )
}

function LogLine(props: { entry: LogEntry }) {
  const { entry } = props
  const [open, setOpen] = useState(false)
  const hasDetail = entry.detail !== undefined
  return (
    <li>
      <time dateTime={entry.at.toISOString()}>
        {entry.at.toLocaleTimeString()}
      </time>{' '}
      <span className="event-source">{entry.source}</span>{' '}
      <strong data-testid="event-name">{entry.event}</strong>
      {entry.summary && (
        <span className="event-summary"> — {entry.summary}</span>
      )}
      {hasDetail && (
        <>
          {' '}
          <button
            type="button"
            className="link"
            aria-expanded={open}
            onClick={() => setOpen(!open)}
            data-testid="event-json-toggle"
          >
            {open ? 'hide JSON' : 'JSON'}
          </button>
          {/* Rendered only when open, so that the line's text is its summary. */}
          {open && <pre data-testid="event-json">{toJson(entry.detail)}</pre>}
        </>
      )}
    </li>
  )
}
