/**
 * EIP-5792 methods. `wallet_sendCalls` sends the whole batch as ONE
 * meta-transaction (the wallet's `execute` of several calls, which reverts
 * as a whole), so every batch is atomic; its id is the relayer's id of
 * that transaction, which `wallet_getCallsStatus` looks up.
 */
import { type Address, type Hex, isAddressEqual, numberToHex } from 'viem'
import * as RpcErrors from '../../../core/RpcErrors.js'
import * as Relayer from '../../wire/relayer.js'
import { getTransactionReceipt } from '../chain.js'
import { invalidParams } from '../errors.js'
import { relayTransactions, settle } from '../transactions.js'
import type { Routes } from './route.js'

/** EIP-5792 status codes. */
export const callsStatus = {
  pending: 100,
  confirmed: 200,
  offchainFailure: 400,
  reverted: 500,
  partiallyReverted: 600,
} as const

type SendCallsParameters = {
  version?: string
  id?: string
  from?: string
  chainId?: string
  atomicRequired?: boolean
  calls?: { to?: string; data?: string; value?: string }[]
  capabilities?: Record<string, { optional?: boolean } | undefined>
}

export const walletRoutes = {
  wallet_sendCalls: {
    account: true,
    popup: true,
    async handler(context, { params, wallet, handle }) {
      const [request] = (Array.isArray(params) ? params : []) as [
        SendCallsParameters?,
      ]
      if (!request || !Array.isArray(request.calls) || !request.calls.length)
        throw invalidParams('wallet_sendCalls requires a non-empty calls list')
      const chainId = await context.chainId()
      if (request.chainId !== undefined && Number(request.chainId) !== chainId)
        throw new RpcErrors.UnsupportedChainIdError({
          message: `Unsupported chain id ${request.chainId}, expected ${numberToHex(chainId)}`,
        })
      if (request.from && !isAddressEqual(request.from as Address, wallet))
        throw new RpcErrors.UnauthorizedError({
          message: 'Unauthorised - the from address is not the wallet',
        })
      for (const [name, capability] of Object.entries(
        request.capabilities ?? {},
      ))
        if (!capability?.optional)
          throw new RpcErrors.UnsupportedNonOptionalCapabilityError({
            message: `Unsupported non-optional capability: ${name}`,
          })
      const relayed = await relayTransactions(context, wallet, request.calls, {
        handle,
        method: 'wallet_sendCalls',
      })
      // The dapp reads the outcome with wallet_getCallsStatus, or never;
      // meanwhile the batch's nonce is settled as a send's is, so that a
      // batch the relayer gives up on does not keep the wallet's next nonce
      // (every later send would be signed for one the wallet never reaches).
      settle(context, wallet, relayed).catch(() => {})
      return { id: relayed.relayerId }
    },
  },
  wallet_getCallsStatus: {
    async handler(context, { params }) {
      const [id] = (Array.isArray(params) ? params : []) as [unknown]
      if (typeof id !== 'string' || !id)
        throw invalidParams('wallet_getCallsStatus requires a batch id')
      const chainId = await context.chainId()
      let transaction: Relayer.RelayerTransaction
      try {
        transaction = await context.relayer.getTransaction(id)
      } catch (cause) {
        throw new RpcErrors.UnknownBundleIdError({
          message: 'Unknown bundle id',
          cause,
        })
      }
      const base = {
        version: '2.0.0',
        id,
        chainId: numberToHex(chainId),
        atomic: true,
      }
      const { status, hash } = transaction
      if (
        status === Relayer.statuses.failed ||
        status === Relayer.statuses.cancelled
      )
        return { ...base, status: callsStatus.offchainFailure }
      if (status === Relayer.statuses.reverted && !hash)
        return { ...base, status: callsStatus.reverted }
      if (!hash) return { ...base, status: callsStatus.pending }
      const receipt = await getTransactionReceipt(
        context.rpc,
        hash as Hex,
      ).catch(() => null)
      if (!receipt)
        return {
          ...base,
          status:
            status === Relayer.statuses.reverted
              ? callsStatus.reverted
              : callsStatus.pending,
        }
      const success = Number(receipt.status) === 1
      return {
        ...base,
        status: success ? callsStatus.confirmed : callsStatus.reverted,
        receipts: [
          {
            logs: receipt.logs.map((log) => ({
              address: log.address,
              data: log.data,
              topics: log.topics,
            })),
            status: success ? '0x1' : '0x0',
            blockHash: receipt.blockHash,
            blockNumber: numberToHex(BigInt(receipt.blockNumber)),
            gasUsed: numberToHex(BigInt(receipt.gasUsed)),
            transactionHash: receipt.transactionHash,
          },
        ],
      }
    },
  },
  wallet_getCapabilities: {
    async handler(context, { params }) {
      const [, chainIds] = (Array.isArray(params) ? params : []) as [
        unknown,
        unknown,
      ]
      const chainId = numberToHex(await context.chainId())
      // Only the chains asked for, when a list is given (EIP-5792).
      if (
        Array.isArray(chainIds) &&
        !chainIds.some(
          (id) => typeof id === 'string' && Number(id) === Number(chainId),
        )
      )
        return {}
      return { [chainId]: { atomic: { status: 'supported' } } }
    },
  },
} satisfies Routes
