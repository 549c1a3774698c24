/** A message in the emulator's dev mailbox, as its JSON endpoint lists it. */
export type MailboxMessage = {
  to: string
  kind: string
  code?: string | undefined
  link?: string | undefined
  at: string
}

/**
 * Reads the emulator's dev mailbox over HTTP, as a test (or a person) would.
 * Polls until a message newer than `after` (ISO time) that `match` accepts
 * arrives; the newest such message wins.
 */
export async function waitForMessage(options: {
  mailbox: string
  to: string
  match: (message: MailboxMessage) => boolean
  after?: string | undefined
  timeout?: number | undefined
}): Promise<MailboxMessage> {
  const { mailbox, to, match, after = '', timeout = 10_000 } = options
  const deadline = Date.now() + timeout
  while (Date.now() < deadline) {
    const response = await fetch(`${mailbox}?to=${encodeURIComponent(to)}`)
    const messages = (await response.json()) as MailboxMessage[]
    const message = messages.find(
      (message) => message.at > after && match(message),
    )
    if (message) return message
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`No matching message for ${to} within ${timeout} ms`)
}

/** Waits for a one-time code (of `kind`, if given) sent to `to`. */
export async function waitForCode(options: {
  mailbox: string
  to: string
  kind?: string | undefined
  after?: string | undefined
  timeout?: number | undefined
}): Promise<string> {
  const { kind, ...rest } = options
  const message = await waitForMessage({
    ...rest,
    match: (message) =>
      message.code !== undefined &&
      (kind === undefined || message.kind === kind),
  })
  return message.code as string
}

/** Waits for a link (of `kind`, e.g. `'magic-link'`) sent to `to`. */
export async function waitForLink(options: {
  mailbox: string
  to: string
  kind: string
  after?: string | undefined
  timeout?: number | undefined
}): Promise<string> {
  const { kind, ...rest } = options
  const message = await waitForMessage({
    ...rest,
    match: (message) => message.link !== undefined && message.kind === kind,
  })
  return message.link as string
}
