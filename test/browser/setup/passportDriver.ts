import { createServer, type Server } from 'node:http'
import type { Emulator } from '../../../src/emulator/index.js'
import { isLoopbackOrigin } from '../../../src/emulator/loopback.js'
import { findFreePort } from '../../../src/emulator/net.js'
import {
  createBrowser,
  readForm,
  signIn,
} from '../../../src/emulator/passport/identity/testkit.js'

/**
 * The person at the emulated identity provider's login page, for the browser
 * tests. The test page (on `localhost`) cannot drive the login page in the
 * popup (another window on another site), and cross-site fetches carry none
 * of the provider's `SameSite=Lax` cookies, so this Node server fills the
 * page's real forms for it, with a cookie jar of its own:
 *
 * `POST /sign-in` `{ url, email, cancel? }` opens `url` (the authorization
 * request the SDK built), types `email`, reads the code from the dev mailbox
 * and types it (or presses Cancel), and answers `{ location }`: where the
 * provider then sends the browser (the redirect URI with `code` and `state`,
 * or `error`). The test navigates the real popup (or frame) there.
 *
 * CORS: loopback origins only. Test-only; not part of the emulator.
 */
export async function startPassportDriver(
  emulator: Emulator,
): Promise<{ url: string; close(): Promise<void> }> {
  const issuer = emulator.info.passport.authenticationDomain
  const port = await findFreePort()
  const server: Server = createServer(async (request, response) => {
    const origin = request.headers.origin
    const cors: Record<string, string> = isLoopbackOrigin(origin)
      ? {
          'access-control-allow-origin': origin as string,
          'access-control-allow-headers': 'content-type',
          'access-control-allow-methods': 'POST',
        }
      : {}
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, {
        ...cors,
        'content-type': 'application/json',
        'cache-control': 'no-store',
      })
      response.end(JSON.stringify(body))
    }
    if (request.method === 'OPTIONS') return answer(204, {})
    if (request.method !== 'POST' || request.url !== '/sign-in')
      return answer(404, { error: 'not found' })
    try {
      let text = ''
      for await (const chunk of request) text += chunk
      const { url, email, cancel } = JSON.parse(text) as {
        url: string
        email: string
        cancel?: boolean
      }
      if (new URL(url).origin !== new URL(issuer).origin)
        throw new Error(`Not the emulated provider: ${url}`)
      answer(200, { location: await drive({ url, email, cancel }) })
    } catch (error) {
      answer(500, { error: error instanceof Error ? error.message : error })
    }
  })

  async function drive(options: {
    url: string
    email: string
    cancel?: boolean | undefined
  }): Promise<string> {
    const browser = createBrowser(issuer)
    const start = await browser.get(options.url)
    const interaction = start.headers.get('location')
    if (start.status !== 303 || !interaction)
      throw new Error(`/authorize answered ${start.status}`)
    let resume: string
    if (options.cancel) {
      const page = await (await browser.get(interaction)).text()
      const form = readForm(page, 'login-cancel')
      const cancelled = await browser.post(form.action, form.fields)
      resume = cancelled.headers.get('location') ?? ''
    } else
      resume = await signIn(
        browser,
        interaction,
        emulator.mailbox,
        options.email,
      )
    const done = await browser.get(resume)
    const location = done.headers.get('location')
    if (!location) throw new Error(`The provider answered ${done.status}`)
    return location
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      }),
  }
}
