/** The auth module over a fake transport, as the auth tests use it. */
import { create } from '../modules/auth.js'
import { createClient, createFakeTransport, resultOf } from './transport.js'

/** An auth module whose requests all answer `'did-token'`. */
export function setupAuth(overrides: Parameters<typeof createClient>[1] = {}) {
  const fake = createFakeTransport(resultOf('did-token'))
  return { fake, auth: create(createClient(fake, overrides)) }
}
