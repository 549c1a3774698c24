import type { LogEntry } from '../components/EventLog.js'

/**
 * The game-wallet panel's event log, kept in `sessionStorage` so that it
 * survives the page leaving and coming back (redirect sign-in, PKCE,
 * redirect logout): the callback pages append to it, the panel reads it.
 */
const key = 'playground.passport.events'

/** How many entries are kept. */
const limit = 100

type Stored = {
  at: string
  source: string
  event: string
  summary?: string
  detail?: unknown
}

/** The stored entries, newest first. */
export function loadEvents(): LogEntry[] {
  try {
    const stored = JSON.parse(sessionStorage.getItem(key) ?? '[]') as Stored[]
    if (!Array.isArray(stored)) return []
    return stored.map((entry, index) => ({
      id: stored.length - index,
      at: new Date(entry.at),
      source: entry.source,
      event: entry.event,
      summary: entry.summary,
      ...(entry.detail === undefined ? {} : { detail: entry.detail }),
    }))
  } catch {
    return []
  }
}

/** Stores the entries (newest first), keeping the newest {@link limit}. */
function saveEvents(entries: readonly LogEntry[]): void {
  const stored: Stored[] = entries.slice(0, limit).map((entry) => ({
    at: entry.at.toISOString(),
    source: entry.source,
    event: entry.event,
    ...(entry.summary === undefined ? {} : { summary: entry.summary }),
    detail: entry.detail,
  }))
  try {
    sessionStorage.setItem(key, JSON.stringify(stored))
  } catch {
    // Storage full or disabled: the log is only a convenience.
  }
}

/**
 * Adds one entry in front of the stored log, synchronously (the page may be
 * about to leave: a redirect logout emits `loggedOut` and navigates at once).
 */
export function appendEvent(
  source: string,
  event: string,
  summary?: string | undefined,
  detail?: unknown,
): void {
  const entries = loadEvents()
  const id = (entries[0]?.id ?? 0) + 1
  saveEvents([
    { id, at: new Date(), source, event, summary, detail },
    ...entries,
  ])
}

/** Empties the stored log. */
export function clearEvents(): void {
  try {
    sessionStorage.removeItem(key)
  } catch {
    // Storage disabled: there is nothing to clear.
  }
}
