/**
 * `magic.nft`: NFT purchase, checkout and transfer. In third-party wallet
 * mode the checkout's transaction is sent by the connected wallet (see
 * `checkoutWithWallet` in ./thirdPartyWallets.ts).
 */
import * as Rpc from '../../core/Rpc.js'
import { type Client, type Handle, type Listener, request } from '../request.js'
import type * as Events from '../wire/events.js'
import * as Methods from '../wire/methods.js'

/** How an NFT flow ended. */
export type NFTResponse = {
  status: 'cancelled' | 'pending' | 'processed' | 'declined' | 'expired'
}

/** `purchase` parameters (passed through as they are). */
export type NFTPurchaseRequest = {
  nft: Record<string, string>
  identityPrefill: Record<string, unknown>
}

/** `checkout` parameters. */
export type NFTCheckoutRequest = {
  contractId: string
  tokenId: string
  name: string
  imageUrl: string
  quantity?: number | undefined
  walletAddress?: string | undefined
  isCryptoCheckoutEnabled?: boolean | undefined
}

/** `transfer` parameters. */
export type NFTTransferRequest = {
  tokenId: string
  contractAddress: string
  quantity?: number | undefined
  recipient?: string | undefined
}

/** Events of `checkout`. */
export type NFTCheckoutEvents = Events.NftCheckout

/** The `nft` module. */
export type NFTModule = ReturnType<typeof create>

/** Builds the `nft` module of a client. */
export function create(
  client: Client,
  thirdParty: {
    readonly isConnected: boolean
    /** Sends the checkout's transaction with the wallet (3PW mode only). */
    checkout(
      client: Client,
      payloadId: number | string,
      on: (event: string, listener: Listener) => unknown,
    ): void
  },
) {
  return {
    /** Buys an NFT with fiat. */
    purchase(
      options: NFTPurchaseRequest,
    ): Handle<NFTResponse & { errorMessage?: string | undefined }> {
      return request(client, Rpc.createRequest(Methods.nftPurchase, [options]))
    },

    /**
     * Checks out an NFT. `walletProvider` is `'web3modal'` while a
     * third-party wallet is connected (which then sends the transaction),
     * else `'magic'`.
     */
    checkout(
      options: NFTCheckoutRequest,
    ): Handle<NFTResponse, NFTCheckoutEvents> {
      const external = thirdParty.isConnected
      const payload = Rpc.createRequest(Methods.nftCheckout, [
        { ...options, walletProvider: external ? 'web3modal' : 'magic' },
      ])
      const handle = request<NFTResponse, NFTCheckoutEvents>(client, payload)
      if (external)
        thirdParty.checkout(
          client,
          payload.id,
          handle.on as (event: string, listener: Listener) => unknown,
        )
      return handle
    },

    /** Transfers an NFT. */
    transfer(options: NFTTransferRequest): Handle<NFTResponse> {
      return request(client, Rpc.createRequest(Methods.nftTransfer, [options]))
    },
  }
}
