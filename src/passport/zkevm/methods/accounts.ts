/**
 * Account methods: `eth_requestAccounts` (sign in and register when
 * needed) and `eth_accounts` (silent).
 */
import type { Address } from 'viem'
import * as RpcErrors from '../../../core/RpcErrors.js'
import type { Context } from '../context.js'
import { messages } from '../errors.js'
import { isZkEvmUser, registerZkEvmUser } from '../registration.js'
import type { Routes } from './route.js'

/** The in-flight sign-in of each provider: parallel requests share it. */
const requesting = new WeakMap<Context, Promise<Address[]>>()

export const accountRoutes = {
  eth_requestAccounts: {
    handler(context) {
      let pending = requesting.get(context)
      if (!pending) {
        pending = requestAccounts(context).finally(() =>
          requesting.delete(context),
        )
        requesting.set(context, pending)
      }
      return pending
    },
  },
  eth_accounts: {
    async handler(context) {
      const wallet = await context.accounts.read()
      return wallet ? [wallet] : []
    },
  },
} satisfies Routes

/**
 * Signs in when needed (the login popup), registers a player without a
 * wallet, then announces the wallet and starts session activity.
 */
async function requestAccounts(context: Context): Promise<Address[]> {
  let wallet = await context.accounts.read()
  if (!wallet) {
    const user =
      (await context.session.getUser()) ?? (await context.session.login())
    if (!user)
      throw new RpcErrors.UnauthorizedError({
        message: messages.notAuthenticated,
      })
    const registered = isZkEvmUser(user)
      ? user
      : await registerZkEvmUser(context)
    wallet = registered.zkEvm.ethAddress as Address
  }
  context.accounts.set(wallet)
  context.startSessionActivity(wallet)
  return [wallet]
}
