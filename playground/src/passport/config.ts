import {
  Passport,
  type PassportModuleConfiguration,
} from 'embedded-wallets/passport'
import type { PassportInfo } from '../emulator.js'

/** How a Passport instance logs out (`logoutMode`). */
export type LogoutMode = 'redirect' | 'silent'

/** The playground's two game wallets: one per logout mode. */
export type Passports = Readonly<Record<LogoutMode, Passport>>

/**
 * The game wallet's configuration against the emulator: the published
 * `PassportModuleConfiguration` with the emulator's own `overrides` (its
 * JSON line's `passport.overrides`: every domain, the chain, the custody
 * key and the wallet contracts, which let the wallet wrap its signatures in
 * ERC-6492 while it is not deployed yet), passed as printed.
 *
 * @param passport - `info.passport`.
 * @param logoutMode - `'redirect'` (leave the page) or `'silent'` (iframe).
 */
export function passportConfig(
  passport: PassportInfo,
  logoutMode: LogoutMode,
): PassportModuleConfiguration {
  return {
    baseConfig: { environment: 'sandbox' },
    clientId: passport.clientId,
    // The URIs of the JSON line: the playground's own pages (same origin as
    // the app, whose storage holds the pending request and the user).
    redirectUri: passport.redirectUri,
    logoutRedirectUri: passport.logoutRedirectUri,
    logoutMode,
    overrides: passport.overrides,
    // No popup flash on sends and signatures the guardian lets through: the
    // popup opens only when it asks the player to confirm.
    confirmationPopup: 'on-demand',
  }
}

/**
 * Creates the two game wallets. They share the signed-in user (it is stored
 * under the provider and client id), so either can sign in; they differ only
 * in how `logout()` ends the provider's session.
 */
export function createPassports(passport: PassportInfo): Passports {
  return {
    redirect: new Passport(passportConfig(passport, 'redirect')),
    silent: new Passport(passportConfig(passport, 'silent')),
  }
}

/** Which of the playground's game-wallet pages a path is, if any. */
export type PassportRoute = 'redirect' | 'logout'

/**
 * The game-wallet page at `pathname`: the paths of the JSON line's
 * `redirectUri` and `logoutRedirectUri`.
 */
export function passportRoute(
  pathname: string,
  passport: PassportInfo,
): PassportRoute | undefined {
  if (pathname === new URL(passport.redirectUri).pathname) return 'redirect'
  if (pathname === new URL(passport.logoutRedirectUri).pathname) return 'logout'
  return undefined
}

/**
 * The payload of a JWT, decoded for display only (the facade verifies the
 * tokens it receives). `undefined` when the token is not a readable JWT.
 */
export function decodeJwtPayload(
  token: string,
): Record<string, unknown> | undefined {
  const part = token.split('.')[1]
  if (!part) return undefined
  try {
    const base64 = part.replaceAll('-', '+').replaceAll('_', '/')
    const padded = base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')
    const bytes = Uint8Array.from(atob(padded), (char) => char.charCodeAt(0))
    const payload: unknown = JSON.parse(new TextDecoder().decode(bytes))
    return typeof payload === 'object' && payload !== null
      ? (payload as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}
