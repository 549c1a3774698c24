import { useEffect, useState } from 'react'
import { formatDateTime } from '../ui/format.js'

/** One message of the dev mailbox (its JSON endpoint's shape). */
type Message = {
  to: string
  kind: string
  code?: string
  link?: string
  at: string
}

/** How many messages the panel lists. */
const shown = 6

/**
 * The dev mailbox: the codes and links the emulated services would email,
 * newest first, refreshed every two seconds; all addresses, or one. Links
 * open in a new tab, so that this page (and a login waiting for its code)
 * stays where it is.
 */
export function Mailbox(props: { mailbox: string }) {
  const { mailbox } = props
  const [filter, setFilter] = useState('')
  const [messages, setMessages] = useState<readonly Message[]>([])
  const [unreachable, setUnreachable] = useState(false)
  const to = filter.trim()
  const query = to === '' ? '' : `?to=${encodeURIComponent(to)}`

  useEffect(() => {
    let stopped = false
    const load = async () => {
      try {
        const response = await fetch(`${mailbox}${query}`)
        const body: unknown = await response.json()
        if (stopped) return
        setMessages(Array.isArray(body) ? (body as Message[]) : [])
        setUnreachable(false)
      } catch {
        // The emulator may be restarting; the next tick tries again.
        if (!stopped) setUnreachable(true)
      }
    }
    void load()
    const timer = setInterval(load, 2_000)
    return () => {
      stopped = true
      clearInterval(timer)
    }
  }, [mailbox, query])

  return (
    <div className="mailbox">
      <div className="row">
        <label htmlFor="mailbox-filter">Only messages to</label>
        <input
          id="mailbox-filter"
          type="email"
          placeholder="any address"
          value={filter}
          data-testid="mailbox-filter"
          onChange={(event) => setFilter(event.target.value)}
        />
      </div>
      {unreachable && (
        <p className="error" data-testid="mailbox-unreachable">
          The dev mailbox does not answer: is the emulator running?
        </p>
      )}
      {messages.length === 0 ? (
        <p className="muted">Nothing yet.</p>
      ) : (
        <ul className="messages" data-testid="mailbox">
          {messages.slice(0, shown).map((message) => (
            <li
              key={`${message.at}-${message.to}-${message.kind}`}
              data-testid="mailbox-message"
            >
              <time dateTime={message.at}>
                {formatDateTime(new Date(message.at))}
              </time>{' '}
              to <strong>{message.to}</strong>{' '}
              <span className="muted">{message.kind}</span>{' '}
              {message.code && (
                <code className="user-code" data-testid="mailbox-code">
                  {message.code}
                </code>
              )}
              {message.link && (
                <a
                  href={message.link}
                  target="_blank"
                  rel="noreferrer"
                  data-testid="mailbox-link"
                >
                  open the link ↗
                </a>
              )}
            </li>
          ))}
        </ul>
      )}
      <p>
        <a
          href={`${mailbox}/view${query}`}
          target="_blank"
          rel="noreferrer"
          data-testid="mailbox-page"
        >
          Open the whole mailbox in a new tab ↗
        </a>
      </p>
    </div>
  )
}

/**
 * The newest code the dev mailbox holds for one address, polled every
 * second: shown beside a code form, so that a visitor signing in reads it
 * without leaving the form. Labelled as the dev mailbox's: a real wallet
 * would email it.
 */
export function LatestCode(props: { mailbox: string; to: string }) {
  const { mailbox, to } = props
  const [code, setCode] = useState<string>()
  useEffect(() => {
    let stopped = false
    const load = async () => {
      try {
        const response = await fetch(`${mailbox}?to=${encodeURIComponent(to)}`)
        const body: unknown = await response.json()
        const latest = Array.isArray(body)
          ? (body as Message[]).find((message) => message.code)
          : undefined
        if (!stopped) setCode(latest?.code)
      } catch {
        // The emulator may be restarting; the next tick tries again.
      }
    }
    void load()
    const timer = setInterval(load, 1_000)
    return () => {
      stopped = true
      clearInterval(timer)
    }
  }, [mailbox, to])
  return (
    <p className="hint" data-testid="latest-code">
      Dev mailbox:{' '}
      {code ? (
        <>
          the newest code for {to} is{' '}
          <code className="user-code" data-testid="latest-code-value">
            {code}
          </code>
        </>
      ) : (
        `no code for ${to} yet…`
      )}
    </p>
  )
}
