import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { predictContracts } from '../chain/deploy.js'
import { createGuardian } from '../guardian.js'
import * as Inspect from '../inspect.js'
import { findFreePort } from '../net.js'
import { createRegistry } from '../registry/index.js'
import type { Context } from '../service.js'
import { registerShared } from '../sources.js'
import * as Mailbox from './mailbox.js'
import { service } from './service.js'
import { tokenHeader } from './ui.js'

const wallet = '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf'

describe('the emulator UI, served', () => {
  const inspect = Inspect.create()
  const mailbox = Mailbox.create({
    onChange: () => inspect.changed(Inspect.sources.mailbox),
  })
  const guardian = createGuardian({
    onChange: () => inspect.changed(Inspect.sources.verdicts),
  })
  registerShared(inspect, { registry: createRegistry(), mailbox, guardian })
  let url: string
  let origin: string
  let stop: () => Promise<void>

  beforeAll(async () => {
    const port = await findFreePort()
    const started = await service.start({
      listen: { host: '127.0.0.1', port, name: 'dev' },
      mailbox,
      inspect,
      // No node: the chain view only tries it while a page watches.
      chains: [
        {
          chainId: 31337,
          rpcUrl: 'http://127.0.0.1:1',
          nodeUrl: 'http://127.0.0.1:1',
          contracts: predictContracts(),
        },
      ],
    } as unknown as Context)
    ;({ url, stop } = started)
    origin = url
  })
  afterAll(() => stop())

  const pending = () =>
    guardian.record({
      kind: 'erc191',
      chainId: 31337,
      wallet,
      digest: `0x${'11'.repeat(32)}`,
      payload: 'Sign in',
      state: 'pending',
    })

  /** The page's token, as its HTML carries it. */
  const pageToken = async () => {
    const html = await (await fetch(`${url}/ui`)).text()
    return /name="emulator-ui-token" content="([0-9a-f]{64})"/.exec(html)?.[1]
  }

  const act = (body: unknown, headers: Record<string, string>) =>
    fetch(`${url}/ui/actions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    })

  test('behavior: the page allows only its own nonced script and style, and no site may frame or cache it', async () => {
    const response = await fetch(`${url}/ui`)
    expect(response.status).toBe(200)
    const policy = response.headers.get('content-security-policy') ?? ''
    const nonce = /script-src 'nonce-([^']+)'/.exec(policy)?.[1]
    expect(policy).toBe(
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    )
    expect(response.headers.get('x-frame-options')).toBe('DENY')
    expect(response.headers.get('cache-control')).toBe('no-store')
    const html = await response.text()
    expect(html).toContain(
      `<script type="module" nonce="${nonce}" src="/ui/app.js"></script>`,
    )
  })

  test('error: a page on another site cannot load the UI, its script, its events or act', async () => {
    for (const path of ['/ui', '/ui/app.js', '/ui/events']) {
      const response = await fetch(`${url}${path}`, {
        headers: { origin: 'https://evil.example' },
      })
      expect(response.status).toBe(403)
      expect(await response.json()).toEqual({
        error: 'Only pages on a loopback origin may use this route.',
      })
    }
  })

  test('behavior: the events stream sends every source at once, then each change, without polling', async () => {
    const controller = new AbortController()
    const response = await fetch(`${url}/ui/events`, {
      signal: controller.signal,
    })
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const reader = response.body!.getReader()
    const decoder = new TextDecoder()
    let text = ''
    /** Events read and not yet looked at, oldest first. */
    const queue: { name: string; data: unknown }[] = []
    /** Takes events until one names `name` with data matching `match`. */
    const until = async (name: string, match: (data: unknown) => boolean) => {
      for (;;) {
        for (let event = queue.shift(); event; event = queue.shift())
          if (event.name === name && match(event.data)) return event.data
        const { value, done } = await reader.read()
        if (done) throw new Error(`The stream ended before ${name}.`)
        text += decoder.decode(value, { stream: true })
        const events = text.split('\n\n')
        text = events.pop() ?? ''
        for (const event of events) {
          const line = event.split('\n').find((l) => l.startsWith('data: '))
          if (line && event.includes('event: source'))
            queue.push(JSON.parse(line.slice(6)))
        }
      }
    }
    try {
      expect(await until('mailbox', () => true)).toEqual(mailbox.list())
      await until('verdicts', () => true)
      mailbox.deliver({ to: 'ada@example.com', kind: 'email-otp', code: '4' })
      const messages = (await until('mailbox', (data) =>
        (data as unknown[]).some(
          (m) => (m as Mailbox.Message).to === 'ada@example.com',
        ),
      )) as Mailbox.Message[]
      expect(messages[0]).toMatchObject({ to: 'ada@example.com', code: '4' })
      const verdict = pending()
      const verdicts = (await until('verdicts', (data) =>
        (data as { id: string }[]).some((v) => v.id === verdict.id),
      )) as { id: string; state: string }[]
      expect(verdicts[0]).toMatchObject({ id: verdict.id, state: 'pending' })
    } finally {
      controller.abort()
    }
  })

  test("error: an action without the page's origin or token is refused and settles nothing", async () => {
    const verdict = pending()
    const token = (await pageToken())!
    const input = {
      source: 'verdicts',
      action: 'settle',
      input: { id: verdict.id, decision: 'approve' },
    }
    for (const headers of [
      // A program (no Origin): it has the emulator's other control routes.
      { [tokenHeader]: token },
      // The dApp's page, on another loopback port.
      { origin: 'http://localhost:5173', [tokenHeader]: token },
      // The page's origin without its token.
      { origin },
      { origin, [tokenHeader]: '0'.repeat(64) },
      // A cross-site request that names the origin.
      { origin, [tokenHeader]: token, 'sec-fetch-site': 'cross-site' },
    ]) {
      const response = await act(input, headers)
      expect(response.status).toBe(403)
      expect(await response.json()).toEqual({
        error: "Only the emulator's UI page may act.",
      })
    }
    expect(guardian.get(verdict.id)?.state).toBe('pending')
  })

  test("behavior: the page's own action settles a waiting verdict through the guardian, once", async () => {
    const verdict = pending()
    const headers = { origin, [tokenHeader]: (await pageToken())! }
    const input = {
      source: 'verdicts',
      action: 'settle',
      input: { id: verdict.id, decision: 'approve' },
    }
    const response = await act(input, headers)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ id: verdict.id, state: 'allowed' })
    expect(guardian.get(verdict.id)?.state).toBe('allowed')
    expect(
      guardian.isAllowed({ chainId: 31337, wallet, digest: verdict.digest }),
    ).toBe(true)

    const again = await act(
      { ...input, input: { id: verdict.id, decision: 'reject' } },
      headers,
    )
    expect(again.status).toBe(409)
    expect(await again.json()).toEqual({
      error: 'The verdict is already allowed.',
    })

    const rejected = pending()
    const reject = await act(
      { ...input, input: { id: rejected.id, decision: 'reject' } },
      headers,
    )
    expect(await reject.json()).toEqual({ id: rejected.id, state: 'rejected' })
  })

  test('error: an unknown source, action or verdict, or bad input, is answered with why', async () => {
    const headers = { origin, [tokenHeader]: (await pageToken())! }
    const cases: [unknown, number, string][] = [
      [
        { source: 'nothing', action: 'end', input: {} },
        404,
        'There is no action end on nothing.',
      ],
      [
        { source: 'verdicts', action: 'toString', input: {} },
        404,
        'There is no action toString on verdicts.',
      ],
      [
        { source: 'verdicts', action: 'settle', input: { id: 'x' } },
        400,
        'decision must be a string of 1 to 200 characters.',
      ],
      [
        {
          source: 'verdicts',
          action: 'settle',
          input: { id: 'x', decision: 'maybe' },
        },
        400,
        'decision must be "approve" or "reject".',
      ],
      [
        {
          source: 'verdicts',
          action: 'settle',
          input: { id: 'x', decision: 'approve' },
        },
        404,
        'No such verdict.',
      ],
      [[1, 2], 400, 'Send { source, action, input }.'],
    ]
    for (const [body, status, error] of cases) {
      const response = await act(body, headers)
      expect({ status: response.status, body: await response.json() }).toEqual({
        status,
        body: { error },
      })
    }
  })
})
