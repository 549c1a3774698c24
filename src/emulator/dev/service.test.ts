import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { predictContracts } from '../chain/deploy.js'
import * as Inspect from '../inspect.js'
import { findFreePort } from '../net.js'
import type { Context } from '../service.js'
import * as Mailbox from './mailbox.js'
import { createDevApp, service } from './service.js'

/** A clock that ticks one second per call from 2026-01-01T00:00:00Z. */
function clock() {
  let seconds = 0
  return () => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds++))
}

function setup() {
  const mailbox = Mailbox.create({ now: clock() })
  return { mailbox, app: createDevApp({ mailbox }) }
}

describe('GET /health', () => {
  test('default: ok', async () => {
    const { app } = setup()
    const response = await app.request('/health')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ ok: true })
  })
})

describe('GET /mailbox', () => {
  test('default: an empty mailbox is []', async () => {
    const { app } = setup()
    const response = await app.request('/mailbox')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(await response.text()).toBe('[]')
  })

  test('default: every message, newest first, absent fields omitted', async () => {
    const { app, mailbox } = setup()
    mailbox.deliver({
      to: 'ada@example.com',
      kind: 'email-otp',
      code: '111111',
    })
    mailbox.deliver({
      to: '+1 555 010 0000',
      kind: 'magic-link',
      link: 'http://127.0.0.1:4401/confirm?token=abc',
    })
    const response = await app.request('/mailbox')
    expect(await response.text()).toBe(
      JSON.stringify([
        {
          to: '+15550100000',
          kind: 'magic-link',
          link: 'http://127.0.0.1:4401/confirm?token=abc',
          at: '2026-01-01T00:00:01.000Z',
        },
        {
          to: 'ada@example.com',
          kind: 'email-otp',
          code: '111111',
          at: '2026-01-01T00:00:00.000Z',
        },
      ]),
    )
  })

  test('param: to filters by a normalised email', async () => {
    const { app, mailbox } = setup()
    mailbox.deliver({ to: 'ada@example.com', kind: 'email-otp', code: '1' })
    mailbox.deliver({ to: 'bob@example.com', kind: 'email-otp', code: '2' })
    mailbox.deliver({ to: 'Ada@Example.com', kind: 'email-otp', code: '3' })
    const response = await app.request(
      `/mailbox?to=${encodeURIComponent(' ADA@example.COM ')}`,
    )
    expect(await response.json()).toEqual([
      {
        to: 'ada@example.com',
        kind: 'email-otp',
        code: '3',
        at: '2026-01-01T00:00:02.000Z',
      },
      {
        to: 'ada@example.com',
        kind: 'email-otp',
        code: '1',
        at: '2026-01-01T00:00:00.000Z',
      },
    ])
  })

  test('param: to keeps a literal + of a phone number', async () => {
    const { app, mailbox } = setup()
    mailbox.deliver({ to: '+1 (555) 010-0000', kind: 'sms-otp', code: '9' })
    const expected = [
      {
        to: '+15550100000',
        kind: 'sms-otp',
        code: '9',
        at: '2026-01-01T00:00:00.000Z',
      },
    ]
    for (const query of [
      '+15550100000',
      '%2B1%20(555)%20010-0000',
      '+1-555-010-0000',
      // What the page's filter form sends for "+1 555 010-0000".
      '%2B1+555+010-0000',
    ])
      expect(await (await app.request(`/mailbox?to=${query}`)).json()).toEqual(
        expected,
      )
  })

  test('param: an empty to lists every message', async () => {
    const { app, mailbox } = setup()
    mailbox.deliver({ to: 'ada@example.com', kind: 'email-otp' })
    expect(await (await app.request('/mailbox?to=')).json()).toHaveLength(1)
  })

  test('error: a malformed query string', async () => {
    const { app } = setup()
    const response = await app.request('/mailbox?to=%E0%A4%A')
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: 'Malformed query string.' })
  })
})

describe('GET /mailbox/view', () => {
  test('error: a malformed query string answers JSON 400', async () => {
    const { app } = setup()
    const response = await app.request('/mailbox/view?to=%E0%A4%A')
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: 'Malformed query string.' })
  })

  test('default: an empty mailbox says so', async () => {
    const { app } = setup()
    const response = await app.request('/mailbox/view')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe(
      'text/html; charset=UTF-8',
    )
    const page = await response.text()
    expect(page).toContain('<title>Dev mailbox</title>')
    expect(page).toContain('<meta http-equiv="refresh" content="3">')
    expect(page).toContain(
      '<p class="empty" data-testid="mailbox-empty">No messages yet.</p>',
    )
  })

  test('default: a row per message, newest first, with code and link', async () => {
    const { app, mailbox } = setup()
    mailbox.deliver({
      to: 'ada@example.com',
      kind: 'email-otp',
      code: '123456',
    })
    mailbox.deliver({
      to: 'bob@example.com',
      kind: 'magic-link',
      link: 'http://127.0.0.1:4401/confirm?a=1&b=2',
    })
    const page = await (await app.request('/mailbox/view')).text()
    const rows = page.match(/<tr data-testid="mailbox-message">[\s\S]*?<\/tr>/g)
    expect(rows).toEqual([
      `<tr data-testid="mailbox-message">
<td data-testid="mailbox-message-at"><time datetime="2026-01-01T00:00:01.000Z">2026-01-01 00:00:01Z</time></td>
<td data-testid="mailbox-message-to">bob@example.com</td>
<td data-testid="mailbox-message-kind">magic-link</td>
<td data-testid="mailbox-message-code" class="code"></td>
<td data-testid="mailbox-message-link" class="link"><a href="http://127.0.0.1:4401/confirm?a=1&amp;b=2" target="_blank" rel="noopener noreferrer">http://127.0.0.1:4401/confirm?a=1&amp;b=2</a></td>
</tr>`,
      `<tr data-testid="mailbox-message">
<td data-testid="mailbox-message-at"><time datetime="2026-01-01T00:00:00.000Z">2026-01-01 00:00:00Z</time></td>
<td data-testid="mailbox-message-to">ada@example.com</td>
<td data-testid="mailbox-message-kind">email-otp</td>
<td data-testid="mailbox-message-code" class="code">123456</td>
<td data-testid="mailbox-message-link" class="link"></td>
</tr>`,
    ])
  })

  test('param: to filters the rows and fills the filter field, normalised', async () => {
    const { app, mailbox } = setup()
    mailbox.deliver({ to: 'ada@example.com', kind: 'email-otp', code: '1' })
    mailbox.deliver({ to: 'bob@example.com', kind: 'email-otp', code: '2' })
    const page = await (
      await app.request('/mailbox/view?to=Bob@Example.com')
    ).text()
    expect(page.match(/data-testid="mailbox-message-to">([^<]*)</g)).toEqual([
      'data-testid="mailbox-message-to">bob@example.com<',
    ])
    expect(page).toContain('<input name="to" value="bob@example.com"')
  })

  test('behavior: escapes every value, <script> included', async () => {
    const { app, mailbox } = setup()
    mailbox.deliver({
      to: '<script>alert(1)</script>@example.com',
      kind: '<script>alert(2)</script>',
      code: '"><script>alert(3)</script>',
      link: 'http://example.com/"><script>alert(4)</script>',
    })
    const page = await (
      await app.request(
        `/mailbox/view?to=${encodeURIComponent('"><script>alert(5)</script>@x')}`,
      )
    ).text()
    expect(page).not.toContain('<script')
    expect(page).toContain(
      '<input name="to" value="&quot;&gt;&lt;script&gt;alert(5)&lt;/script&gt;@x"',
    )
    const all = await (await app.request('/mailbox/view')).text()
    expect(all).not.toContain('<script')
    expect(all).toContain(
      '<td data-testid="mailbox-message-kind">&lt;script&gt;alert(2)&lt;/script&gt;</td>',
    )
    expect(all).toContain(
      '<td data-testid="mailbox-message-code" class="code">&quot;&gt;&lt;script&gt;alert(3)&lt;/script&gt;</td>',
    )
    expect(all).toContain(
      '<a href="http://example.com/&quot;&gt;&lt;script&gt;alert(4)&lt;/script&gt;"',
    )
  })

  test('behavior: only http(s) links are clickable', async () => {
    const { app, mailbox } = setup()
    mailbox.deliver({
      to: 'ada@example.com',
      kind: 'x',
      link: 'javascript:alert(1)',
    })
    const page = await (await app.request('/mailbox/view')).text()
    expect(page).toContain(
      '<td data-testid="mailbox-message-link" class="link">javascript:alert(1)</td>',
    )
    expect(page).not.toContain('href="javascript:')
  })
})

describe('the dev service, served', () => {
  const mailbox = Mailbox.create()
  let url: string
  let stop: () => Promise<void>
  beforeAll(async () => {
    const port = await findFreePort()
    const started = await service.start({
      listen: { host: '127.0.0.1', port, name: 'dev' },
      mailbox,
      inspect: Inspect.create(),
      // No node: the chain is read only while a UI page watches.
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
    expect(started.info).toEqual({
      mailbox: `${url}/mailbox`,
      ui: `${url}/ui`,
    })
    mailbox.deliver({ to: 'ada@example.com', kind: 'email-otp', code: '1' })
  })
  afterAll(() => stop())

  test('behavior: a loopback page may read the mailbox cross-origin', async () => {
    const response = await fetch(`${url}/mailbox`, {
      headers: { origin: 'http://localhost:5173' },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe(
      'http://localhost:5173',
    )
    expect(await response.json()).toHaveLength(1)
    const preflight = await fetch(`${url}/mailbox`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'GET',
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe(
      'http://localhost:5173',
    )
  })

  test('error: a page on another site cannot read it, even by a <script> or <img>', async () => {
    const foreign = await fetch(`${url}/mailbox`, {
      headers: { origin: 'https://evil.example' },
    })
    expect(foreign.status).toBe(403)
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull()
    expect(await foreign.json()).toEqual({
      error: 'Only pages on a loopback origin may use this route.',
    })
    const subresource = await rawGet(url, '/mailbox', {
      host: `127.0.0.1:${new URL(url).port}`,
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'no-cors',
    })
    expect(subresource.status).toBe(403)
  })

  test('behavior: a person may open the mailbox page from a link on any site', async () => {
    const port = new URL(url).port
    const response = await rawGet(url, '/mailbox/view', {
      host: `127.0.0.1:${port}`,
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'navigate',
    })
    expect(response.status).toBe(200)
    expect(response.body).toContain('ada@example.com')
  })

  test('error: no site may frame the mailbox page: its policy allows no ancestor, and X-Frame-Options says DENY', async () => {
    // Framed, a page could lay its own buttons over the mailbox's links
    // (a magic link logs its recipient in) and have them clicked.
    const response = await fetch(`${url}/mailbox/view`)
    expect(response.status).toBe(200)
    expect(response.headers.get('x-frame-options')).toBe('DENY')
    const policy = response.headers.get('content-security-policy') ?? ''
    expect(policy.split('; ')).toContain("frame-ancestors 'none'")
    expect(policy.split('; ')).toContain("default-src 'none'")
  })

  test('error: a Host other than its loopback address is refused (DNS rebinding)', async () => {
    const { status, body } = await rawGet(url, '/mailbox', {
      host: `rebound.example:${new URL(url).port}`,
    })
    expect(status).toBe(403)
    expect(JSON.parse(body)).toEqual({
      error: `This service answers requests addressed to 127.0.0.1:${new URL(url).port} only.`,
    })
    const local = await rawGet(url, '/mailbox', {
      host: `localhost:${new URL(url).port}`,
    })
    expect(local.status).toBe(200)
  })
})

/** A GET with exactly these headers (fetch does not let a caller set Host). */
function rawGet(
  base: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { headers }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => {
        body += chunk
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end()
  })
}
