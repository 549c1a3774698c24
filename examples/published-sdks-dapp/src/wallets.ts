import { Passport, type PassportModuleConfiguration } from '@imtbl/passport'
import { Magic } from 'magic-sdk'
import type { Info } from './emulator.js'

/**
 * The published magic-sdk against the emulator: its documented `endpoint`
 * option names the iframe wallet's provider, `network` the emulator's chain.
 */
export function createMagic(info: Info) {
  return new Magic(info.magic.apiKey, {
    endpoint: info.magic.endpoint,
    network: { rpcUrl: info.rpcUrl, chainId: info.chainId },
  })
}

/**
 * `Environment.SANDBOX` of `@imtbl/config` (which `@imtbl/passport` depends
 * on, and a dApp usually imports it from there or from `@imtbl/sdk`); named
 * by its value here, so that the dApp imports only what it declares.
 */
const sandbox =
  'sandbox' as PassportModuleConfiguration['baseConfig']['environment']

/**
 * The published @imtbl/passport against the emulator: its documented
 * `overrides` as the emulator prints them, and this dApp's own page as
 * `redirectUri` (the emulator's sign-in client accepts any loopback page;
 * the login popup lands there, so it calls `loginCallback()`).
 */
export function createPassport(info: Info) {
  return new Passport({
    baseConfig: { environment: sandbox },
    clientId: info.passport.clientId,
    redirectUri: new URL('/redirect.html', location.origin).href,
    // The SDK has no default scope: without offline_access no refresh
    // token, without transact no wallet.
    scope: 'openid profile email offline_access transact',
    audience: 'platform_api',
    // The embedded login prompt is a hosted page of the real service; this
    // documented option opens the login popup directly.
    popupOverlayOptions: { disableHeadlessLoginPromptOverlay: true },
    // The SDK signs messages with the wallet's ERC-1271 signature and no
    // ERC-6492 wrapper, which verifies only once the wallet has code; this
    // documented option deploys the wallet before its first signature.
    forceScwDeployBeforeMessageSignature: true,
    overrides: info.passport.overrides,
  })
}
