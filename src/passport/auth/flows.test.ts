import { describe, expect, test } from 'vitest'
import * as Storage from '../../core/Storage.js'
import {
  type Context,
  loginWithRedirect,
  requestKey,
  type StoredRequest,
  staleRequestSeconds,
} from './flows.js'
import type { AuthorizationRequest, Client } from './oidc.js'
import { createUserStore } from './user.js'

function setup(clock: { seconds: number }) {
  let count = 0
  const client = {
    async authorizationUrl(): Promise<AuthorizationRequest> {
      count++
      return {
        url: new URL(`https://auth.example/authorize?state=state-${count}`),
        state: `state-${count}`,
        codeVerifier: `verifier-${count}`,
        nonce: `nonce-${count}`,
      }
    },
  } as unknown as Client
  const storage = Storage.memory()
  const context: Context = {
    client,
    storage,
    users: createUserStore({
      authority: 'https://auth.example',
      clientId: 'client-1',
      storage,
    }),
    redirectUri: 'https://game.example/callback',
    popupRedirectUri: 'https://game.example/callback',
    now: () => clock.seconds * 1000,
  }
  return { context, storage }
}

describe('loginWithRedirect', () => {
  test('default: stores the pending request as oidc-client-ts does, then navigates', async () => {
    const { context, storage } = setup({ seconds: 1_000_000 })
    const visited: string[] = []
    await loginWithRedirect(context, {}, (url) => visited.push(url))
    expect(visited).toEqual(['https://auth.example/authorize?state=state-1'])
    expect(
      JSON.parse(
        (await storage.getItem<string>(requestKey('state-1'))) ?? 'null',
      ),
    ).toEqual({
      id: 'state-1',
      code_verifier: 'verifier-1',
      nonce: 'nonce-1',
      redirect_uri: 'https://game.example/callback',
      request_type: 'si:r',
      created: 1_000_000,
    } satisfies StoredRequest)
  })

  test('behavior: a new request removes abandoned ones older than 900 s, and nothing else', async () => {
    const clock = { seconds: 1_000_000 }
    const { context, storage } = setup(clock)
    const navigate = () => {}
    await loginWithRedirect(context, {}, navigate)
    clock.seconds += 100
    await loginWithRedirect(context, {}, navigate)
    await storage.setItem(
      'oidc.user:https://auth.example:client-1',
      '{"id":"x"}',
    )
    await storage.setItem('pkce_state', 'kept')

    clock.seconds += staleRequestSeconds
    await loginWithRedirect(context, {}, navigate)
    expect((await storage.keys()).sort()).toEqual([
      'oidc.state-2',
      'oidc.state-3',
      'oidc.user:https://auth.example:client-1',
      'pkce_state',
    ])
  })
})
