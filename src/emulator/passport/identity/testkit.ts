/**
 * Test helpers for the identity service: a running service on a free port,
 * a cookie-keeping "browser" made of fetch calls that follows no redirects,
 * HTML form reading and PKCE values. Used by the tests; not part of the
 * emulator's runtime.
 */
import { createHash, randomBytes } from 'node:crypto'
import {
  defaultAudience,
  defaultScope,
  paths,
} from '../../../passport/wire/identity.js'
import * as Mailbox from '../../dev/mailbox.js'
import { findFreePort } from '../../net.js'
import { createRegistry } from '../../registry/index.js'
import { startServer } from '../../server.js'
import { loginCodeKind } from './login.js'
import { createIdentityService } from './service.js'

/** A loopback redirect URI on another port than the registered one. */
export const redirectUri = 'http://127.0.0.1:63315/passport/redirect'

/** Starts the service on a free port with a fresh registry and mailbox. */
export async function startIdentity(
  options: Partial<createIdentityService.Options> = {},
) {
  const port = await findFreePort()
  const issuer = `http://127.0.0.1:${port}`
  const registry = createRegistry()
  const mailbox = Mailbox.create()
  const service = await createIdentityService({
    issuer,
    registry,
    mailbox,
    ...options,
  })
  const server = await startServer({ handler: service.handler, port })
  return {
    issuer,
    clientId: service.clientId,
    registry,
    mailbox,
    stop: () => server.stop(),
  }
}

/** A cookie jar over fetch; redirects are returned, not followed. */
export function createBrowser(origin: string) {
  const cookies = new Map<string, { value: string; path: string }>()
  const store = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((s) => s.trim())
      const name = pair.slice(0, pair.indexOf('='))
      const value = pair.slice(pair.indexOf('=') + 1)
      const path =
        attributes.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ??
        '/'
      const gone = attributes.some(
        (a) =>
          a.toLowerCase() === 'max-age=0' ||
          a.toLowerCase().startsWith('expires=thu, 01 jan 1970'),
      )
      if (gone) cookies.delete(`${name};${path}`)
      else cookies.set(`${name};${path}`, { value, path })
    }
  }
  const request = async (url: string, init: RequestInit = {}) => {
    const target = new URL(url, origin)
    const header = [...cookies.entries()]
      .filter(([, c]) => target.pathname.startsWith(c.path))
      .map(([key, c]) => `${key.slice(0, key.indexOf(';'))}=${c.value}`)
      .join('; ')
    const response = await fetch(target, {
      ...init,
      redirect: 'manual',
      headers: { ...(header ? { cookie: header } : {}), ...init.headers },
    })
    store(response)
    return response
  }
  return {
    get: (url: string) => request(url),
    post: (url: string, form: Record<string, string>) =>
      request(url, { method: 'POST', body: new URLSearchParams(form) }),
  }
}

/** A fetch-driven browser. */
export type Browser = ReturnType<typeof createBrowser>

/** The first form of `html` (or the one holding `testId`): action and fields. */
export function readForm(html: string, testId?: string) {
  const forms = html.match(/<form[\s\S]*?<\/form>/g) ?? []
  const form =
    forms.find((f) => testId === undefined || f.includes(`"${testId}"`)) ?? ''
  const decode = (s: string) =>
    s.replaceAll('&amp;', '&').replaceAll('&quot;', '"')
  const action = decode(/action="([^"]*)"/.exec(form)?.[1] ?? '')
  const fields: Record<string, string> = {}
  for (const [, name = '', value = ''] of form.matchAll(
    /<input type="hidden" name="([^"]*)" value="([^"]*)"\s*\/?>/g,
  ))
    fields[name] = decode(value)
  return { action, fields }
}

/** The text of the element with `data-testid="testId"`, tags stripped. */
export function textOf(html: string, testId: string): string | undefined {
  const match = new RegExp(
    `<(\\w+)[^>]*data-testid="${testId}"[^>]*>([\\s\\S]*?)</\\1>`,
  ).exec(html)
  return match?.[2]?.replace(/<[^>]+>/g, '')
}

/** A PKCE verifier (32 random bytes) and its S256 challenge. */
export function pkce() {
  const verifier = randomBytes(32).toString('base64url')
  const challenge = createHash('sha256').update(verifier).digest('base64url')
  return { verifier, challenge }
}

/** The newest sign-in code the mailbox holds for `email`. */
export function codeFor(mailbox: Mailbox.Store, email: string): string {
  const message = mailbox
    .list({ to: email })
    .find((m) => m.kind === loginCodeKind)
  if (message?.code === undefined) throw new Error(`No code for ${email}.`)
  return message.code
}

/**
 * Signs in on the login page the provider sent the browser to, by its
 * forms: email, then the code from the mailbox.
 *
 * @returns The provider's redirect after the sign-in (its `location`).
 */
export async function signIn(
  browser: Browser,
  interactionUrl: string,
  mailbox: Mailbox.Store,
  email: string,
): Promise<string> {
  const emailPage = await (await browser.get(interactionUrl)).text()
  const emailForm = readForm(emailPage, 'login-email')
  const codePage = await browser.post(emailForm.action, { email })
  const codeForm = readForm(await codePage.text(), 'login-code')
  const signedIn = await browser.post(codeForm.action, {
    ...codeForm.fields,
    code: codeFor(mailbox, email),
  })
  if (signedIn.status !== 303) throw new Error(`Sign-in: ${signedIn.status}`)
  return signedIn.headers.get('location') ?? ''
}

/** POSTs a form to the token endpoint and reads the JSON answer. */
export async function tokenRequest(
  issuer: string,
  form: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${issuer}${paths.token}`, {
    method: 'POST',
    body: new URLSearchParams(form),
  })
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
  }
}

/** The tokens of a signed-in player, as the SDK holds them. */
export type Tokens = {
  accessToken: string
  idToken: string
  refreshToken: string
  /** The player's id (the registry user id). */
  sub: string
}

/**
 * Signs `email` in as the published SDK does (authorization code + PKCE,
 * its scope and the `platform_api` audience, the code from the mailbox) and
 * exchanges the code for tokens.
 */
export async function tokensFor(
  identity: { issuer: string; clientId: string; mailbox: Mailbox.Store },
  email: string,
): Promise<Tokens> {
  const browser = createBrowser(identity.issuer)
  const { verifier, challenge } = pkce()
  const authorize = new URL(paths.authorize, identity.issuer)
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: identity.clientId,
    redirect_uri: redirectUri,
    scope: defaultScope,
    audience: defaultAudience,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString()
  const start = await browser.get(authorize.href)
  if (start.status !== 303) throw new Error(`Authorize: ${start.status}`)
  const resume = await signIn(
    browser,
    start.headers.get('location') ?? '',
    identity.mailbox,
    email,
  )
  const back = await browser.get(resume)
  const code = new URL(back.headers.get('location') ?? '').searchParams.get(
    'code',
  )
  if (code === null) throw new Error(`No code (${back.status}).`)
  const { status, body } = await tokenRequest(identity.issuer, {
    grant_type: 'authorization_code',
    client_id: identity.clientId,
    code,
    code_verifier: verifier,
    redirect_uri: redirectUri,
  })
  if (status !== 200) throw new Error(`Token: ${status} ${body.error}`)
  const idToken = String(body.id_token)
  const sub = JSON.parse(
    Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString(),
  ).sub as string
  return {
    accessToken: String(body.access_token),
    idToken,
    refreshToken: String(body.refresh_token),
    sub,
  }
}
