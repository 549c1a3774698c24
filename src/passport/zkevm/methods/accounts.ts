/**
 * Account methods: `eth_requestAccounts` (sign in and register when
 * needed) and `eth_accounts` (silent).
 */
import type { Address } from 'viem'
import { messages, ProviderError, ProviderErrorCode } from '../errors.js'
import {
  isZkEvmUser,
  registerZkEvmUser,
  silentWallet,
} from '../registration.js'
import type { Routes } from './route.js'

export const accountRoutes = {
  eth_requestAccounts: {
    async handler(context) {
      let wallet = await silentWallet(context)
      if (!wallet) {
        const user =
          (await context.session.getUser()) ?? (await context.session.login())
        if (!user)
          throw new ProviderError(
            ProviderErrorCode.UNAUTHORIZED,
            messages.notAuthenticated,
          )
        const registered = isZkEvmUser(user)
          ? user
          : await registerZkEvmUser(context)
        wallet = registered.zkEvm.ethAddress as Address
      }
      context.state.address = wallet
      context.emit('accountsChanged', [wallet])
      context.startSessionActivity(wallet)
      return [wallet]
    },
  },
  eth_accounts: {
    async handler(context) {
      const wallet = await silentWallet(context)
      context.state.address = wallet
      return wallet ? [wallet] : []
    },
  },
} satisfies Routes
