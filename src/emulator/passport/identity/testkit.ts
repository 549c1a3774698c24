/**
 * Test helpers for the identity service, the one test double of the game
 * wallet's identity provider (and of the OpenID provider a dApp registers
 * for the iframe wallet's OIDC login): the real service on a free port
 * behind a tap (src/emulator/testkit.ts) that records every request and
 * answer and lets a test script what the service never answers (a 503, a
 * malformed body, a dropped connection); tokens of the test's own claims
 * signed with the issuer's key; a cookie-keeping "browser" made of fetch
 * calls that follows no redirects, HTML form reading and PKCE values. Used
 * by the tests; not part of the emulator's runtime.
 */
import { createHash, randomBytes } from 'node:crypto'
import { decodeJwt, importJWK, type JWK, type JWTPayload, SignJWT } from 'jose'
import {
  defaultAudience,
  defaultScope,
  paths,
} from '../../../passport/wire/identity.js'
import * as Mailbox from '../../dev/mailbox.js'
import { findFreePort } from '../../net.js'
import { createRegistry } from '../../registry/index.js'
import { type Exchange, formOf, jsonOf, startTap } from '../../testkit.js'
import { loginCodeKind } from './login.js'
import { createIdentityService, newSigningKey } from './service.js'

/** A loopback redirect URI on another port than the registered one. */
export const redirectUri = 'http://127.0.0.1:63315/passport/redirect'

/**
 * The issuer's key and a stranger's (a key outside its JWKS), made once per
 * test process: RSA keys are slow to make.
 */
let testKeys: Promise<{ own: JWK; stranger: JWK }> | undefined
const keys = () =>
  (testKeys ??= Promise.all([newSigningKey(), newSigningKey()]).then(
    ([own, stranger]) => ({ own, stranger }),
  ))

/** A token request as the service saw it: its grant and how it ended. */
export type TokenRequest = {
  method: string
  path: string
  /** The form's `grant_type`. */
  grantType: string | undefined
  /** The OAuth `error` it was answered with; absent when it succeeded. */
  error?: string | undefined
}

/**
 * Starts the service on a free port, behind a tap, with a fresh registry
 * and mailbox.
 */
export async function startIdentity(
  options: Partial<createIdentityService.Options> = {},
) {
  const port = await findFreePort()
  const issuer = `http://127.0.0.1:${port}`
  const registry = createRegistry()
  const mailbox = Mailbox.create()
  const { own, stranger } = await keys()
  const service = await createIdentityService({
    issuer,
    registry,
    mailbox,
    signingKey: own,
    ...options,
  })
  const tap = await startTap({
    upstream: service.handler,
    port,
    name: 'identity',
    framable: [paths.logout, '/session/end'],
  })
  return {
    issuer,
    clientId: service.clientId,
    registry,
    mailbox,
    /** The oidc-provider instance. */
    provider: service.provider,
    /** Where the issuer's JWKS is served. */
    jwksUri: `${issuer}${paths.jwks}`,
    /**
     * The issuer's private signing key (a test key, RS256, with its
     * `kid`), for tests that sign in another process (a browser page).
     */
    signingKey: own,
    /** Every request the service received (or the tap answered), oldest first. */
    requests: tap.requests,
    /** The requests to `path`. */
    to: tap.to,
    /** Scripts the answers to the next requests matching (see the tap). */
    answer: tap.answer,
    /** Scripts the answer to every request matching, until `clear`. */
    always: tap.always,
    /** Forgets the recorded requests and the scripts. */
    clear: tap.clear,
    /** The token requests of `grantType` received from index `since` on. */
    tokenRequests(grantType: string, since = 0): TokenRequest[] {
      return tap.requests
        .slice(since)
        .filter(
          (r) =>
            r.method === 'POST' &&
            r.path === paths.token &&
            grantOf(r) === grantType,
        )
        .map(tokenRequestOf)
    },
    /**
     * Signs `claims` as the issuer signs its tokens (RS256, its `kid`; no
     * `typ`, or `at+jwt` for an access token), or under its `kid`
     * with a key outside its JWKS (`key: 'stranger'`: a forged token). No
     * claim is added.
     */
    async sign(
      claims: JWTPayload,
      options: { typ?: string; key?: 'own' | 'stranger' } = {},
    ): Promise<string> {
      const jwk = options.key === 'stranger' ? stranger : own
      return new SignJWT(claims)
        .setProtectedHeader({
          alg: 'RS256',
          kid: String(own.kid),
          ...(options.typ === undefined ? {} : { typ: options.typ }),
        })
        .sign(await importJWK(jwk, 'RS256'))
    },
    stop: () => tap.stop(),
  }
}

/** A started identity service. */
export type TestIdentity = Awaited<ReturnType<typeof startIdentity>>

function grantOf(exchange: Exchange): string | undefined {
  return formOf(exchange).grant_type
}

function tokenRequestOf(exchange: Exchange): TokenRequest {
  const answer = jsonOf(exchange.response) as { error?: unknown } | undefined
  return {
    method: exchange.method,
    path: exchange.path,
    grantType: grantOf(exchange),
    ...(typeof answer?.error === 'string' ? { error: answer.error } : {}),
  }
}

/**
 * The claims of a token with `changes` made to them (a claim set to
 * `undefined` is removed): to re-sign a real token of the service with,
 * say, another expiry.
 */
export function claimsOf(
  token: string,
  changes: Record<string, unknown> = {},
): JWTPayload {
  const claims: Record<string, unknown> = { ...decodeJwt(token), ...changes }
  for (const [name, value] of Object.entries(claims))
    if (value === undefined) delete claims[name]
  return claims
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
