/**
 * Reads one-time codes from the emulator's dev mailbox over HTTP, as a test
 * (or a person) would. Polls until a message newer than `after` arrives.
 */
export async function waitForCode(options: {
  mailbox: string
  to: string
  kind?: string | undefined
  after?: string | undefined
  timeout?: number | undefined
}): Promise<string> {
  const { mailbox, to, kind, after = '', timeout = 10_000 } = options
  const deadline = Date.now() + timeout
  while (Date.now() < deadline) {
    const response = await fetch(`${mailbox}?to=${encodeURIComponent(to)}`)
    const messages = (await response.json()) as {
      kind: string
      code?: string
      at: string
    }[]
    const message = messages.find(
      (message) =>
        message.code !== undefined &&
        message.at > after &&
        (kind === undefined || message.kind === kind),
    )
    if (message?.code) return message.code
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`No code for ${to} in the mailbox within ${timeout} ms`)
}
