/**
 * Read-only methods, answered by the chain node (batched JSON-RPC over
 * HTTP) without sign-in. The block tag defaults to `latest` where the
 * method takes one; `eth_chainId` is the node's, as hex.
 */
import { numberToHex } from 'viem'
import { getChainId } from '../chain.js'
import type { Context } from '../context.js'
import type { Routes } from './route.js'

/** The methods passed through, with the index of their block tag. */
export const passThrough = {
  eth_getBalance: 1,
  eth_getCode: 1,
  eth_getTransactionCount: 1,
  eth_getStorageAt: 2,
  eth_call: 1,
  eth_estimateGas: 1,
  eth_gasPrice: undefined,
  eth_blockNumber: undefined,
  eth_getBlockByHash: undefined,
  eth_getBlockByNumber: undefined,
  eth_getTransactionByHash: undefined,
  eth_getTransactionReceipt: undefined,
} as const

function forward(method: keyof typeof passThrough) {
  return async (context: Context, { params }: { params: unknown }) => {
    const args = Array.isArray(params) ? [...params] : []
    const tagIndex = passThrough[method]
    if (tagIndex !== undefined && args.length <= tagIndex) {
      while (args.length < tagIndex) args.push(undefined)
      args.push('latest')
    }
    return context.rpc.read({ method, params: args })
  }
}

export const readOnlyRoutes = {
  eth_chainId: {
    async handler(context) {
      const chainId = await getChainId(context.rpc)
      context.observeChainId(chainId)
      return numberToHex(chainId)
    },
  },
  ...(Object.fromEntries(
    Object.keys(passThrough).map((method) => [
      method,
      { handler: forward(method as keyof typeof passThrough) },
    ]),
  ) as Routes),
} satisfies Routes
