/**
 * What an emulated service is. Each backend of each product (the iframe
 * wallet's provider, the game wallet's identity provider, and next its
 * relayer, guardian and API) is one {@link Service}: a folder under
 * `src/emulator/<product>/<service>/` whose `service.ts` exports one, and an
 * entry in the list `startEmulator` walks. The list decides the start order,
 * the port checks, the rollback when a start fails and what each service
 * adds to the emulator's JSON line.
 *
 * @packageDocumentation
 */
import type { Contracts } from './chain/deploy.js'
import type { Clock } from './clock.js'
import type * as Mailbox from './dev/mailbox.js'
import type { Guardian } from './guardian.js'
import type { Hub } from './inspect.js'
import type { Slot } from './ports.js'
import type { Registry } from './registry/index.js'
import type * as Scenarios from './scenarios.js'

/**
 * An emulated service.
 *
 * @example
 * ```ts
 * import { createApp, startServer } from '../../server.js'
 *
 * export const service = defineService({
 *   name: 'relayer',
 *   async start(context) {
 *     const app = createApp().get('/health', (c) => c.json({ ok: true }))
 *     const server = await startServer({ fetch: app.fetch, ...context.listen })
 *     return { ...server, info: { passport: { relayerUrl: server.url } } }
 *   },
 * })
 * ```
 */
export type Service<name extends Slot = Slot, info extends object = object> = {
  /** Its port slot (see ports.ts), also its name in errors. */
  readonly name: name
  /**
   * Starts the service on `context.listen` and resolves once it serves.
   * What it started must be stopped by the returned `stop`; if it throws,
   * it must leave nothing running.
   */
  start(context: Context): Promise<Started<info>>
}

/** A started service. */
export type Started<info extends object = object> = {
  /** Its origin, e.g. `http://127.0.0.1:4401`. */
  readonly url: string
  /**
   * What it adds to the emulator's JSON line. Objects under the same key
   * are merged, so several services of one product can each add their
   * URLs under the product's key.
   */
  readonly info: info
  /** Stops it. Idempotent. */
  stop(): Promise<void>
}

/** One chain of the emulator: an Anvil node behind its JSON-RPC gateway. */
export type Chain = {
  /** The chain id. */
  readonly chainId: number
  /** The public JSON-RPC URL (the gateway), as dApps use it. */
  readonly rpcUrl: string
  /**
   * The node's own URL, for the services only: it bypasses the gateway's
   * origin rules (the services fund users with Anvil's admin methods).
   */
  readonly nodeUrl: string
  /** The contracts deployed on it (the same addresses on every chain). */
  readonly contracts: Contracts
}

/** What a service starts with. */
export type Context = {
  /** Where to listen: pass to `startServer`. */
  readonly listen: {
    readonly host: string
    readonly port: number
    readonly name: string
  }
  /** This service's origin, e.g. `http://127.0.0.1:4401`. */
  readonly origin: string
  /**
   * The origin of every port slot, known before any service starts (the
   * identity provider's pages link to the mailbox, for one).
   */
  readonly origins: { readonly [slot in Slot]?: string }
  /** The emulator's chains; the first is its main chain. */
  readonly chains: readonly [Chain, ...Chain[]]
  /** The users and their keys, shared by every service. */
  readonly registry: Registry
  /** Where services deliver the codes and links they would send. */
  readonly mailbox: Mailbox.Store
  /** The services' clock: what every service reads as now (time travel moves it). */
  readonly clock: Clock
  /** The scenario switches, which services read on every request. */
  readonly scenarios: Scenarios.Store
  /**
   * The observation hub: services register what the emulator's UI shows of
   * them (and what it may do), and say when it changed.
   */
  readonly inspect: Hub
  /** The game wallet's login and logout pages, as the emulator was told. */
  readonly passport: {
    readonly redirectUri: string
    readonly logoutRedirectUri: string
    /** The guardian's rules and verdicts, shared by the game wallet's services. */
    readonly guardian: Guardian
  }
}

/**
 * Declares a service, keeping its name and info types for the JSON line's
 * type.
 */
export function defineService<const name extends Slot, info extends object>(
  service: Service<name, info>,
): Service<name, info> {
  return service
}
