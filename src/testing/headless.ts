/**
 * Headless logins for a dApp's backend tests: the two wallets' logins run
 * over HTTP against a running emulator, as their pages run them, and give
 * back what the dApp's backend receives from its front end (the iframe
 * wallet's DID token, the game wallet's tokens). Nothing here reads the
 * emulator's memory: the codes come from its dev mailbox, like a person
 * reads them.
 *
 * @packageDocumentation
 */

import {
  createRemoteJWKSet,
  exportJWK,
  generateKeyPair,
  type JWTPayload,
  jwtVerify,
  SignJWT,
} from 'jose'
import {
  type AuthorizationServer,
  allowInsecureRequests,
  authorizationCodeGrantRequest,
  type Client,
  calculatePKCECodeChallenge,
  discoveryRequest,
  generateRandomCodeVerifier,
  generateRandomNonce,
  generateRandomState,
  None,
  processAuthorizationCodeResponse,
  processDiscoveryResponse,
  validateAuthResponse,
} from 'oauth4webapi'
import type { Address } from 'viem'
import { BaseError } from '../core/Errors.js'
import type * as Rpc from '../core/Rpc.js'
import { normalizeContact } from '../emulator/contact.js'
import type { Info, Message as MailboxMessage } from '../emulator/index.js'
import { readLines } from '../emulator/magic/provider/app/backend.js'
import { clientIdOf } from '../emulator/magic/provider/didToken.js'
import type { FlowLine } from '../emulator/magic/provider/protocol.js'
import { loginCodeKind } from '../emulator/passport/identity/login.js'
import { encodeParams } from '../magic/wire/messages.js'
import * as Methods from '../magic/wire/methods.js'
import {
  defaultAudience,
  defaultScope,
  paths,
  requestParams,
} from '../passport/wire/identity.js'

/**
 * Thrown by a headless login that does not end signed in: the provider
 * refused it (`code`: its JSON-RPC error code, or the OAuth `error`), or the
 * input is not one it takes. The message names the login and what was
 * answered.
 */
export class HeadlessLoginError extends BaseError {
  override readonly name = 'TestKit.HeadlessLoginError'
  /** The provider's JSON-RPC error code or OAuth error, when it gave one. */
  readonly code: number | string | undefined

  constructor(
    shortMessage: string,
    options: {
      code?: number | string | undefined
      cause?: Error | undefined
    } = {},
  ) {
    super(shortMessage, options.cause ? { cause: options.cause } : {})
    this.code = options.code
  }
}

/** What the kit's mailbox helpers give the logins. */
export type LoginMailbox = {
  mailbox(to: string): Promise<readonly MailboxMessage[]>
  waitForCode(
    to: string,
    options?: { timeoutMs?: number; kind?: string },
  ): Promise<string>
}

/** The iframe wallet's headless login, as `kit.magic`. */
export type MagicLogins = {
  /**
   * Logs a user in by email code (or SMS code, with `phone`) at the
   * emulated provider, exactly as its iframe does for
   * `magic.auth.loginWithEmailOTP({ email, showUI: false })`: a new device
   * key signs the DPoP proofs, the code is read from the dev mailbox, a
   * new device is approved from the mailed link when the user requires it,
   * and `mfaCode` answers the second factor when the user has one.
   *
   * @example
   * ```ts
   * import { Magic } from '@magic-sdk/admin'
   *
   * const { didToken, issuer } = await kit.magic.didToken({ email: 'ada@example.com' })
   * const admin = new Magic('sk_live_…', { endpoint: kit.info.magic.endpoint })
   * admin.token.validate(didToken)
   * admin.token.getIssuer(didToken) === issuer // true
   * ```
   *
   * @returns The DID token and the user's issuer, address and contact.
   * @throws {HeadlessLoginError} If the provider refuses the login (a bad
   *   email or phone number, too many codes, a second factor without
   *   `mfaCode`), naming its answer.
   */
  didToken(
    user: { email: string } | { phone: string },
    options?: MagicLogins.Options,
  ): Promise<MagicLogins.Result>
  /**
   * The client id of the emulator's dApp key (`info.magic.apiKey`): the
   * audience of its DID tokens, which `@magic-sdk/admin` checks when it is
   * given one (and then asks the API for nothing in `init`).
   *
   * @example
   * ```ts
   * const admin = await Magic.init('sk_live_…', {
   *   endpoint: kit.info.magic.endpoint,
   *   clientId: await kit.magic.clientId(),
   * })
   * ```
   */
  clientId(): Promise<string>
}

export declare namespace MagicLogins {
  type Options = {
    /** The token's lifespan in seconds. @default the provider's 900 */
    lifespan?: number | undefined
    /**
     * Returns a token that signs this attachment (`generateIdToken`), for a
     * backend that checks `validate(didToken, attachment)`.
     */
    attachment?: string | undefined
    /** The TOTP code (or a function making it) when the user has MFA on. */
    mfaCode?: string | (() => string | Promise<string>) | undefined
    /** The dApp's origin the iframe names (`DOMAIN_ORIGIN`). @default 'http://localhost:5173' */
    origin?: string | undefined
    /** How long to wait for each mailed code or link (ms). @default 5000 */
    timeoutMs?: number | undefined
  }
  type Result = {
    /** The DID token (base64 `[proof, claim]`), as `loginWithEmailOTP` resolves. */
    didToken: string
    /** `did:ethr:<publicAddress>`. */
    issuer: string
    publicAddress: Address
    email: string | null
    phoneNumber: string | null
  }
}

/** The game wallet's headless login, as `kit.passport`. */
export type PassportLogins = {
  /**
   * Signs a player in at the emulated identity provider as the game
   * wallet's login popup does: an authorization-code request with PKCE
   * (S256), state and nonce, the sign-in page's forms (the email, then the
   * code from the dev mailbox), and the code exchanged at the token
   * endpoint. The id token is verified against the provider's JWKS.
   *
   * @example
   * ```ts
   * import { createRemoteJWKSet, jwtVerify } from 'jose'
   *
   * const { idToken, claims } = await kit.passport.login({ email: 'ada@example.com' })
   * const jwks = createRemoteJWKSet(new URL('/.well-known/jwks.json', kit.info.passport.authenticationDomain))
   * await jwtVerify(idToken, jwks) // claims.email === 'ada@example.com'
   * ```
   *
   * @throws {HeadlessLoginError} If the sign-in page or the token endpoint
   *   refuses (a bad email, too many codes), naming what it said.
   */
  login(
    user: { email: string },
    options?: PassportLogins.Options,
  ): Promise<PassportLogins.Result>
}

export declare namespace PassportLogins {
  type Options = {
    /** The redirect URI the code comes back on. @default info.passport.redirectUri */
    redirectUri?: string | undefined
    /** The scope asked for. @default the published SDK's (`openid profile email offline_access transact`) */
    scope?: string | undefined
    /** The API the access token is for. @default 'platform_api' */
    audience?: string | undefined
    /** How long to wait for the mailed code (ms). @default 5000 */
    timeoutMs?: number | undefined
  }
  type Result = {
    idToken: string
    accessToken: string
    refreshToken: string
    /** The access token's lifetime in seconds (`expires_in`). */
    expiresIn: number
    /** The id token's claims, verified (`sub`, `email`, `iss`, `aud`, …). */
    claims: JWTPayload & { email?: string | undefined }
  }
}

/**
 * The iframe wallet's headless login over an emulator's JSON line.
 *
 * @example
 * ```ts
 * const magic = createMagicLogins(info, kit)
 * const { didToken } = await magic.didToken({ email: 'ada@example.com' })
 * ```
 */
export function createMagicLogins(info: Info, mail: LoginMailbox): MagicLogins {
  const endpoint = info.magic.endpoint
  return {
    clientId: () => clientIdOf(info.magic.apiKey),

    async didToken(user, options = {}) {
      const {
        lifespan,
        attachment,
        mfaCode,
        origin = 'http://localhost:5173',
        timeoutMs = 5000,
      } = options
      if (typeof user !== 'object' || user === null)
        throw new HeadlessLoginError(
          `kit.magic.didToken takes { email } or { phone }, not ${String(user)}.`,
        )
      const byEmail = 'email' in user
      const contact = byEmail ? user.email : user.phone
      if (typeof contact !== 'string' || contact.trim() === '')
        throw new HeadlessLoginError(
          `kit.magic.didToken takes { email } or { phone }, not ${JSON.stringify(user)}.`,
        )
      const to = normalizeContact(contact)
      const what = `The iframe wallet's login of ${contact}`
      const device = await createDevice()
      const session = {
        endpoint,
        device,
        params: encodeParams({
          API_KEY: info.magic.apiKey,
          DOMAIN_ORIGIN: origin,
          host: new URL(endpoint).host,
          sdk: 'magic-sdk',
          version: 'embedded-wallets/testing',
          locale: 'en_US',
        }),
        rt: undefined as string | undefined,
      }
      const kind = byEmail ? 'email-otp' : 'sms-otp'
      const flow = await openFlow(
        session,
        byEmail ? Methods.loginWithEmailOtp : Methods.loginWithSms,
        [
          byEmail
            ? { email: contact, showUI: false, lifespan }
            : { phoneNumber: contact, showUI: false, lifespan },
        ],
        what,
      )
      let loginToken: string | undefined
      try {
        loginToken = await answerLogin({
          flow,
          mail,
          kind,
          to,
          mfaCode,
          timeoutMs,
          what,
        })
        session.rt = flow.rt
      } catch (error) {
        // The flow would otherwise wait on the provider for its answers.
        await flow.cancel()
        throw error
      }
      const profile = (await call(session, Methods.getInfo, [], what)) as {
        issuer: string
        publicAddress: Address
        email: string | null
        phoneNumber: string | null
      }
      const generated =
        attachment === undefined
          ? loginToken
          : await call(
              session,
              Methods.generateIdToken,
              [{ attachment, lifespan }],
              what,
            )
      if (typeof generated !== 'string')
        throw new HeadlessLoginError(`${what} generated no DID token.`)
      return {
        didToken: generated,
        issuer: profile.issuer,
        publicAddress: profile.publicAddress,
        email: profile.email,
        phoneNumber: profile.phoneNumber,
      }
    },
  }
}

/**
 * Reads a login flow to its end, answering it as the person at the iframe
 * would: the mailed code, the second factor, the device-approval link.
 *
 * @returns The DID token it resolves to.
 */
async function answerLogin(options: {
  flow: Flow
  mail: LoginMailbox
  kind: 'email-otp' | 'sms-otp'
  to: string
  mfaCode: MagicLogins.Options['mfaCode']
  timeoutMs: number
  what: string
}): Promise<string> {
  const { flow, mail, kind, to, mfaCode, timeoutMs, what } = options
  for (;;) {
    const line = await flow.next()
    if (line.kind === 'response') {
      const token = resultOf(line.response, what)
      if (typeof token !== 'string')
        throw new HeadlessLoginError(`${what} resolved no DID token.`)
      return token
    }
    if (line.kind !== 'event') continue
    switch (line.event) {
      case `${kind}-sent`: {
        // The event follows the delivery: the newest code is this one.
        const code = await mail.waitForCode(to, { kind, timeoutMs })
        await flow.answer(
          kind === 'email-otp' ? 'verify-email-otp' : 'verify-sms-otp',
          code,
        )
        break
      }
      case `invalid-${kind}`:
      case `expired-${kind}`:
        throw new HeadlessLoginError(
          `${what} was refused the mailed code (${line.event}): another login of ${to} may have taken it.`,
        )
      case 'mfa-sent-handle':
        if (mfaCode === undefined)
          throw new HeadlessLoginError(
            `${what} asks for a second factor: the user has MFA on, pass mfaCode.`,
          )
        await flow.answer(
          'verify-mfa-code',
          typeof mfaCode === 'string' ? mfaCode : await mfaCode(),
        )
        break
      case 'invalid-mfa-otp':
        throw new HeadlessLoginError(
          `${what} was refused the MFA code (invalid-mfa-otp): mfaCode must be the current code of the user's authenticator secret.`,
        )
      // A new device of a user who requires approval: open the mailed link,
      // or ask for a new one when it expired.
      case 'device-verification-email-sent':
        await openApprovalLink(mail, to, timeoutMs, what)
        break
      case 'device-verification-link-expired':
        await flow.answer('device-retry')
        break
    }
  }
}

/**
 * The game wallet's headless login over an emulator's JSON line.
 *
 * @example
 * ```ts
 * const passport = createPassportLogins(info, kit)
 * const { idToken } = await passport.login({ email: 'ada@example.com' })
 * ```
 */
export function createPassportLogins(
  info: Info,
  mail: LoginMailbox,
): PassportLogins {
  const issuer = new URL(info.passport.authenticationDomain)
  const client: Client = { client_id: info.passport.clientId }
  let server: Promise<AuthorizationServer> | undefined
  // The provider's JWKS: fetched once, kept (and refreshed on a new kid)
  // by jose.
  let jwks: ReturnType<typeof createRemoteJWKSet> | undefined
  // The emulator serves plain HTTP on loopback.
  const http = { [allowInsecureRequests]: true }

  const discover = () => {
    server ??= discoveryRequest(issuer, http)
      .then((response) => processDiscoveryResponse(issuer, response))
      .catch((error: unknown) => {
        server = undefined
        throw new HeadlessLoginError(
          `The identity provider at ${issuer.origin} has no usable discovery document.`,
          { cause: asError(error) },
        )
      })
    return server
  }

  return {
    async login(user, options = {}) {
      const {
        redirectUri = info.passport.redirectUri,
        scope = defaultScope,
        audience = defaultAudience,
        timeoutMs = 5000,
      } = options
      const { email } = (user ?? {}) as { email?: unknown }
      const what = `The game wallet's sign-in of ${String(email)}`
      if (typeof email !== 'string' || email.trim() === '')
        throw new HeadlessLoginError(
          `kit.passport.login takes { email }, not ${JSON.stringify(user)}.`,
        )
      const as = await discover()
      const codeVerifier = generateRandomCodeVerifier()
      const state = generateRandomState()
      const nonce = generateRandomNonce()
      const authorize = new URL(
        as.authorization_endpoint ?? new URL(paths.authorize, issuer).href,
      )
      for (const [key, value] of Object.entries({
        response_type: 'code',
        client_id: client.client_id,
        redirect_uri: redirectUri,
        scope,
        [requestParams.audience]: audience,
        state,
        nonce,
        code_challenge: await calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      }))
        authorize.searchParams.set(key, value)

      const browser = createBrowser()
      // The provider sends the browser to its sign-in page.
      let page = await browser.follow(authorize.href, redirectUri, what)
      const emailForm = formOf(page, 'email', what)
      page = await browser.follow(
        emailForm.action,
        redirectUri,
        what,
        new URLSearchParams({ ...emailForm.fields, email }),
      )
      const to = normalizeContact(email)
      const codeForm = formOf(page, 'code', what)
      const code = await mail.waitForCode(to, {
        kind: loginCodeKind,
        timeoutMs,
      })
      page = await browser.follow(
        codeForm.action,
        redirectUri,
        what,
        new URLSearchParams({ ...codeForm.fields, code }),
      )
      if (page.callback === undefined)
        throw new HeadlessLoginError(
          sentence(
            `${what} did not come back to ${redirectUri}: the provider answered ${page.status}${pageError(page.html)}`,
          ),
        )

      let tokens: Awaited<ReturnType<typeof processAuthorizationCodeResponse>>
      try {
        const callback = validateAuthResponse(as, client, page.callback, state)
        tokens = await processAuthorizationCodeResponse(
          as,
          client,
          await authorizationCodeGrantRequest(
            as,
            client,
            None(),
            callback,
            redirectUri,
            codeVerifier,
            http,
          ),
          { expectedNonce: nonce, requireIdToken: true },
        )
      } catch (error) {
        const code = (error as { error?: unknown }).error
        throw new HeadlessLoginError(
          `${what} was refused: ${asError(error)?.message ?? String(error)}`,
          {
            code: typeof code === 'string' ? code : undefined,
            cause: asError(error),
          },
        )
      }
      const idToken = tokens.id_token as string
      if (as.jwks_uri === undefined)
        throw new HeadlessLoginError(
          `The identity provider at ${issuer.origin} names no jwks_uri.`,
        )
      jwks ??= createRemoteJWKSet(new URL(as.jwks_uri))
      const { payload } = await jwtVerify(idToken, jwks, {
        issuer: as.issuer,
        audience: client.client_id,
      }).catch((error: unknown) => {
        throw new HeadlessLoginError(
          `${what}: the id token does not verify against ${as.jwks_uri}.`,
          { cause: asError(error) },
        )
      })
      if (
        typeof tokens.refresh_token !== 'string' ||
        typeof tokens.expires_in !== 'number'
      )
        throw new HeadlessLoginError(
          `${what}: the token endpoint gave no refresh token or expiry (scope "${scope}").`,
        )
      return {
        idToken,
        accessToken: tokens.access_token,
        refreshToken: tokens.refresh_token,
        expiresIn: tokens.expires_in,
        claims: payload as PassportLogins.Result['claims'],
      }
    },
  }
}

/** A device as the iframe wallet's client keeps one: a P-256 DPoP key. */
type Device = { proof(): Promise<string> }

async function createDevice(): Promise<Device> {
  const { privateKey, publicKey } = await generateKeyPair('ES256')
  // The public key's members only (exportJWK may add `ext`, `key_ops`).
  const {
    kty = 'EC',
    crv = 'P-256',
    x = '',
    y = '',
  } = await exportJWK(publicKey)
  const jwk = { kty, crv, x, y }
  return {
    // The proof the published SDK sends with each request: claims
    // `{ iat, jti }` under `{ typ: 'dpop+jwt', alg: 'ES256', jwk }`.
    proof: () =>
      new SignJWT({
        iat: Math.floor(Date.now() / 1000),
        jti: crypto.randomUUID(),
      })
        .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk })
        .sign(privateKey),
  }
}

/** A device's session with the provider: what the iframe sends with a request. */
type Session = {
  endpoint: string
  device: Device
  params: string
  rt: string | undefined
}

let requestIds = 0

/** An open flow (`POST /v1/flow`), read line by line. */
type Flow = {
  next(): Promise<FlowLine>
  answer(eventType: string, args?: unknown): Promise<void>
  /** Ends the flow on the provider (`cancel`) and stops reading. */
  cancel(): Promise<void>
  /** The session token of its `response` line, once read. */
  rt: string | undefined
}

/** Opens a flow for `method` as the iframe app does (src/emulator/magic/provider/app). */
async function openFlow(
  session: Session,
  method: string,
  params: readonly unknown[],
  what: string,
): Promise<Flow> {
  const request: Rpc.Request = {
    jsonrpc: '2.0',
    id: ++requestIds,
    method,
    params: [...params],
  }
  let response: Response
  try {
    response = await fetch(`${session.endpoint}/v1/flow`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        params: session.params,
        request,
        jwt: await session.device.proof(),
        ...(session.rt === undefined ? {} : { rt: session.rt }),
      }),
    })
  } catch (error) {
    throw new HeadlessLoginError(
      `${what}: the iframe wallet's provider at ${session.endpoint} did not answer.`,
      { cause: asError(error) },
    )
  }
  const flowId = response.headers.get('x-flow-id')
  if (!response.ok || !response.body || flowId === null)
    throw new HeadlessLoginError(
      `${what}: POST ${session.endpoint}/v1/flow answered ${response.status}.`,
    )
  const lines = readLines(response.body)
  const flow: Flow = {
    rt: undefined,
    async next() {
      const { done, value } = await lines.next()
      if (done)
        throw new HeadlessLoginError(
          `${what}: the provider's flow ended without a response.`,
        )
      const line = JSON.parse(value) as FlowLine
      if (line.kind === 'response') flow.rt = line.rt
      return line
    },
    async answer(eventType, args) {
      const answered = await fetch(
        `${session.endpoint}/v1/flow/${encodeURIComponent(flowId)}/intermediary`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ eventType, args }),
        },
      )
      await answered.body?.cancel()
      if (!answered.ok)
        throw new HeadlessLoginError(
          `${what}: the provider did not take the answer ${eventType} (${answered.status}).`,
        )
    },
    async cancel() {
      await flow.answer('cancel').catch(() => undefined)
      await lines.return(undefined)
    },
  }
  return flow
}

/** Runs `method` as a flow with no answers and returns its result. */
async function call(
  session: Session,
  method: string,
  params: readonly unknown[],
  what: string,
): Promise<unknown> {
  const flow = await openFlow(session, method, params, what)
  for (;;) {
    const line = await flow.next()
    if (line.kind === 'response') return resultOf(line.response, what)
  }
}

/** A response's result, or its error as a {@link HeadlessLoginError}. */
function resultOf(response: Rpc.Response, what: string): unknown {
  if (response.error)
    throw new HeadlessLoginError(
      sentence(
        `${what} was refused with ${response.error.code}: ${response.error.message}`,
      ),
      { code: response.error.code },
    )
  return response.result
}

/** Opens the newest device-approval link mailed to `to`. */
async function openApprovalLink(
  mail: LoginMailbox,
  to: string,
  timeoutMs: number,
  what: string,
) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const [message] = (await mail.mailbox(to)).filter(
      (message) => message.kind === 'device-approval' && message.link,
    )
    if (message?.link !== undefined) {
      const opened = await fetch(message.link)
      await opened.body?.cancel()
      if (opened.ok) return
      throw new HeadlessLoginError(
        `${what}: the device-approval link answered ${opened.status}.`,
      )
    }
    if (Date.now() >= deadline)
      throw new HeadlessLoginError(
        `${what}: no device-approval link for ${to} within ${timeoutMs} ms.`,
      )
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** Where the browser ended: a page of the provider, or the callback. */
type Landing = {
  status: number
  html: string
  url: string
  /** The redirect URI's query, once the provider sent the browser back. */
  callback?: URLSearchParams | undefined
}

/**
 * A cookie-keeping browser made of fetch: it follows the provider's
 * redirects itself and stops at the redirect URI, which it never loads
 * (the dApp's page is not there in a backend test).
 */
function createBrowser() {
  const cookies = new Map<string, { value: string; path: string }>()
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((s) => s.trim())
      const equals = pair.indexOf('=')
      const name = pair.slice(0, equals)
      const path =
        attributes
          .find((a) => a.toLowerCase().startsWith('path='))
          ?.slice('path='.length) ?? '/'
      const gone = attributes.some((a) => /^max-age=0$/i.test(a))
      if (gone) cookies.delete(`${name};${path}`)
      else
        cookies.set(`${name};${path}`, { value: pair.slice(equals + 1), path })
    }
  }
  const cookieHeader = (url: URL) =>
    [...cookies.entries()]
      .filter(([, cookie]) => url.pathname.startsWith(cookie.path))
      .map(
        ([key, cookie]) => `${key.slice(0, key.indexOf(';'))}=${cookie.value}`,
      )
      .join('; ')

  return {
    /** Requests `url` (a POST of `form`), then follows redirects. */
    async follow(
      url: string,
      redirectUri: string,
      what: string,
      form?: URLSearchParams,
    ): Promise<Landing> {
      let target = new URL(url)
      let body = form
      for (let hop = 0; hop < 10; hop++) {
        const cookie = cookieHeader(target)
        let response: Response
        try {
          response = await fetch(target, {
            method: body ? 'POST' : 'GET',
            redirect: 'manual',
            headers: {
              ...(cookie ? { cookie } : {}),
              ...(body
                ? { 'content-type': 'application/x-www-form-urlencoded' }
                : {}),
            },
            ...(body ? { body } : {}),
          })
        } catch (error) {
          throw new HeadlessLoginError(
            `${what}: the identity provider at ${target.origin} did not answer.`,
            { cause: asError(error) },
          )
        }
        keep(response)
        const location = response.headers.get('location')
        if (response.status >= 300 && response.status < 400 && location) {
          await response.body?.cancel()
          target = new URL(location, target)
          body = undefined
          if (isCallback(target, redirectUri))
            return {
              status: response.status,
              html: '',
              url: target.href,
              callback: target.searchParams,
            }
          continue
        }
        return {
          status: response.status,
          html: await response.text(),
          url: target.href,
        }
      }
      throw new HeadlessLoginError(`${what}: more than 10 redirects.`)
    },
  }
}

function isCallback(url: URL, redirectUri: string): boolean {
  const expected = new URL(redirectUri)
  return url.origin === expected.origin && url.pathname === expected.pathname
}

/**
 * The sign-in page's form that has an input named `field`: its action and
 * hidden fields. A page without one is the provider saying no: its error
 * paragraph becomes the error's message.
 */
function formOf(page: Landing, field: string, what: string) {
  const form = (page.html.match(/<form\b[\s\S]*?<\/form>/g) ?? []).find(
    (candidate) =>
      new RegExp(`<input\\b[^>]*\\bname="${field}"`).test(candidate) &&
      !/type="hidden"[^>]*name="${field}"/.test(candidate),
  )
  if (form === undefined)
    throw new HeadlessLoginError(
      sentence(
        `${what} stopped on ${new URL(page.url).pathname} (${page.status})${pageError(page.html)}`,
      ),
      { code: pageErrorCode(page.html) },
    )
  const action = /\baction="([^"]*)"/.exec(form)?.[1] ?? ''
  const fields: Record<string, string> = {}
  for (const [, name = '', value = ''] of form.matchAll(
    /<input type="hidden" name="([^"]*)" value="([^"]*)"/g,
  ))
    fields[unescapeHtml(name)] = unescapeHtml(value)
  return { action: new URL(unescapeHtml(action), page.url).href, fields }
}

/** The page's error paragraph as a clause (`: …`), or nothing. */
function pageError(html: string): string {
  const text = /data-testid="error">([\s\S]*?)<\/p>/.exec(html)?.[1]
  return text === undefined
    ? ''
    : `: ${unescapeHtml(text.replace(/<[^>]+>/g, ''))}`
}

/** The OAuth error code an error page names, if any. */
function pageErrorCode(html: string): string | undefined {
  const code = /data-testid="error-code">([^<]*)</.exec(html)?.[1]
  return code === undefined ? undefined : unescapeHtml(code)
}

/** `text` ending with one full stop. */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`
}

function unescapeHtml(text: string): string {
  return text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&')
}

function asError(error: unknown): Error | undefined {
  return error instanceof Error ? error : undefined
}
