/**
 * `im_signEjectionTransaction`: the player's signed `execute` of one call,
 * with a nonce and chain they choose, for submission outside the relayer
 * (e.g. to leave the platform). No fee, guardian, relayer or popup.
 */
import type { Address, Hex } from 'viem'
import * as Relayer from '../wire/relayer.js'
import {
  encodeExecute,
  metaTransaction,
  subDigest,
  transactionSignature,
  transactionsDigest,
} from '../wire/sequence.js'
import type { Context } from './context.js'
import { invalidParams, messages } from './errors.js'

/** The ejection transaction: the wallet, the calldata and the CAIP-2 chain. */
export type EjectionTransaction = { to: Address; data: Hex; chainId: string }

/** Signs the ejection transaction of `params` (exactly one object). */
export async function signEjectionTransaction(
  context: Context,
  wallet: Address,
  params: unknown,
): Promise<EjectionTransaction> {
  if (!Array.isArray(params) || params.length !== 1)
    throw invalidParams(messages.ejectionParams)
  const tx = params[0] as {
    to?: string
    data?: string
    value?: string | number | bigint
    nonce?: string | number | bigint
    chainId?: string | number | bigint
  } | null
  for (const field of ['to', 'nonce', 'chainId'] as const)
    if (tx?.[field] === undefined || tx[field] === null || tx[field] === '')
      throw invalidParams(
        `im_signEjectionTransaction requires a "${field}" field`,
      )
  const { to, data, value, nonce, chainId } = tx as Required<
    NonNullable<typeof tx>
  >
  const chain = Number(BigInt(String(chainId).replace(/^eip155:/, '')))
  const transactions = [
    metaTransaction({
      to: to as Address,
      data: (data ?? '0x') as Hex,
      value: value === undefined ? 0n : BigInt(value),
    }),
  ]
  const encodedNonce = BigInt(nonce)
  const digest = subDigest({
    chainId: chain,
    wallet,
    digest: transactionsDigest(encodedNonce, transactions),
  })
  const signature = await context.signer().signMessage({ raw: digest })
  return {
    to: wallet,
    data: encodeExecute({
      transactions,
      nonce: encodedNonce,
      signature: transactionSignature(signature),
    }),
    chainId: Relayer.caip2(chain),
  }
}
