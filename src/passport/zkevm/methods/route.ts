/**
 * The shape of the router's method groups: each method is a handler plus
 * what the router must do before calling it.
 */
import type { Address } from 'viem'
import type { Context } from '../context.js'
import type { ConfirmationHandle } from '../seams.js'

/** What a handler receives. */
export type RouteRequest = {
  params: unknown
  /** The registered wallet; set for methods with `account`. */
  wallet: Address
  /** The confirmation popup; set for methods with `popup`. */
  handle: ConfirmationHandle | undefined
}

/** One method. */
export type Route = {
  handler: (context: Context, request: RouteRequest) => Promise<unknown>
  /** Needs a registered wallet (4100 otherwise). */
  account?: boolean | undefined
  /** Opens the confirmation popup at the start of the request. */
  popup?: boolean | undefined
}

/** A group of methods by name. */
export type Routes = Record<string, Route>
