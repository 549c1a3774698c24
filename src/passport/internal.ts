/**
 * What a `Passport` keeps private but its own modules need: the resolved
 * configuration, the session and the storage, by instance. Not exported
 * from the package: the zkEVM connection (`zkevm/connect.ts`) reads it, so
 * that the public class carries no member for wiring or for tests.
 */
import type * as Storage from '../core/Storage.js'
import type * as Session from './auth/session.js'
import type { PassportConfiguration } from './config.js'

/** The parts of one `Passport`. */
export type Internals = {
  config: PassportConfiguration
  session: Session.Session
  storage: Storage.Storage
}

const internals = new WeakMap<object, Internals>()

/** Records the parts of `passport` (its constructor does). */
export function register(passport: object, parts: Internals): void {
  internals.set(passport, parts)
}

/** The parts of `passport`. @throws when it is not a `Passport`. */
export function of(passport: object): Internals {
  const parts = internals.get(passport)
  if (!parts) throw new TypeError('Not a Passport instance.')
  return parts
}
