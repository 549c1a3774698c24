import type { Passport } from 'embedded-wallets/passport'
import type { PassportRoute, Passports } from './config.js'
import { appendEvent } from './events.js'

/** What a callback page did, shown while it runs or when it stops. */
export type CallbackOutcome =
  | { kind: 'returning'; message: string }
  | { kind: 'done'; message: string }
  | { kind: 'failed'; message: string }

/** The published PKCE flow's `localStorage` key of its pending `state`. */
const pkceStateKey = 'pkce_state'

/**
 * Runs the game-wallet page at `route` once:
 * - `redirect` (`redirectUri`): a PKCE return (its `state` is the pending
 *   PKCE state) is completed with `loginWithPKCEFlowCallback(code, state)`;
 *   anything else with `loginCallback()`, which inside the login popup hands
 *   the URL to the opener and closes the popup, and after a redirect sign-in
 *   completes it here. Then the page returns to the app.
 * - `logout` (`logoutRedirectUri`): inside the silent-logout iframe it runs
 *   `logoutSilentCallback(location.href)`; as the redirect logout's
 *   `returnTo` it returns to the app.
 *
 * @param navigate - How to return to the app. @default location.replace
 */
export async function runCallback(
  route: PassportRoute,
  passports: Passports,
  navigate: (url: string) => void = (url) => location.replace(url),
): Promise<CallbackOutcome> {
  const app = new URL('/', location.href).href
  const passport = passports.redirect
  try {
    if (route === 'logout') {
      if (window.parent !== window) {
        await passport.logoutSilentCallback(location.href)
        return { kind: 'done', message: 'Signed out (silent logout).' }
      }
      appendEvent(
        'logout page',
        'back from the provider',
        'the provider ended its session',
      )
      navigate(app)
      return { kind: 'returning', message: 'Signed out. Back to the app…' }
    }
    const params = new URL(location.href).searchParams
    const state = params.get('state')
    const pkce = state !== null && state === localStorage.getItem(pkceStateKey)
    passport.on('loggedIn', (user) =>
      appendEvent(
        `redirect page (${pkce ? 'PKCE' : 'redirect'})`,
        'loggedIn',
        `signed in as ${user.profile.email ?? user.profile.sub}`,
        { sub: user.profile.sub },
      ),
    )
    if (pkce) {
      await completePkce(passport, params, state)
      navigate(app)
      return {
        kind: 'returning',
        message: 'Signed in (PKCE). Back to the app…',
      }
    }
    const inPopup = Boolean(window.opener)
    await passport.loginCallback()
    if (inPopup)
      return { kind: 'done', message: 'Handed the sign-in to the app.' }
    navigate(app)
    return { kind: 'returning', message: 'Signed in. Back to the app…' }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    appendEvent(`${route} page`, 'failed', message)
    return { kind: 'failed', message }
  }
}

async function completePkce(
  passport: Passport,
  params: URLSearchParams,
  state: string,
): Promise<void> {
  const code = params.get('code')
  if (code === null)
    throw new Error(
      params.get('error_description') ??
        params.get('error') ??
        'The PKCE redirect carries no code.',
    )
  await passport.loginWithPKCEFlowCallback(code, state)
}
