/**
 * Scenarios: switches a test turns on to reproduce what users of the
 * published SDKs meet in production (a refresh token refused, a rate-limit
 * storm, the guardian or the relayer failing, the chain's node down). Each
 * is read by the service it affects on every request, so a switch takes
 * effect on the next request and ends as soon as it is off.
 *
 * @packageDocumentation
 */
import { BaseError } from '../core/Errors.js'

/** What each scenario is: its one-line title and what the published SDK does then. */
export const catalogue = {
  'refresh-token-rejected': {
    title:
      "The identity provider refuses every refresh token (OAuth's invalid_grant).",
    effect:
      "@imtbl/passport's next token refresh fails with invalid_grant, a permanent OAuth error: it removes the user (userRemoved), so the session ends and the player must log in again.",
  },
  'provider-rate-limited': {
    title:
      "The iframe wallet's provider answers its API with 429 Too Many Requests.",
    effect:
      "magic-sdk's requests (logins, signatures, getInfo alike) reject with a MagicRPCError, code -32603, whose message names HTTP 429, while the storm lasts.",
  },
  'guardian-unavailable': {
    title: "The guardian's evaluations answer 403.",
    effect:
      "@imtbl/passport shows the guardian's unavailable screen and the transaction or signature rejects with -32000 'Service unavailable'.",
  },
  'relayer-failing': {
    title: 'Every relayed transaction ends FAILED.',
    effect:
      "@imtbl/passport's eth_sendTransaction rejects with -32000 'Transaction failed to submit with status FAILED. Error message: …'.",
  },
  'relayer-reverting': {
    title: 'Every relayed transaction is mined and reverts.',
    effect:
      "@imtbl/passport's eth_sendTransaction rejects with -32000 'Transaction failed to submit with status REVERTED. Error message: …' (the chain's revert reason).",
  },
  'relayer-stalling': {
    title: 'Every relayed transaction stays PENDING.',
    effect:
      "@imtbl/passport polls the relayer every second, 30 times, then rejects with -32000 'transaction hash not generated in time'.",
  },
  'custody-session-expired': {
    title:
      "The game wallet's key custody refuses the player's session as expired.",
    effect:
      "@imtbl/passport's custody calls (creating the wallet, signing) are refused: the TEE answers 401 and the custody app's iframe sessions read as logged out, so the SDK's signing rejects until the player logs in again.",
  },
  'node-down': {
    title:
      "The chains' public JSON-RPC URLs answer 502 Bad Gateway, as a provider's proxy does when the node behind it is down.",
    effect:
      "Every read and send a dApp or SDK makes through rpcUrl fails: viem (after its retries) throws the JSON-RPC error the 502 carries, -32603 'The node is not reachable.'; @imtbl/passport's zkEVM provider rejects its chain calls. The emulator's own services keep their line to the node.",
  },
} as const satisfies Record<string, { title: string; effect: string }>

/** A scenario's name. */
export type Name = keyof typeof catalogue

/** Every scenario's name, in the catalogue's order. */
export const names = Object.keys(catalogue) as readonly Name[]

/** A scenario and whether it is on. */
export type Entry = {
  readonly name: Name
  readonly on: boolean
  /** One line: what the emulator does while it is on. */
  readonly title: string
  /** What the published SDK does then. */
  readonly effect: string
}

/** The scenarios' switches, shared by every service. */
export type Store = {
  /** Every scenario, in the catalogue's order. */
  list(): readonly Entry[]
  /** Whether `name` is on. */
  isOn(name: Name): boolean
  /**
   * Turns `name` on or off.
   *
   * @returns Its entry after the change.
   * @throws {UnknownScenarioError} If `name` is not a scenario.
   */
  set(name: string, on: boolean): Entry
  /** Turns every scenario off. @returns The list. */
  reset(): readonly Entry[]
  /**
   * Calls `listener` with the entry after each change (not for a switch
   * set to what it was). @returns A function that stops the calls.
   */
  subscribe(listener: (entry: Entry) => void): () => void
}

/** Whether `value` is a scenario's name. */
export function isName(value: unknown): value is Name {
  return typeof value === 'string' && Object.hasOwn(catalogue, value)
}

/**
 * Creates the switches, all off.
 *
 * @example
 * ```ts
 * const scenarios = Scenarios.create()
 * scenarios.set('guardian-unavailable', true)
 * scenarios.isOn('guardian-unavailable') // true
 * ```
 */
export function create(): Store {
  const on = new Set<Name>()
  const listeners = new Set<(entry: Entry) => void>()
  const entryOf = (name: Name): Entry => ({
    name,
    on: on.has(name),
    ...catalogue[name],
  })
  const change = (name: Name, value: boolean) => {
    if (on.has(name) === value) return
    if (value) on.add(name)
    else on.delete(name)
    const entry = entryOf(name)
    for (const listener of listeners) {
      try {
        listener(entry)
      } catch {
        // A listener's failure is its own: the switch has changed.
      }
    }
  }
  return {
    list: () => names.map(entryOf),
    isOn: (name) => on.has(name),
    set(name, value) {
      if (!isName(name)) throw new UnknownScenarioError(name)
      change(name, value)
      return entryOf(name)
    },
    reset() {
      for (const name of names) change(name, false)
      return names.map(entryOf)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
  }
}

/**
 * The outcome every relayed transaction takes while a relayer scenario is
 * on (the first on, in the catalogue's order), or `undefined`.
 */
export function relayerOutcome(
  scenarios: Pick<Store, 'isOn'>,
): 'fail' | 'revert' | 'stall' | undefined {
  if (scenarios.isOn('relayer-failing')) return 'fail'
  if (scenarios.isOn('relayer-reverting')) return 'revert'
  if (scenarios.isOn('relayer-stalling')) return 'stall'
  return undefined
}

/** Thrown for a name that is no scenario. */
export class UnknownScenarioError extends BaseError<undefined> {
  override readonly name = 'Scenarios.UnknownScenarioError'
  constructor(name: string) {
    super(
      `There is no scenario ${JSON.stringify(name.slice(0, 64))}; the scenarios are ${names.join(', ')}.`,
    )
  }
}
