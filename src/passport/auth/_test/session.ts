/**
 * The session tests' fixture: a fake identity provider, a user store and
 * the events a session emits, fresh for every test.
 */
import { beforeEach } from 'vitest'
import * as Storage from '../../../core/Storage.js'
import { create as createClient } from '../oidc.js'
import { create, type Events, type Options } from '../session.js'
import { createUserStore, fromTokenResponse, type UserStore } from '../user.js'
import { clientId, createIdp, type Idp, redirectUri } from './idp.js'

/** What a session test works with; refreshed before each test. */
export type SessionFixture = {
  idp: Idp
  users: UserStore
  events: { name: keyof Events; args: unknown[] }[]
  /** A session over the fake provider (no retries unless given). */
  session(options?: Partial<Options>): ReturnType<typeof create>
  /** Stores a signed-in user whose tokens expire `seconds` from now. */
  seed(
    seconds: number,
    fields?: { refresh_token?: string },
  ): ReturnType<Idp['tokenResponse']>
  /** The requests to the token endpoint so far. */
  tokenRequests(): ReturnType<Idp['to']>
}

/** Registers a `beforeEach` that rebuilds the fixture; returns it. */
export function sessionFixture(): SessionFixture {
  const fx = {} as SessionFixture
  beforeEach(async () => {
    fx.idp = await createIdp()
    fx.users = createUserStore({
      authority: 'https://auth.immutable.com',
      clientId,
      storage: Storage.memory(),
    })
    fx.events = []
  })
  fx.session = (options = {}) => {
    const client = createClient({
      authenticationDomain: 'https://auth.immutable.com',
      clientId,
      redirectUri,
      scope: 'openid profile email offline_access transact',
      audience: 'platform_api',
      logoutRedirectUri: 'https://game.example/bye',
      fetch: fx.idp.fetch,
      metadata: 'static',
    })
    const created = create({ client, users: fx.users, retries: 0, ...options })
    for (const name of [
      'loggedIn',
      'loggedOut',
      'tokenRefreshed',
      'userRemoved',
    ] as const)
      created.emitter.on(name, (...args: unknown[]) =>
        fx.events.push({ name, args }),
      )
    return created
  }
  fx.seed = async (seconds, fields = { refresh_token: 'refresh-1' }) => {
    const exp = Math.floor(Date.now() / 1000) + seconds
    const response = await fx.idp.tokenResponse({
      idClaims: { exp },
      accessClaims: { exp },
      expires_in: seconds,
      refresh_token: undefined,
      ...fields,
    })
    await fx.users.set(fromTokenResponse(response, { now: Date.now() }))
    return response
  }
  fx.tokenRequests = () => fx.idp.to('/oauth/token')
  return fx
}
