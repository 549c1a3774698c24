/**
 * `magic.wallet`: the wallet UI (connect, wallet home, address, balances,
 * send, on-ramp, NFTs), gasless transactions, and EIP-7702 authorization
 * and transactions.
 */
import * as Rpc from '../../core/Rpc.js'
import { type Client, type Handle, request } from '../request.js'
import type * as Events from '../wire/events.js'
import * as Methods from '../wire/methods.js'

/** `connectWithUI` options. */
export type ConnectWithUIOptions = {
  autoPromptThirdPartyWallets?: boolean | undefined
}

/** `showUI` options. */
export type ShowUIConfiguration = {
  onramperParams?: Record<string, string> | undefined
}

/** `sign7702Authorization` parameters. */
export type Sign7702AuthorizationRequest = {
  /** The implementation the account delegates to. */
  contractAddress: string
  /** 0 for every chain. */
  chainId: number
  nonce?: number | undefined
}

/** A signed EIP-7702 authorization. */
export type Sign7702AuthorizationResponse = {
  contractAddress: string
  chainId: number
  nonce: number
  v: number
  r: string
  s: string
  /** r ‖ s ‖ v as one hex signature. */
  signature?: string | undefined
}

/** `send7702Transaction` parameters. */
export type Send7702TransactionRequest = {
  to: string
  data?: string | undefined
  value?: string | undefined
  gas?: string | undefined
  maxFeePerGas?: string | undefined
  maxPriorityFeePerGas?: string | undefined
  authorizationList: readonly Sign7702AuthorizationResponse[]
}

/** `send7702Transaction` result. */
export type Send7702TransactionResponse = { transactionHash: string }

/**
 * `sendGaslessTransaction`'s transaction (ethers-like). Numeric fields may
 * be bigints: they reach the iframe by structured clone.
 */
export type GaslessTransactionRequest = {
  type?: number | undefined
  to?: string | undefined
  from?: string | undefined
  nonce?: number | undefined
  gasLimit?: bigint | undefined
  gasPrice?: bigint | undefined
  maxPriorityFeePerGas?: bigint | undefined
  maxFeePerGas?: bigint | undefined
  data?: string | undefined
  value?: bigint | undefined
  chainId?: bigint | undefined
  accessList?: { address: string; storageKeys: string[] }[] | undefined
  customData?: unknown
}

/** `sendGaslessTransaction` result: the sponsor's relay request. */
export type GasApiResponse = {
  request_id: string
  state: string
  success: boolean
}

/** Events of `connectWithUI`. */
export type ConnectWithUIEvents =
  | typeof Events.connectIdTokenCreated
  | (typeof Events.connectWallet)[keyof typeof Events.connectWallet]

/** The `wallet` module. */
export type WalletModule = ReturnType<typeof create>

/** Builds the `wallet` module of a client. */
export function create(
  client: Client,
  thirdParty: {
    enabledWallets: Record<string, boolean>
    eventListeners: readonly {
      event: string
      callback: (payloadId: number | string) => unknown
    }[]
  },
) {
  const show = (method: string, params: unknown[] = []) =>
    request<boolean>(client, Rpc.createRequest(method, params))
  return {
    /** Opens the login UI; resolves to the connected accounts. */
    connectWithUI(
      options?: ConnectWithUIOptions,
    ): Handle<string[], ConnectWithUIEvents> {
      const payload = Rpc.createRequest(Methods.login, [
        { enabledWallets: thirdParty.enabledWallets, ...options },
      ])
      const handle = request<string[], ConnectWithUIEvents>(client, payload)
      for (const { event, callback } of thirdParty.eventListeners)
        (handle.on as (event: string, listener: () => void) => unknown)(
          event,
          () => callback(payload.id),
        )
      return handle
    },
    /** Opens the wallet home. */
    showUI(config?: ShowUIConfiguration): Handle<boolean, 'disconnect'> {
      return show(Methods.showUi, [config])
    },
    /** Shows the wallet address (receive screen). */
    showAddress: (): Handle<boolean> => show(Methods.showAddress),
    /** Shows the token balances. */
    showBalances: (): Handle<boolean> => show(Methods.showBalances),
    /** Shows the send-tokens screen. */
    showSendTokensUI: (): Handle<boolean> => show(Methods.showSendTokensUi),
    /** Shows the fiat on-ramp. */
    showOnRamp: (): Handle<boolean> => show(Methods.showOnRamp),
    /** Shows the user's NFTs. */
    showNFTs: (): Handle<boolean> => show(Methods.showNfts),
    /** Signs an EIP-7702 authorization delegating the account. */
    sign7702Authorization(
      params: Sign7702AuthorizationRequest,
    ): Handle<Sign7702AuthorizationResponse> {
      return request(
        client,
        Rpc.createRequest(Methods.sign7702Authorization, [params]),
      )
    },
    /** Sends `transaction` from `address` with the gas paid by a sponsor. */
    sendGaslessTransaction(
      address: string,
      transaction: GaslessTransactionRequest,
    ): Handle<GasApiResponse> {
      return request(
        client,
        Rpc.createRequest(Methods.sendGaslessTransaction, [
          address,
          transaction,
        ]),
      )
    },
    /** Sends an EIP-7702 (type 4) transaction. */
    send7702Transaction(
      params: Send7702TransactionRequest,
    ): Handle<Send7702TransactionResponse> {
      return request(
        client,
        Rpc.createRequest(Methods.send7702Transaction, [params]),
      )
    },
  }
}
