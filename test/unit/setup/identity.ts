/**
 * Helpers for the tests that run the game wallet's sign-in core against the
 * real emulated identity provider (started by its testkit, which logs every
 * request server side): our OIDC client with a client-side log of the OAuth
 * errors it received, a virtual clock for the device flow, and the person's
 * side of the device and PKCE pages (driven with fetch through the identity
 * testkit's cookie-keeping browser).
 */
import * as Storage from '../../../src/core/Storage.js'
import {
  createBrowser,
  readForm,
  redirectUri,
  signIn,
  startIdentity,
  type TestIdentity,
  textOf,
} from '../../../src/emulator/passport/identity/testkit.js'
import type { Exchange } from '../../../src/emulator/testkit.js'
import { type Client, create } from '../../../src/passport/auth/oidc.js'
import {
  createUserStore,
  type UserStore,
} from '../../../src/passport/auth/user.js'
import {
  defaultAudience,
  defaultScope,
} from '../../../src/passport/wire/identity.js'

export { redirectUri, startIdentity }

/** The scope and audience the SDK asks for by default. */
export const scope = defaultScope
export const audience = defaultAudience

/** A running identity service (the identity testkit's). */
export type Identity = TestIdentity

/** The headers Node's fetch adds to every request by itself. */
const transportHeaders = new Set([
  'host',
  'connection',
  'content-length',
  'accept-encoding',
  'accept-language',
  'sec-fetch-mode',
])

/**
 * The headers the client set on a request the service received, without
 * those Node's fetch adds by itself. When the client sets no `accept`,
 * fetch sends its own (any type).
 */
export function sentHeaders(exchange: Exchange): Record<string, string> {
  return Object.fromEntries(
    Object.entries(exchange.headers)
      .filter(([name]) => !transportHeaders.has(name))
      .map(([name, value]) => [name, String(value)]),
  )
}

/** The device-code grant type. */
export const deviceGrant = 'urn:ietf:params:oauth:grant-type:device_code'

/**
 * Our client (discovery, loopback HTTP) and a user store for `identity`,
 * with a fetch that records, client side, every URL requested and the
 * `error` of every refused token request.
 */
export function createEnv(identity: Identity) {
  const urls: string[] = []
  const tokenErrors: string[] = []
  const recording: typeof globalThis.fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    urls.push(url)
    const response = await fetch(input, init)
    if (new URL(url).pathname === '/oauth/token' && !response.ok) {
      const body = (await response.clone().json()) as { error?: string }
      tokenErrors.push(String(body.error))
    }
    return response
  }
  const client: Client = create({
    authenticationDomain: identity.issuer,
    clientId: identity.clientId,
    redirectUri,
    scope,
    audience,
    fetch: recording,
  })
  const storage: Storage.Storage = Storage.memory()
  const users: UserStore = createUserStore({
    authority: identity.issuer,
    clientId: identity.clientId,
    storage: Storage.memory(),
  })
  return { client, users, storage, urls, tokenErrors }
}

/**
 * A clock for the device flow: `sleep(ms)` advances `now()` by `ms` at once
 * and waits in real time only `realWait(ms)` (default 0); `onSleep(n)` runs
 * at the start of the n-th sleep (1-based), e.g. to approve the device
 * between two polls. Every requested wait is kept in `sleeps`.
 */
export function virtualClock(
  options: {
    start?: number | undefined
    realWait?: ((ms: number) => number) | undefined
    onSleep?: ((n: number) => Promise<void>) | undefined
  } = {},
) {
  let time = options.start ?? 1_700_000_000_000
  const sleeps: number[] = []
  return {
    sleeps,
    now: () => time,
    async sleep(ms: number) {
      sleeps.push(ms)
      await options.onSleep?.(sleeps.length)
      const real = options.realWait?.(ms) ?? 0
      if (real > 0) await new Promise((resolve) => setTimeout(resolve, real))
      time += ms
    },
  }
}

/**
 * The person's side of the device flow: opens the verification URL, submits
 * the pre-filled user code, then approves (signing in with `email` and the
 * code from the mailbox) or denies.
 *
 * @returns The text of the page the person ends on.
 */
export async function decideDevice(
  identity: Identity,
  verificationUrl: string,
  decision: { approveAs: string } | 'deny',
): Promise<string | undefined> {
  const browser = createBrowser(identity.issuer)
  const userCode = new URL(verificationUrl).searchParams.get('user_code') ?? ''
  const input = await (await browser.get(verificationUrl)).text()
  const codeForm = readForm(input, 'device-user-code')
  const confirmPage = await (
    await browser.post(codeForm.action, {
      ...codeForm.fields,
      user_code: userCode,
    })
  ).text()
  if (textOf(confirmPage, 'device-confirm-code') !== userCode)
    throw new Error(`The confirm page does not show ${userCode}.`)
  const form = readForm(confirmPage, 'device-approve')
  if (decision === 'deny') {
    const denied = await browser.post(form.action, {
      ...form.fields,
      abort: 'yes',
    })
    return textOf(await denied.text(), 'error')
  }
  const approved = await browser.post(form.action, {
    ...form.fields,
    confirm: 'yes',
  })
  if (approved.status !== 303) throw new Error(`Approve: ${approved.status}`)
  const resume = await signIn(
    browser,
    approved.headers.get('location') ?? '',
    identity.mailbox,
    decision.approveAs,
  )
  return textOf(await (await browser.get(resume)).text(), 'device-success')
}

/**
 * The person's side of the PKCE flow: opens the authorization URL, signs in
 * with `email` (code from the mailbox) and returns where the provider
 * redirects back to (with `code`, `state` and `iss`).
 */
export async function authorize(
  identity: Identity,
  authorizationUrl: string,
  email: string,
): Promise<URL> {
  const browser = createBrowser(identity.issuer)
  const start = await browser.get(authorizationUrl)
  if (start.status !== 303) throw new Error(`Authorize: ${start.status}`)
  const resume = await signIn(
    browser,
    start.headers.get('location') ?? '',
    identity.mailbox,
    email,
  )
  const back = await browser.get(resume)
  if (back.status !== 303) throw new Error(`Resume: ${back.status}`)
  return new URL(back.headers.get('location') ?? '')
}
