/**
 * The guardian's confirmation popup as both sides see it: its pages on the
 * passport domain, their query parameters, the window's name and sizes, and
 * the `postMessage` protocol between the popup and the wallet. A leaf: it
 * imports nothing.
 *
 * As the published @imtbl/passport 2.x speaks it: every message carries
 * `eventType: 'imx_passport_confirmation'`; the popup says it is ready, the
 * wallet answers `confirmation_start` (target origin the passport domain),
 * and the popup answers with a confirmed, rejected or error message.
 */

/** Paths on the passport domain. */
export const paths = {
  /** Query: `transactionId`, `etherAddress`, `chainType=starkex`. */
  transaction: '/transaction-confirmation/transaction',
  loading: '/transaction-confirmation/loading',
  unavailable: '/transaction-confirmation/unavailable',
  /** Query: `transactionID`, `etherAddress`, `chainType=evm`, `chainID=eip155:N`. */
  zkEvmTransaction: '/transaction-confirmation/zkevm/transaction',
  /** Query: `messageID`, `etherAddress`, `messageType`. */
  zkEvmMessage: '/transaction-confirmation/zkevm/message',
} as const

/** `messageType` of the message page. */
export const messageTypes = { eip712: 'eip712', erc191: 'erc191' } as const

/** The popup window's name (also its title). */
export const windowName = 'Confirm this transaction'

/** Popup sizes, px. */
export const sizes = {
  default: { width: 480, height: 720 },
  batchTransfer: { width: 480, height: 784 },
} as const

/** How often the wallet checks whether the popup was closed, ms. */
export const closedPollInterval = 1000

/** The `eventType` of every message. */
export const eventType = 'imx_passport_confirmation'

/** The message types. */
export const messages = {
  /** Popup → wallet: the page is ready. */
  ready: 'confirmation_window_ready',
  /** Wallet → popup: go on. */
  start: 'confirmation_start',
  transactionConfirmed: 'transaction_confirmed',
  transactionRejected: 'transaction_rejected',
  transactionError: 'transaction_error',
  messageConfirmed: 'message_confirmed',
  messageRejected: 'message_rejected',
  messageError: 'message_error',
} as const

/** A message of the protocol. */
export type Message = {
  eventType: typeof eventType
  messageType: (typeof messages)[keyof typeof messages]
  messageData?: unknown
}
