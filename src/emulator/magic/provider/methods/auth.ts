/**
 * Login methods: email OTP, SMS OTP, magic link, credential, OIDC, and
 * their test modes. Each resolves to a DID token and opens a session.
 */
import { rpcCodes } from '../../../../magic/wire/codes.js'
import { methods } from '../../../../magic/wire/methods.js'
import { isEmailAddress, normalizeContact } from '../../../contact.js'
import { isLoopbackUrl } from '../../../loopback.js'
import type { User } from '../../../registry/index.js'
import type { Context, Handler } from '../context.js'
import { failures, RpcFailure } from '../errors.js'
import { createLink, linkAnswers, revokeLink } from '../links.js'
import { isDeliverable } from '../mail.js'
import { login } from '../session.js'
import { deviceApproval, secondFactor } from './factors.js'
import { loginWithOidc } from './oidc.js'

const phonePattern = /^\+?[0-9][0-9\s\-()]{5,}$/

/** The error `test+fail@…` gets in test mode. */
export const testModeFailure = () =>
  new RpcFailure(
    rpcCodes.AccessDeniedToUser,
    'Test mode: test+fail addresses always fail to log in.',
  )

/**
 * Test-mode phone numbers. The provider documents test mode for email
 * addresses only (`test+success@…`, `test+fail@…`; "Test Mode only works
 * when logging in with Magic links", docs.magic.link), so SMS gets the same
 * pair from the fictional NANP range 555-0100–0199: in test mode
 * `+1 555 555 0100` logs in at once without an SMS, `+1 555 555 0199`
 * fails with -10011, and any other number goes through the normal flow.
 * Numbers are compared after dropping spaces, dashes and parentheses.
 */
export const testModePhoneNumbers = {
  success: '+15555550100',
  fail: '+15555550199',
} as const

/** The error the test-mode failing phone number gets. */
export const testModePhoneFailure = () =>
  new RpcFailure(
    rpcCodes.AccessDeniedToUser,
    `Test mode: ${testModePhoneNumbers.fail} always fails to log in.`,
  )

function requireEmail(ctx: Context, value: unknown = ctx.options.email) {
  if (typeof value !== 'string' || !isEmailAddress(value.trim()))
    throw failures.invalidParams(`${ctx.method}: expected a valid email.`)
  return value.trim().toLowerCase()
}

/**
 * Test mode: `test+success@…` logs in at once, `test+fail@…` fails, any
 * other address goes through the normal flow.
 */
async function testMode(ctx: Context, email: string) {
  if (!ctx.testMode) return undefined
  const local = email.split('@')[0]
  if (local === 'test+fail') throw testModeFailure()
  if (local !== 'test+success') return undefined
  const user = await ctx.deps.registry.findOrCreate({ email })
  return login(ctx, user, ctx.options.lifespan)
}

/**
 * Sends a code and waits for the right one. Events are those of `kind`.
 * SMS logins take the caller's `retry` (the published SDK's
 * `LoginWithSmsOTPEventEmit.Retry`): a new code is sent, unless the send
 * throttle refuses it (`login-throttled`; the code already sent still
 * works).
 */
export async function verifyCode(
  ctx: Context,
  options: {
    kind: 'email-otp' | 'sms-otp'
    to: string
    verify: string
  },
): Promise<void> {
  const { kind, to, verify } = options
  // No code can reach it: the email-OTP flows have no event for that.
  if (kind === 'email-otp' && !isDeliverable(to))
    throw failures.inactiveRecipient()
  const key = `${kind}:${to}`
  const send = () => {
    const code = ctx.deps.codes.issue(key)
    if (code === undefined) {
      ctx.emit('login-throttled')
      return false
    }
    ctx.deps.mailbox.deliver({ to, kind, code })
    ctx.emit(`${kind}-sent`)
    return true
  }
  if (!send()) throw failures.throttled()
  const show = (error?: 'invalid' | 'expired') => {
    const extra = error ? { error } : {}
    if (kind === 'email-otp') ctx.screen('email-otp', { email: to, ...extra })
    else ctx.screen('sms-otp', { phoneNumber: to, ...extra })
  }
  show()
  const answers = kind === 'sms-otp' ? [verify, 'retry'] : [verify]
  for (;;) {
    const answer = await ctx.waitFor([...answers, 'cancel'])
    if (answer.eventType === 'cancel') throw failures.cancelled()
    if (answer.eventType === 'retry') {
      send()
      show()
      continue
    }
    const result = ctx.deps.codes.check(key, answer.args)
    if (result === 'ok') return
    if (result === 'max-attempts') {
      ctx.emit('max-attempts-reached')
      throw failures.maxAttempts()
    }
    ctx.emit(`${result}-${kind}`)
    show(result)
  }
}

/**
 * The email-code login both the headless method and the wallet's own login
 * screen run: the code, then the user (created on first login), then their
 * second factor and the new-device approval, when they have them.
 */
export async function emailCodeLogin(
  ctx: Context,
  email: string,
): Promise<User> {
  await verifyCode(ctx, {
    kind: 'email-otp',
    to: email,
    verify: 'verify-email-otp',
  })
  const user = await ctx.deps.registry.findOrCreate({ email })
  await secondFactor(ctx, user)
  await deviceApproval(ctx, user)
  return user
}

const loginWithEmailOtp: Handler = async (ctx) => {
  const email = requireEmail(ctx)
  const test = await testMode(ctx, email)
  if (test !== undefined) return test
  const user = await emailCodeLogin(ctx, email)
  return login(ctx, user, ctx.options.lifespan)
}

/** Test mode for SMS: see {@link testModePhoneNumbers}. */
async function testModeSms(ctx: Context, phoneNumber: string) {
  if (!ctx.testMode) return undefined
  if (phoneNumber === testModePhoneNumbers.fail) throw testModePhoneFailure()
  if (phoneNumber !== testModePhoneNumbers.success) return undefined
  const user = await ctx.deps.registry.findOrCreate({ phoneNumber })
  return login(ctx, user, ctx.options.lifespan)
}

const loginWithSms: Handler = async (ctx) => {
  const { phoneNumber } = ctx.options
  if (typeof phoneNumber !== 'string' || !phonePattern.test(phoneNumber.trim()))
    throw failures.invalidParams(`${ctx.method}: expected a phone number.`)
  const to = normalizeContact(phoneNumber)
  const test = await testModeSms(ctx, to)
  if (test !== undefined) return test
  await verifyCode(ctx, { kind: 'sms-otp', to, verify: 'verify-sms-otp' })
  ctx.emit('sms-verified')
  const user = await ctx.deps.registry.findOrCreate({ phoneNumber: to })
  await secondFactor(ctx, user)
  return login(ctx, user, ctx.options.lifespan)
}

/** -10002: the magic links sent to one address are throttled. */
const rateLimited = () =>
  new RpcFailure(
    rpcCodes.MagicLinkRateLimited,
    'Too many magic links were requested: try again later.',
  )

const loginWithMagicLink: Handler = async (ctx) => {
  const email = requireEmail(ctx)
  // This device is logged in already: its own user gets a new token at
  // once; another must log out first (-10003, as the hosted provider
  // answers).
  if (ctx.user) {
    if (ctx.user.email === email)
      return login(ctx, ctx.user, ctx.options.lifespan)
    throw new RpcFailure(
      rpcCodes.UserAlreadyLoggedIn,
      'A user is already logged in: log out before another user logs in.',
    )
  }
  const test = await testMode(ctx, email)
  if (test !== undefined) return test
  const { redirectURI } = ctx.options
  if (redirectURI !== undefined && !isRedirectAllowed(ctx, redirectURI))
    throw new RpcFailure(
      rpcCodes.MagicLinkInvalidRedirectURL,
      "The redirect URI must be a loopback URL or on the dApp's own origin.",
    )
  if (!isDeliverable(email)) {
    ctx.emit('email-not-deliverable')
    throw failures.inactiveRecipient()
  }
  if (!ctx.deps.codes.throttle(`magic-link:${email}`)) throw rateLimited()
  let link: string | undefined
  const send = () => {
    // A new link replaces the one sent before.
    if (link !== undefined) revokeLink(ctx.deps, link)
    link = createLink(ctx.deps, {
      kind: 'magic-link',
      flowId: ctx.id,
      email,
      origin: ctx.origin,
      redirectURI: redirectURI as string | undefined,
    })
    ctx.deps.mailbox.deliver({ to: email, kind: 'magic-link', link })
    ctx.emit('email-sent')
    ctx.screen('magic-link-sent', { email })
  }
  send()
  const answers = [
    linkAnswers.opened,
    linkAnswers.redirected,
    linkAnswers.expired,
    'retry',
    'cancel',
  ]
  let answer = await ctx.waitFor(answers)
  // The caller's `retry` (the published SDK's
  // `LoginWithMagicLinkEventEmit.Retry`) sends a new link, within the
  // same throttle as the first.
  while (answer.eventType === 'retry') {
    if (!ctx.deps.codes.throttle(`magic-link:${email}`)) throw rateLimited()
    send()
    answer = await ctx.waitFor(answers)
  }
  if (answer.eventType === 'cancel') throw failures.cancelled()
  if (answer.eventType === linkAnswers.expired)
    throw new RpcFailure(rpcCodes.MagicLinkExpired, 'The magic link expired.')
  // With a redirect URI the session is opened where the redirect lands
  // (its one-time credential): this request has nothing left to do.
  if (answer.eventType === linkAnswers.redirected)
    throw new RpcFailure(
      rpcCodes.RedirectLoginComplete,
      'The login was completed on the redirect page.',
    )
  const user = await ctx.deps.registry.findOrCreate({ email })
  return login(ctx, user, ctx.options.lifespan)
}

/**
 * Whether a magic link may redirect to `value`: a loopback `http:` URL (the
 * developer's app), or a URL on the dApp's own origin (`DOMAIN_ORIGIN` of
 * the iframe params), as the provider's redirect allowlist would have it.
 * Anything else would hand the one-time credential to another site.
 */
export function isRedirectAllowed(ctx: Context, value: unknown): boolean {
  if (typeof value !== 'string') return false
  if (isLoopbackUrl(value)) return true
  const url = URL.parse(value)
  return (
    url !== null &&
    ctx.domainOrigin !== undefined &&
    url.origin === ctx.domainOrigin &&
    url.username === '' &&
    url.password === ''
  )
}

/** Exchanges a one-time `magic_credential` for a session. */
const loginWithCredential: Handler = async (ctx) => {
  const [input, lifespan] = ctx.params
  if (typeof input !== 'string' || input === '')
    throw failures.invalidParams(`${ctx.method}: expected a credential.`)
  const credential = input.includes('magic_credential=')
    ? new URLSearchParams(input.replace(/^[^?]*\?/, '')).get('magic_credential')
    : input
  const entry = credential ? ctx.deps.credentials.get(credential) : undefined
  if (!credential || !entry)
    throw new RpcFailure(
      rpcCodes.MagicLinkFailedVerification,
      'The credential is unknown or was already used.',
    )
  ctx.deps.credentials.delete(credential)
  if (entry.expiresAt <= ctx.deps.now().getTime())
    throw new RpcFailure(rpcCodes.MagicLinkExpired, 'The credential expired.')
  const user = await ctx.deps.registry.findOrCreate({ email: entry.email })
  return login(ctx, user, lifespan)
}

/** Login methods by name. */
export const authHandlers: Record<string, Handler> = {
  [methods.loginWithEmailOtp]: loginWithEmailOtp,
  [methods.loginWithSms]: loginWithSms,
  [methods.loginWithMagicLink]: loginWithMagicLink,
  [methods.loginWithCredential]: loginWithCredential,
  [methods.loginWithOidc]: loginWithOidc,
}
