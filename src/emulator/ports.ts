/**
 * The port plan of the emulated services. Each service gets its own origin
 * (`http://127.0.0.1:<port>`) because the real services live on different
 * origins, and the wallets' origin checks must see that. Each service has a
 * fixed slot in the block that starts at the port base, whether or not it
 * runs yet, so that a service that joins never moves another one's port.
 *
 * @packageDocumentation
 */

import { BaseError } from '../core/Errors.js'

/** The port of the first service (`dev`) when no `--port-base` is given. */
export const defaultPortBase = 4400

/**
 * The port slots, in order: `dev` gets the port base, each next slot the
 * next port. A service's `name` is its slot. Append new slots at the end so
 * that existing ports never move.
 */
export const slots = [
  'dev',
  'magic',
  'identity',
  'relayer',
  'guardian',
  'api',
  'passport',
  'tee',
  'starkex',
] as const

const maxPort = 65_535

/** The highest valid port base: the last service then gets port 65535. */
export const maxPortBase = maxPort - (slots.length - 1)

/** The name of a port slot, which is the name of the service using it. */
export type Slot = (typeof slots)[number]

/** The port of every slot. */
export type Ports = { readonly [slot in Slot]: number }

/**
 * Computes the port of every emulated service from a port base.
 *
 * @example
 * ```ts
 * import { getPorts } from './ports.js'
 *
 * getPorts(4400) // { dev: 4400, magic: 4401, identity: 4402, … tee: 4407, starkex: 4408 }
 * ```
 *
 * @param portBase - The port of `dev`; the others follow it. @default 4400
 * @returns The port of each service.
 * @throws {InvalidPortBaseError} If a resulting port is not in 1..65535.
 */
export function getPorts(portBase: number = defaultPortBase): Ports {
  if (!isValidPortBase(portBase)) throw new InvalidPortBaseError(portBase)
  const ports = {} as Record<Slot, number>
  for (const [index, slot] of slots.entries()) ports[slot] = portBase + index
  return ports
}

/**
 * Tells whether every service port computed from `portBase` is a valid TCP
 * port (an integer in 1..65535).
 *
 * @param portBase - The candidate port base.
 * @returns `true` if {@link getPorts} accepts it.
 */
export function isValidPortBase(portBase: number): boolean {
  return (
    Number.isInteger(portBase) &&
    portBase >= 1 &&
    portBase + slots.length - 1 <= maxPort
  )
}

/** Thrown when a port base would put a service port outside 1..65535. */
export class InvalidPortBaseError extends BaseError<undefined> {
  override readonly name = 'Ports.InvalidPortBaseError'
  constructor(portBase: number) {
    super(
      `Invalid port base ${portBase}: it must be an integer from 1 to ${maxPortBase}, so that all ${slots.length} service ports fit in 1..${maxPort}.`,
    )
  }
}
