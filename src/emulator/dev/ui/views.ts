/**
 * The sources' snapshots as the UI page receives them (JSON over the event
 * stream): the shapes the services register on the observation hub.
 *
 * @packageDocumentation
 */

import type { UserRow, VerdictRow } from '../../sources.js'
import type { BlockRow } from '../chain.js'
import type { DecodedCall } from '../decode.js'
import type { Message } from '../mailbox.js'

/** `users`. */
export type UserView = UserRow

/** `links`: each player's linked wallets, by player id. */
export type LinkedView = {
  readonly [playerId: string]: readonly { address: string; type: string }[]
}

/** `mailbox`. */
export type MessageView = Message

/** `verdicts`. */
export type VerdictView = VerdictRow

/** `magic.sessions`. */
export type MagicSessionView = {
  readonly id: string
  readonly userId: string
  readonly who: string | undefined
  readonly address: string | undefined
  readonly apiKey: string
  readonly expiresAt: string
}

/** `passport.sessions`: the identity provider's grants. */
export type PassportSessionView = {
  readonly id: string
  readonly userId: string
  readonly who: string | undefined
  readonly address: string | undefined
  readonly clientId: string
  readonly createdAt: string | undefined
  readonly refreshTokens: number
}

/** `relayer`, with each call decoded by the dev service. */
export type RelayerView = {
  readonly fee: string
  readonly planned: number
  readonly transactions: readonly {
    readonly id: string
    readonly chainId: number
    readonly wallet: string
    readonly status: string
    readonly hash?: string | undefined
    readonly statusMessage?: string | undefined
    readonly calls: readonly { readonly decoded?: DecodedCall | undefined }[]
  }[]
}

/** `activity`. */
export type ActivityView = {
  readonly rules: {
    readonly [clientId: string]: {
      readonly contractAddress?: string | undefined
      readonly functionName?: string | undefined
      readonly delay?: number | undefined
    }
  }
  readonly checks: readonly {
    readonly clientId: string
    readonly wallet: string
    readonly checkCount: number
    readonly sendCount: number
    readonly at: string
  }[]
}

/** `chain`: its blocks. */
export type BlockView = BlockRow

/** One entry of `GET /scenarios`. */
export type Scenario = {
  readonly name: string
  readonly on: boolean
  readonly title: string
  readonly effect: string
}
