import '../../browser/fixtures/noTelemetry.js'
import { readEmulator, sdk } from './app.js'

/**
 * The game wallet as a dApp sets it up, with this package's client or the
 * published @imtbl/passport (`?sdk=published`), configured from the
 * emulator's JSON line: its client id and `overrides`, and this site's
 * callback page. Both pages of the app (the game and its redirect page)
 * build the same one.
 */

/** What the pages use of either SDK. */
export type PassportLike = {
  login(options?: {
    useRedirectFlow?: boolean
  }): Promise<{ email?: string } | null>
  loginCallback(): Promise<void>
  getUserInfo(): Promise<{ email?: string } | undefined>
  connectEvm(options?: { announceProvider?: boolean }): Promise<{
    request(args: { method: string; params?: unknown[] }): Promise<unknown>
  }>
}

/** The page's Passport. */
export async function createPassport(): Promise<PassportLike> {
  const info = readEmulator()
  const { Passport } =
    // Loaded after noTelemetry (above): the published SDK's telemetry
    // starts as its module is evaluated.
    sdk === 'published'
      ? ((await import('@imtbl/passport')) as unknown as {
          Passport: new (config: object) => PassportLike
        })
      : ((await import('../../../src/passport/index.js')) as unknown as {
          Passport: new (config: object) => PassportLike
        })
  return new Passport({
    baseConfig: { environment: 'sandbox' },
    clientId: info.passport.clientId,
    redirectUri: `${location.origin}/passport-redirect.html?sdk=${sdk}`,
    logoutRedirectUri: `${location.origin}/passport.html?sdk=${sdk}`,
    logoutMode: 'silent',
    // The published SDK has no default scope or audience: a game names
    // them (without `transact` there is no wallet).
    scope: 'openid profile email offline_access transact',
    audience: 'platform_api',
    popupOverlayOptions: {
      // The embedded login prompt is a hosted page the emulator does not
      // serve (`?prompt=on` shows it all the same).
      disableHeadlessLoginPromptOverlay:
        new URLSearchParams(location.search).get('prompt') !== 'on',
      // `?overlay=off`: no blocked-popup overlay (a blocked popup is then
      // an error, with this package's client).
      disableBlockedPopupOverlay:
        new URLSearchParams(location.search).get('overlay') === 'off',
    },
    overrides: info.passport.overrides,
  })
}
