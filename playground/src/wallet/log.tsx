import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useMemo,
  useRef,
  useState,
} from 'react'
import type { LogEntry } from '../components/EventLog.js'

/** How many entries the log keeps. */
const limit = 200

type Log = {
  entries: readonly LogEntry[]
  /** Adds an entry in front. */
  record(
    source: string,
    event: string,
    summary?: string | undefined,
    detail?: unknown,
  ): void
  clear(): void
}

const LogContext = createContext<Log | undefined>(undefined)

/**
 * The wallet side's event log (connection, provider events, login steps,
 * what was signed and sent), kept for the page's lifetime: it outlives a
 * disconnect, so that what led to one can be read.
 */
export function WalletLogProvider(props: { children: ReactNode }) {
  const [entries, setEntries] = useState<readonly LogEntry[]>([])
  const nextId = useRef(1)
  const record = useCallback(
    (source: string, event: string, summary?: string, detail?: unknown) => {
      const entry: LogEntry = {
        id: nextId.current++,
        at: new Date(),
        source,
        event,
        summary,
        detail,
      }
      setEntries((current) => [entry, ...current].slice(0, limit))
    },
    [],
  )
  const clear = useCallback(() => setEntries([]), [])
  const log = useMemo(
    () => ({ entries, record, clear }),
    [entries, record, clear],
  )
  return <LogContext.Provider value={log}>{props.children}</LogContext.Provider>
}

/** The wallet log of {@link WalletLogProvider}. */
export function useWalletLog(): Log {
  const log = useContext(LogContext)
  if (!log) throw new Error('WalletLogProvider is missing.')
  return log
}
