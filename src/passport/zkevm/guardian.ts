/**
 * The guardian's checks of each transaction and message, and what the
 * provider does with its verdict: go on, ask the player in the confirmation
 * popup, show the unavailable page (HTTP 403), or refuse (bridge mode,
 * where no popup can open). The StarkEx layer's transactions go through
 * the same verdicts ({@link checkStarkExTransaction}).
 */
import type { Address } from 'viem'
import { ApiError } from '../../api/ApiErrors.js'
import type { GuardianApi } from '../../api/mr/guardian.generated.js'
import type {
  EIP712Message,
  MessageEvaluationResponse,
  TransactionEvaluationRequest,
  TransactionEvaluationResponse,
} from '../../api/mr/models.generated.js'
import * as RpcErrors from '../../core/RpcErrors.js'
import * as Relayer from '../wire/relayer.js'
import type { MetaTransaction } from '../wire/sequence.js'
import { chainType as starkExChainType } from '../wire/starkex.js'
import type { Context } from './context.js'
import {
  describe,
  internalError,
  messages,
  serviceUnavailable,
} from './errors.js'
import type { ConfirmationHandle } from './seams.js'

/** Evaluates a transaction and, when the guardian asks, has the player confirm it. */
export async function checkTransaction(
  context: Context,
  parameters: {
    wallet: Address
    chainId: number
    nonce: bigint
    transactions: readonly MetaTransaction[]
    /** The popup; absent for background transactions. */
    handle: ConfirmationHandle | undefined
    /** Custody work in flight the popup waits for (see {@link confirmWhenAsked}). */
    inFlight?: Promise<unknown> | undefined
  },
): Promise<void> {
  const { wallet, chainId, nonce, transactions, handle, inFlight } = parameters
  let evaluation: TransactionEvaluationResponse
  try {
    // The route's `{id}` is the kind of transaction: `evm` for zkEVM.
    const answer = await context.api.guardian.evaluateTransaction({
      id: 'evm',
      transactionEvaluationRequest: {
        chainType: 'evm',
        chainId: Relayer.caip2(chainId),
        transactionData: {
          nonce: nonce.toString(),
          userAddress: wallet,
          metaTransactions: transactions.map((tx) => ({
            delegateCall: tx.delegateCall,
            revertOnError: tx.revertOnError,
            gasLimit: tx.gasLimit.toString(),
            target: tx.target,
            value: tx.value.toString(),
            data: tx.data,
          })),
        },
      },
    })
    evaluation = verdictOf(answer.data)
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) {
      await handle?.unavailable()
      throw serviceUnavailable({ cause: error })
    }
    if (
      error instanceof ApiError &&
      error.status === 422 &&
      context.config.crossSdkBridgeEnabled
    )
      throw RpcErrors.fromCode(-32015, {
        message: `Transaction will revert: ${describe(error)}`,
        cause: error,
      })
    throw internalError(
      `Transaction failed to validate with error: ${describe(error)}`,
      { cause: error },
    )
  }
  const { transactionId } = evaluation
  await confirmWhenAsked(context, {
    handle,
    inFlight,
    required: evaluation.confirmationRequired,
    confirm:
      transactionId === undefined
        ? undefined
        : (open) => open.transaction({ transactionId, wallet, chainId }),
    rejected: messages.transactionRejected,
  })
}

/** Evaluates a message (ERC-191 text or EIP-712 data) and has it confirmed when asked. */
export async function checkMessage(
  context: Context,
  parameters: {
    wallet: Address
    chainId: number
    handle: ConfirmationHandle | undefined
    /** Custody work in flight the popup waits for (see {@link confirmWhenAsked}). */
    inFlight?: Promise<unknown> | undefined
  } & (
    | { messageType: 'erc191'; payload: string }
    | { messageType: 'eip712'; payload: unknown }
  ),
): Promise<void> {
  const { wallet, chainId, handle, messageType, inFlight } = parameters
  let evaluation: MessageEvaluationResponse
  try {
    const { guardian } = context.api
    const answer =
      parameters.messageType === 'erc191'
        ? await guardian.evaluateErc191Message({
            eRC191MessageEvaluationRequest: {
              chainID: Relayer.caip2(chainId),
              payload: parameters.payload,
            },
          })
        : // The typed-data route takes the chain id as plain decimal text.
          await guardian.evaluateMessage({
            messageEvaluationRequest: {
              chainID: String(chainId),
              payload: parameters.payload as EIP712Message,
            },
          })
    evaluation = verdictOf(answer.data)
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) {
      await handle?.unavailable()
      throw serviceUnavailable({ cause: error })
    }
    throw internalError(
      `Message failed to validate with error: ${describe(error)}`,
      { cause: error },
    )
  }
  const { messageId } = evaluation
  await confirmWhenAsked(context, {
    handle,
    inFlight,
    required: evaluation.confirmationRequired,
    confirm:
      messageId === undefined
        ? undefined
        : (open) => open.message({ messageId, wallet, messageType }),
    rejected: messages.signatureRejected,
  })
}

/** The popup as a StarkEx transaction uses it (`confirmation.ts`'s handle). */
export type StarkExConfirmationHandle = Pick<
  ConfirmationHandle,
  'unavailable' | 'close'
> & {
  /** Shows the StarkEx transaction page; resolves the player's answer. */
  starkExTransaction(parameters: {
    transactionId: string
    wallet: string
  }): Promise<boolean>
}

/** What {@link checkStarkExTransaction} needs. */
export type StarkExGuardianContext = {
  config: { crossSdkBridgeEnabled: boolean }
  /** The guardian, sending the StarkEx player's access token. */
  guardian: GuardianApi
  /**
   * Lookups of the transaction after the first, and the wait before each,
   * ms. @default 3 at 1000 (the published retry defaults)
   */
  retries?: number | undefined
  retryInterval?: number | undefined
}

/** The text when the guardian never learns of a StarkEx transaction (published). */
export const starkExTransactionMissing = 'Transaction does not exist'

/**
 * Has the guardian check a StarkEx transaction by its payload hash, as the
 * published 2.14.0 does: the transaction is looked up until the guardian
 * knows it (it learns of it from the exchange's signable answer), then
 * evaluated; when the guardian asks, the player answers on the popup's
 * StarkEx transaction page (2.14.0 rejected at once there, its popup never
 * having opened); when it does not, the loading popup closes (2.14.0 left
 * it open). A 403 shows the unavailable page and is 'Service unavailable';
 * in the game bridge a transaction needing confirmation is refused.
 */
export async function checkStarkExTransaction(
  context: StarkExGuardianContext,
  parameters: {
    payloadHash: string
    /** The player's StarkEx Ethereum address, shown on the page. */
    wallet: string
    handle: StarkExConfirmationHandle
  },
): Promise<void> {
  const { guardian, retries = 3, retryInterval = 1000 } = context
  const { payloadHash, wallet, handle } = parameters
  let evaluation: TransactionEvaluationResponse
  try {
    for (let attempt = 0; ; attempt++) {
      let missing: unknown
      try {
        const { data } = await guardian.getTransactionByID({
          transactionID: payloadHash,
          // The spec (2.24.8's) lists only 'evm'; 2.14.0 sends 'starkex'.
          chainType: starkExChainType as unknown as 'evm',
        })
        if (data?.id) break
      } catch (error) {
        if (error instanceof ApiError && error.status === 403) throw error
        missing = error
      }
      if (attempt >= retries) {
        if (
          missing === undefined ||
          (missing instanceof ApiError && missing.status === 404)
        )
          throw new Error(starkExTransactionMissing, { cause: missing })
        throw missing
      }
      await new Promise((resolve) => setTimeout(resolve, retryInterval))
    }
    const answer = await guardian.evaluateTransaction({
      // The route's `{id}` is the payload hash; the body names the layer.
      // The spec's schema describes only the zkEVM body, so it is cast.
      id: payloadHash,
      transactionEvaluationRequest: {
        chainType: starkExChainType,
      } as unknown as TransactionEvaluationRequest,
    })
    evaluation = verdictOf(answer.data)
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) {
      await handle.unavailable()
      throw serviceUnavailable({ cause: error })
    }
    throw error
  }
  await confirmWhenAsked(context, {
    handle,
    required: evaluation.confirmationRequired,
    confirm: (open) =>
      open.starkExTransaction({ transactionId: payloadHash, wallet }),
    rejected: messages.transactionRejected,
  })
}

/**
 * The evaluation an answer carries. An answer that does not say whether a
 * confirmation is required is a failed evaluation, never a pass.
 */
function verdictOf<evaluation extends { confirmationRequired: boolean }>(
  data: evaluation,
): evaluation {
  if (typeof data?.confirmationRequired !== 'boolean')
    throw new Error('The guardian answered no evaluation.')
  return data
}

/**
 * What follows an evaluation, for transactions and messages alike: nothing
 * asked closes the popup; in the game bridge (no popup possible) a request
 * the guardian asks about is refused; otherwise the player answers in the
 * popup, and anything but a confirmation is a rejection (-32003).
 *
 * The page to confirm is shown only once the custody key's signature, made
 * side by side with the evaluation, is back (`inFlight`): that signature is
 * the iframe wallet's answer by `postMessage`, and headless Chromium was
 * seen never to deliver one that reached the page while it was inside the
 * `window.open` of an on-demand popup, leaving the request waiting for good.
 * The signature takes milliseconds, far inside the click's activation.
 */
async function confirmWhenAsked<handle extends { close(): void }>(
  context: { config: { crossSdkBridgeEnabled: boolean } },
  parameters: {
    handle: handle | undefined
    /** Settles when no custody answer is still on its way. */
    inFlight?: Promise<unknown> | undefined
    required: boolean
    confirm: ((handle: handle) => Promise<boolean>) | undefined
    rejected: string
  },
): Promise<void> {
  const { handle, inFlight, required, confirm, rejected } = parameters
  if (!required) {
    handle?.close()
    return
  }
  if (context.config.crossSdkBridgeEnabled)
    throw new RpcErrors.TransactionRejectedError({
      message: messages.notSupportedInBridge,
    })
  // Its failure is the caller's to report, where it is awaited too.
  await inFlight?.catch(() => {})
  const confirmed = handle && confirm ? await confirm(handle) : false
  if (!confirmed)
    throw new RpcErrors.TransactionRejectedError({ message: rejected })
}
