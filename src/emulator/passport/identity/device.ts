/**
 * The device flow's pages (RFC 8628: where the person types the user code,
 * confirms or denies, and is told it worked) and the two things oidc-provider
 * does not do itself: the `interval` of the device authorization response,
 * and `slow_down` for a device that polls faster than that interval.
 */
import type Provider from 'oidc-provider'
import type { KoaContextWithOIDC } from 'oidc-provider'
import { paths } from '../../../passport/wire/identity.js'
import { errorParagraph, escapeHtml, hidden, page } from './html.js'

/** The device-code grant type. */
export const deviceCodeGrantType =
  'urn:ietf:params:oauth:grant-type:device_code'

const xsrfOf = (ctx: KoaContextWithOIDC) => ctx.oidc.session.state?.secret ?? ''
const actionOf = (ctx: KoaContextWithOIDC) =>
  ctx.oidc.urlFor('code_verification')

/** What each oidc-provider re-render error tells the person. */
function messageOf(error: Error | undefined): string | undefined {
  if (error === undefined) return undefined
  switch (error.name) {
    case 'NoCodeError':
      return 'Enter the code shown on your device.'
    case 'NotFoundError':
      return 'That code is not right. Check the code shown on your device.'
    case 'ExpiredError':
      return 'That code has expired. Start again on your device.'
    case 'AlreadyUsedError':
      return 'That code was already used.'
    case 'AbortedError':
      return 'Sign-in denied. Your device was told so.'
    default:
      return 'Something went wrong. Try again.'
  }
}

/**
 * The page where the person types the user code (`GET /device`). The code
 * of `verification_uri_complete` arrives pre-filled (see
 * {@link deviceMiddleware}).
 */
export async function userCodeInputSource(
  ctx: KoaContextWithOIDC,
  _form: string,
  _out: unknown,
  error?: Error,
): Promise<void> {
  const prefill =
    typeof ctx.state.userCode === 'string'
      ? ctx.state.userCode
      : typeof ctx.oidc.params?.user_code === 'string'
        ? ctx.oidc.params.user_code
        : ''
  ctx.type = 'html'
  ctx.body = page(
    'Sign in on your device',
    `${errorParagraph(messageOf(error))}
<form method="post" action="${escapeHtml(actionOf(ctx))}">
${hidden('xsrf', xsrfOf(ctx))}
<label for="user_code">Code shown on your device</label>
<input type="text" id="user_code" name="user_code" value="${escapeHtml(prefill)}" autocomplete="off" autofocus required data-testid="device-user-code">
<button type="submit" data-testid="device-continue">Continue</button>
</form>`,
  )
}

/** The page where the person approves or denies the device. */
export async function userCodeConfirmSource(
  ctx: KoaContextWithOIDC,
  _form: string,
  _client: unknown,
  _deviceInfo: unknown,
  userCode: string,
): Promise<void> {
  ctx.type = 'html'
  ctx.body = page(
    'Approve this device?',
    `<p>Make sure your device shows this code:</p>
<p><code class="user-code" data-testid="device-confirm-code">${escapeHtml(userCode)}</code></p>
<form method="post" action="${escapeHtml(actionOf(ctx))}">
${hidden('xsrf', xsrfOf(ctx))}
${hidden('user_code', userCode)}
<button type="submit" name="confirm" value="yes" data-testid="device-approve">Approve and sign in</button>
<button type="submit" name="abort" value="yes" class="secondary" data-testid="device-deny">Deny</button>
</form>
<p class="muted">If you did not start this on a device of yours, deny it.</p>`,
  )
}

/** The page shown once the device is signed in. */
export async function successSource(ctx: KoaContextWithOIDC): Promise<void> {
  ctx.type = 'html'
  ctx.body = page(
    'Device signed in',
    '<p data-testid="device-success">You are signed in. You can close this page and go back to your device.</p>',
  )
}

/** How long a device code's last poll is remembered: an hour. */
const forgetAfter = 60 * 60 * 1000

/**
 * A Koa middleware for the provider: pre-fills the verification page from
 * `?user_code=` (oidc-provider would auto-submit it instead), adds `interval`
 * to the device authorization response, and answers `slow_down` instead of
 * `authorization_pending` to a device polling sooner than `interval` seconds
 * after its previous poll (the interval is not raised after a `slow_down`).
 */
export function deviceMiddleware(options: { interval: number }) {
  const { interval } = options
  const lastPoll = new Map<string, number>()
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    if (ctx.method === 'GET' && ctx.path === paths.deviceVerification) {
      const { user_code: userCode } = ctx.query
      if (typeof userCode === 'string') {
        ctx.state.userCode = userCode
        ctx.querystring = ''
      }
    }
    await next()
    const route = ctx.oidc?.route
    const body = ctx.body as Record<string, unknown> | undefined
    if (route === 'device_authorization' && ctx.status === 200 && body)
      body.interval = interval
    const params = ctx.oidc?.params
    if (route !== 'token' || params?.grant_type !== deviceCodeGrantType) return
    const deviceCode = params.device_code
    if (typeof deviceCode !== 'string') return
    const at = Date.now()
    for (const [code, polled] of lastPoll)
      if (polled < at - forgetAfter) lastPoll.delete(code)
    const previous = lastPoll.get(deviceCode)
    if (body?.error !== 'authorization_pending') {
      lastPoll.delete(deviceCode)
      return
    }
    lastPoll.set(deviceCode, at)
    if (previous !== undefined && at - previous < interval * 1000)
      ctx.body = {
        error: 'slow_down',
        error_description: `poll at most every ${interval} seconds`,
      }
  }
}

/**
 * A Koa middleware for the provider: a form posted to `/device` without a
 * stored session (no cookie, an expired one, or a post from another
 * browser) answers 400 with a page that sends the person back to the code
 * form. oidc-provider would re-render its form on a session it never
 * stored, then fail to store it and answer 500.
 */
export function requireDeviceSession(provider: Provider) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    if (ctx.method === 'POST' && ctx.path === paths.deviceVerification) {
      const session = await provider.Session.get(ctx)
      if (typeof session.exp !== 'number') {
        ctx.status = 400
        if (ctx.accepts('json', 'html') === 'html') {
          ctx.type = 'html'
          ctx.body = page(
            'Sign-in page expired',
            `${errorParagraph('This page has expired or was opened in another browser.')}
<p><a href="/device" data-testid="device-restart">Enter the code shown on your device again</a></p>`,
          )
        } else
          ctx.body = {
            error: 'invalid_request',
            error_description:
              'no device sign-in is in progress in this browser; open the verification page again',
          }
        return
      }
    }
    await next()
  }
}
