/**
 * Transaction methods: `eth_sendTransaction`, `im_signEjectionTransaction`
 * and `im_addSessionActivity`.
 */
import { signEjectionTransaction } from '../ejection.js'
import { invalidParams } from '../errors.js'
import { type Call, sendTransactions } from '../transactions.js'
import type { Routes } from './route.js'

export const transactionRoutes = {
  eth_sendTransaction: {
    account: true,
    popup: true,
    async handler(context, { params, wallet, handle }) {
      const [transaction] = (Array.isArray(params) ? params : []) as [Call?]
      if (!transaction || typeof transaction !== 'object')
        throw invalidParams('eth_sendTransaction requires a "to" field')
      return sendTransactions(context, wallet, [transaction], { handle })
    },
  },
  im_signEjectionTransaction: {
    account: true,
    handler: (context, { params, wallet }) =>
      signEjectionTransaction(context, wallet, params),
  },
  im_addSessionActivity: {
    async handler(context) {
      const wallet = context.accounts.address
      if (wallet) context.startSessionActivity(wallet)
      return null
    },
  },
} satisfies Routes
