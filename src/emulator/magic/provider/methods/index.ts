/**
 * The method router: one table from method name to handler, built from the
 * method groups. Find a method here, then its handler in one hop:
 *
 * - auth.ts — logins (email OTP, SMS, magic link, credential, OIDC)
 * - user.ts — logged-in check, logout, info, id tokens, authorization token
 * - mfa.ts — enable / disable MFA
 * - account.ts — update email, settings, recovery factor, account recovery
 * - wallet.ts — wallet screens, reveal key, UI login, user-info consent
 * - nft.ts — NFT purchase, checkout, transfer
 * - eth.ts — accounts, signing, transactions; anything else is proxied to
 *   the chain
 * - sponsor.ts — gasless transactions (EIP-7702 delegate, sponsor pays the
 *   gas), EIP-7702 authorization signing and type-4 transactions
 */

import { methods } from '../../../../magic/wire/methods.js'
import type { Handler } from '../context.js'
import { failures } from '../errors.js'
import { accountHandlers } from './account.js'
import { authHandlers } from './auth.js'
import { ethHandlers, proxy } from './eth.js'
import { mfaHandlers } from './mfa.js'
import { nftHandlers } from './nft.js'
import { sponsorHandlers } from './sponsor.js'
import { userHandlers } from './user.js'
import { walletHandlers } from './wallet.js'

/** Every handled method → its handler. */
export const handlers: Readonly<Record<string, Handler>> = {
  ...authHandlers,
  ...userHandlers,
  ...mfaHandlers,
  ...accountHandlers,
  ...walletHandlers,
  ...nftHandlers,
  ...ethHandlers,
  ...sponsorHandlers,
  [methods.intermediaryEvent]: async () => {
    throw failures.invalidParams(
      'Intermediary events go to POST /v1/flow/:flowId/intermediary.',
    )
  },
}

/** The handler of `method`; unknown methods are proxied to the chain. */
export function handlerOf(method: string): Handler {
  return Object.hasOwn(handlers, method) ? (handlers[method] as Handler) : proxy
}
