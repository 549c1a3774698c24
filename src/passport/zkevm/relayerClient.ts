/**
 * The relayer client: one JSON-RPC route (`POST {relayerUrl}/v1/transactions`
 * with the player's access token), the fee quote, the co-signer's message
 * signatures, and the status polling of a relayed transaction, with the
 * published SDK's statuses, limits and error texts.
 */
import type { Address, Hex } from 'viem'
import * as Http from '../../core/Http.js'
import * as RpcErrors from '../../core/RpcErrors.js'
import * as Relayer from '../wire/relayer.js'
import { failedToSubmit, internalError, messages } from './errors.js'

/** What the relayer client needs. */
export type RelayerOptions = {
  relayerUrl: string
  /** The player's access token (refreshed when stale). */
  getAccessToken: () => Promise<string>
  /** Wait between status polls, ms. @default 1000 */
  pollInterval?: number | undefined
  /** Status polls after the first before giving up. @default 30 */
  pollRetries?: number | undefined
}

/** The relayer client returned by {@link createRelayerClient}. */
export type RelayerClient = ReturnType<typeof createRelayerClient>

/** Creates a relayer client. */
export function createRelayerClient(options: RelayerOptions) {
  const { relayerUrl, getAccessToken } = options
  const pollInterval = options.pollInterval ?? 1000
  const pollRetries = options.pollRetries ?? 30
  const url = `${relayerUrl.replace(/\/$/, '')}${Relayer.path}`
  const send = Http.fetcher()
  let id = 0

  async function call<result>(method: string, params: unknown[]) {
    const token = await getAccessToken()
    // Through the core fetch helper: a 429 is answered before the relayer
    // acts on the request (RFC 6585), so it is safe to send again, a
    // transaction included. Any other failure is one attempt, as published
    // (the status polling is the relayer's own retry), and fails as fetch.
    const response = await send(url, {
      method: 'POST',
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        Authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({ id: ++id, jsonrpc: '2.0', method, params }),
    })
    const text = await response.text()
    let body:
      | {
          result?: result
          error?: { code?: number; message?: string; data?: unknown }
        }
      | undefined
    let valid = response.ok
    if (valid && text)
      try {
        body = JSON.parse(text)
      } catch {
        valid = false
      }
    // A refusal, or an answer that is not JSON: the published text.
    if (!valid)
      throw internalError(
        `Relayer HTTP error: ${response.status}. Content: ${text}`,
        {
          cause: new Http.HttpError({ status: response.status, url, text }),
        },
      )
    // The relayer's JSON-RPC error, as it gave it (the published SDK
    // throws the object as is): its code and text.
    if (body?.error)
      throw RpcErrors.from({
        code: Number.isSafeInteger(body.error.code)
          ? body.error.code
          : RpcErrors.InvalidInputError.code,
        message: body.error.message ?? 'Relayer error',
        ...(body.error.data === undefined ? {} : { data: body.error.data }),
      })
    return body?.result as result
  }

  return {
    /** Submits `execute` calldata to the wallet; resolves the relayer's id. */
    sendTransaction(wallet: Address, data: Hex, chainId: number) {
      return call<string>(Relayer.methods.sendTransaction, [
        {
          to: wallet,
          data,
          chainId: Relayer.caip2(chainId),
        } satisfies Relayer.SendTransactionParams,
      ])
    },
    /** The relayed transaction's status. */
    getTransaction(relayerId: string) {
      return call<Relayer.RelayerTransaction>(
        Relayer.methods.getTransactionByHash,
        [relayerId],
      )
    },
    /** The fee options of a batch. */
    getFeeOptions(wallet: Address, data: Hex, chainId: number) {
      return call<Relayer.FeeOption[]>(Relayer.methods.getFeeOptions, [
        {
          userAddress: wallet,
          data,
          chainId: Relayer.caip2(chainId),
        } satisfies Relayer.FeeOptionsParams,
      ])
    },
    /** The co-signer's part of an ERC-191 signature (bare hex). */
    sign(wallet: Address, message: string, chainId: number) {
      return call<string>(Relayer.methods.sign, [
        {
          chainId: Relayer.caip2(chainId),
          address: wallet,
          message,
        } satisfies Relayer.SignParams,
      ])
    },
    /** The co-signer's part of an EIP-712 signature (bare hex). */
    signTypedData(wallet: Address, payload: unknown, chainId: number) {
      return call<string>(Relayer.methods.signTypedData, [
        {
          chainId: Relayer.caip2(chainId),
          address: wallet,
          eip712Payload: payload,
        } satisfies Relayer.SignTypedDataParams,
      ])
    },
    /**
     * Polls until the transaction leaves `PENDING`, as the published SDK
     * does: one request, then up to `pollRetries` more, `pollInterval`
     * apart, a failed poll counting as one still pending. `SUBMITTED` or
     * `SUCCESSFUL` resolve the chain's hash; any other status is -32000
     * 'Transaction failed to submit with status X. Error message: …' with
     * the relayer's transaction (its hash, when it has one, and its status
     * message) as `data`; still pending after the last retry is -32000
     * 'transaction hash not generated in time'.
     */
    async waitForHash(relayerId: string): Promise<Hex> {
      let failure: unknown
      for (let attempt = 0; attempt <= pollRetries; attempt++) {
        if (attempt > 0) await sleep(pollInterval)
        let transaction: Relayer.RelayerTransaction
        try {
          transaction = await this.getTransaction(relayerId)
        } catch (error) {
          failure = error
          continue
        }
        const { status } = transaction
        if (
          status === Relayer.statuses.submitted ||
          status === Relayer.statuses.successful
        )
          return transaction.hash as Hex
        if (status !== Relayer.statuses.pending)
          throw new RpcErrors.InvalidInputError({
            message: failedToSubmit(status, transaction.statusMessage),
            data: transaction,
          })
        failure = undefined
      }
      throw new RpcErrors.InvalidInputError({
        message: messages.hashTimeout,
        cause: failure,
      })
    },
  }
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
