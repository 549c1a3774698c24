import {
  afterAll,
  beforeAll,
  describe,
  expect,
  onTestFinished,
  test,
  vi,
} from 'vitest'
import * as Mailbox from '../../dev/mailbox.js'
import { findFreePort } from '../../net.js'
import { createRegistry } from '../../registry/index.js'
import { type Running, startServer } from '../../server.js'
import { createIdentityService } from './service.js'
import { textOf } from './testkit.js'

let server: Running
let identity: Awaited<ReturnType<typeof createIdentityService>>
let stderr: ReturnType<typeof vi.spyOn>
const serverErrors = vi.fn()
beforeAll(async () => {
  stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
  const port = await findFreePort()
  identity = await createIdentityService({
    issuer: `http://127.0.0.1:${port}`,
    registry: createRegistry(),
    mailbox: Mailbox.create(),
  })
  // A failure oidc-provider's error handler answers 500 (server_error): a
  // logout URI check that throws.
  const client = identity.provider.Client.prototype
  const allowed = client.postLogoutRedirectUriAllowed
  client.postLogoutRedirectUriAllowed = function (value) {
    if (value.includes('server-error')) throw new TypeError('a bug')
    return allowed.call(this, value)
  }
  identity.provider.on('server_error', serverErrors)
  server = await startServer({ handler: identity.handler, port })
})
afterAll(async () => {
  await server?.stop()
  stderr.mockRestore()
})

const invalid = {
  error: 'invalid_request',
  error_description: 'the request could not be handled',
}

describe('the identity service, failing', () => {
  test('error: an exception past the routes answers 400 invalid_request, JSON or a page as asked, and is logged', async () => {
    // An exception outside the provider's error handlers: in the emulator's
    // middleware that reads the session of a posted device form.
    const { Session } = identity.provider
    const get = Session.get
    Session.get = async () => {
      throw new TypeError('thrown in a middleware')
    }
    onTestFinished(() => {
      Session.get = get
    })
    const json = await fetch(`${server.url}/device`, { method: 'POST' })
    expect(json.status).toBe(400)
    expect(await json.json()).toEqual(invalid)
    const page = await fetch(`${server.url}/device`, {
      method: 'POST',
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    })
    expect(page.status).toBe(400)
    const html = await page.text()
    expect(textOf(html, 'error-code')).toBe('invalid_request')
    expect(textOf(html, 'error-description')).toBe(
      'the request could not be handled',
    )
    expect(stderr).toHaveBeenCalledWith(
      expect.stringMatching(
        /^\[emulator\] identity: a request failed: TypeError: thrown in a middleware/,
      ),
    )
  })

  test('error: what oidc-provider would answer 500 (server_error) answers 400 invalid_request', async () => {
    const url = new URL('/session/end', server.url)
    url.search = new URLSearchParams({
      client_id: 'emulator-passport-client',
      post_logout_redirect_uri: 'http://127.0.0.1:5173/server-error',
    }).toString()
    const response = await fetch(url, { redirect: 'manual' })
    expect(serverErrors).toHaveBeenCalledTimes(1)
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual(invalid)
    expect(stderr).toHaveBeenCalledWith(
      expect.stringMatching(/a request failed: TypeError: a bug/),
    )
    const served = await fetch(`${server.url}/.well-known/openid-configuration`)
    expect(served.status).toBe(200)
  })

  test('error: a path no route serves answers JSON 404, also for a page', async () => {
    for (const [method, path] of [
      ['GET', '/nope'],
      ['POST', '/.well-known/openid-configuration'],
      ['DELETE', '/oauth/token'],
      ['GET', '/interaction/uid/nope'],
    ] as const) {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { accept: 'text/html' },
      })
      expect(response.status).toBe(404)
      expect(await response.json()).toEqual({
        error: `No route ${method} ${path}.`,
      })
    }
  })
})
