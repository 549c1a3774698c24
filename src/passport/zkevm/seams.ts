/**
 * The provider's seams to the parts written elsewhere: the guardian's
 * confirmation popup (`confirmation.ts`) and background session activity
 * (`sessionActivity.ts`). The router only calls these functions, so each
 * side is tested on its own: the router with a fake handle, the popup in
 * a real browser.
 */
import type { Address, Hex } from 'viem'

/**
 * The confirmation popup of one signing request. The router opens it
 * synchronously when a foreground request starts (before any `await`, so a
 * popup blocker counts the click), then either navigates it to the page the
 * guardian asks for or closes it.
 */
export type ConfirmationHandle = {
  /**
   * Shows the transaction page and resolves `true` when the player
   * confirmed, `false` when they rejected or closed the window; rejects on
   * a confirmation error.
   */
  transaction(parameters: {
    transactionId: string
    wallet: Address
    chainId: number
  }): Promise<boolean>
  /** As {@link ConfirmationHandle.transaction}, for a message. */
  message(parameters: {
    messageId: string
    wallet: Address
    messageType: 'erc191' | 'eip712'
  }): Promise<boolean>
  /** Shows the service-unavailable page; resolves once it was closed. */
  unavailable(): Promise<void>
  /** Closes the popup (no-op when already closed). */
  close(): void
}

/** Opens confirmation popups. */
export type Confirmation = {
  /** Opens the loading page synchronously and returns its handle. */
  open(): ConfirmationHandle
}

/** A call sent in the background by session activity. */
export type BackgroundCall = {
  to: Address
  data?: Hex | undefined
  value?: bigint | undefined
}

/**
 * Starts (or joins) the session-activity loop of a wallet. Called when the
 * provider starts with a registered player, after `eth_requestAccounts` and
 * on `im_addSessionActivity`. `sendTransaction` sends in nonce space 1 with
 * no popup and resolves the chain's transaction hash.
 */
export type SessionActivity = (parameters: {
  wallet: Address
  clientId: string
  sendTransaction: (call: BackgroundCall) => Promise<Hex>
}) => void

/**
 * The popups used until the confirmation module is wired in: none. A
 * request the guardian wants confirmed is refused as rejected, since no one
 * can confirm it.
 */
export const headlessConfirmation: Confirmation = {
  open: () => ({
    transaction: async () => false,
    message: async () => false,
    unavailable: async () => {},
    close: () => {},
  }),
}
