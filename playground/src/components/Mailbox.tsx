import { useEffect, useState } from 'react'

type Message = {
  to: string
  kind: string
  code?: string
  link?: string
  at: string
}

/** The dev mailbox for one address, refreshed every two seconds. */
export function Mailbox(props: {
  mailbox: string
  to: string
  /** Prefix of the `data-testid`s. @default 'playground' */
  testIdPrefix?: string | undefined
}) {
  const { mailbox, to, testIdPrefix = 'playground' } = props
  const [messages, setMessages] = useState<readonly Message[]>([])

  useEffect(() => {
    let stopped = false
    const load = async () => {
      try {
        const response = await fetch(`${mailbox}?to=${encodeURIComponent(to)}`)
        if (!stopped) setMessages((await response.json()) as Message[])
      } catch {
        // The emulator may be restarting; the next tick tries again.
      }
    }
    load()
    const timer = setInterval(load, 2_000)
    return () => {
      stopped = true
      clearInterval(timer)
    }
  }, [mailbox, to])

  return (
    <div className="mailbox">
      <h3>
        Mailbox for {to} (
        <a
          href={`${mailbox}/view?to=${encodeURIComponent(to)}`}
          data-testid={`${testIdPrefix}-mailbox-page`}
        >
          open the mailbox page
        </a>
        )
      </h3>
      {messages.length === 0 ? (
        <p className="muted">Nothing yet.</p>
      ) : (
        <ul data-testid={`${testIdPrefix}-mailbox`}>
          {messages.slice(0, 5).map((message) => (
            <li key={`${message.at}-${message.kind}`}>
              <time>{new Date(message.at).toLocaleTimeString()}</time>{' '}
              {message.kind}{' '}
              {message.code && (
                <code data-testid={`${testIdPrefix}-mailbox-code`}>
                  {message.code}
                </code>
              )}
              {message.link && (
                <a
                  href={message.link}
                  data-testid={`${testIdPrefix}-mailbox-link`}
                >
                  open the link
                </a>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
