import { inject, vi } from 'vitest'
import type { Info } from '../../src/emulator/index.js'
import type { PassportOverrides } from './fixtures/publishedPassport.js'
import type { Opened } from './passportLogin.js'

/**
 * Browser-side helpers of the published @imtbl/passport's compatibility
 * tests: the emulator's JSON line and the `overrides` a dApp builds from
 * it, and an observer of the published SDK's login popup.
 */

/**
 * The emulator's `passport` record. `overrides` is the full set the
 * published SDK takes (its nine required domains and keys plus
 * `zkEvmChainId`, `magicTeeBasePath`), printed once the emulator serves the
 * platform API, relayer and key custody.
 */
export type PassportInfo = Info['passport'] & {
  overrides?: PassportOverrides | undefined
}

/** The emulator's JSON line. */
export const info = inject('emulatorInfo')

/** Its `passport` record. */
export const passportInfo: PassportInfo = info.passport

/**
 * Whether the emulator serves the zkEVM wallet's backends (platform API,
 * relayer, key custody, confirmation pages): it then prints them in
 * `passport.overrides`. The wallet tests wait for it.
 */
export const hasZkEvmBackends = Boolean(passportInfo.overrides?.relayerUrl)

/**
 * The `overrides` a dApp passes to the published SDK against this emulator.
 * Until the emulator prints them, only the identity provider and the chain
 * are real: the rest point at a closed port, which the sign-in flows never
 * call.
 */
export const overrides: PassportOverrides =
  passportInfo.overrides ?? signInOnlyOverrides()

function signInOnlyOverrides(): PassportOverrides {
  const closed = 'http://127.0.0.1:9'
  return {
    authenticationDomain: passportInfo.authenticationDomain,
    passportDomain: closed,
    magicPublishableApiKey: 'pk_live_unused',
    magicProviderId: 'unused',
    zkEvmRpcUrl: info.rpcUrl,
    relayerUrl: closed,
    indexerMrBasePath: closed,
    orderBookMrBasePath: closed,
    passportMrBasePath: closed,
    zkEvmChainId: info.chainId,
  }
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
