/** Signing methods: `personal_sign`, `eth_signTypedData` and `eth_signTypedData_v4`. */
import { personalSign, signTypedData } from '../messages.js'
import type { Routes } from './route.js'

export const signingRoutes = {
  personal_sign: {
    account: true,
    popup: true,
    handler: (context, { params, wallet, handle }) =>
      personalSign(context, wallet, params, handle),
  },
  eth_signTypedData: {
    account: true,
    popup: true,
    handler: (context, { params, wallet, handle }) =>
      signTypedData(context, wallet, params, handle),
  },
  eth_signTypedData_v4: {
    account: true,
    popup: true,
    handler: (context, { params, wallet, handle }) =>
      signTypedData(context, wallet, params, handle),
  },
} satisfies Routes
