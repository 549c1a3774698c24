import type { EIP1193Provider } from 'viem'
import { inject, vi } from 'vitest'
import type {
  PassportOverrides,
  PublishedApp,
  PublishedPassport,
} from './fixtures/publishedPassport.js'
import { completeInPopup, type Opened } from './passportLogin.js'

/**
 * Browser-side helpers of the published @imtbl/passport's compatibility
 * tests: the emulator's JSON line and the `overrides` a dApp builds from
 * it, and an observer of the published SDK's login popup.
 */

/** The emulator's JSON line. */
export const info = inject('emulatorInfo')

/** Its `passport` record. */
export const passportInfo = info.passport

/**
 * The `overrides` a dApp passes to the published SDK against this emulator:
 * the emulator prints them (its nine required domains and keys plus
 * `zkEvmChainId`, `zkEvmChainName` and `magicTeeBasePath`; the extra keys it
 * prints for our client the published SDK ignores).
 */
export const overrides: PassportOverrides = passportInfo.overrides

/** The identity provider and client id the published SDK is set up with. */
export const publishedApp: PublishedApp = {
  auth: passportInfo.authenticationDomain,
  client: passportInfo.clientId,
}

/**
 * The published SDK's login popup, once it is sent to the authorization
 * request. oidc-client-ts opens the popup blank and then calls
 * `popup.location.replace(url)`, and a cross-origin URL cannot be read back
 * from the window, so `window.open` hands the SDK a stand-in for the real
 * popup that notes that URL on its way through (the popup still opens and
 * navigates for real). `close`, `focus` and `closed` pass through.
 */
export function nextLoginPopup(): Promise<Opened> {
  const open = window.open.bind(window)
  return new Promise((resolve) => {
    vi.spyOn(window, 'open').mockImplementation((url, target, features) => {
      const real = open(url, target, features)
      if (!real) return null
      const standIn = {
        get closed() {
          return real.closed
        },
        focus: () => real.focus(),
        close: () => real.close(),
        location: {
          replace(href: string) {
            resolve({ url: href, target: String(target), window: real })
            real.location.replace(href)
          },
        },
      }
      return standIn as unknown as Window
    })
  })
}

/** Login popups the helpers opened, for the tests to close at the end. */
export const openedLogins: Window[] = []

/** `passport.login()` through the real popup, signed in as `email`. */
export async function signIn(passport: PublishedPassport, email: string) {
  const popup = nextLoginPopup()
  const pending = passport.login()
  const shown = await popup
  if (shown.window) openedLogins.push(shown.window)
  await completeInPopup(shown, email)
  const profile = await pending
  vi.mocked(window.open).mockRestore()
  return { profile, request: new URL(shown.url) }
}

/**
 * A signed-in, registered player of the published SDK: `connectEvm`, then
 * `eth_requestAccounts` (which registers the wallet). `changes` records
 * every `accountsChanged`.
 */
export async function connectPublished(
  passport: PublishedPassport,
  email: string,
): Promise<{
  provider: EIP1193Provider & { isPassport: true }
  accounts: string[]
  changes: unknown[]
}> {
  await signIn(passport, email)
  const provider = await passport.connectEvm({ announceProvider: false })
  const changes: unknown[] = []
  provider.on('accountsChanged', (accounts: unknown) => changes.push(accounts))
  const accounts = (await provider.request({
    method: 'eth_requestAccounts',
  })) as string[]
  return { provider, accounts, changes }
}
