import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Storage from '../../core/Storage.js'
import {
  claimsOf,
  startIdentity,
  type TestIdentity,
  type Tokens,
  tokensFor,
} from '../../emulator/passport/identity/testkit.js'
import {
  createUserStore,
  fromTokenResponse,
  isTokenValid,
  isUserImx,
  isUserZkEvm,
  storageKey,
  toUser,
  validityBufferSeconds,
} from './user.js'

let identity: TestIdentity
/** A player signed in at the identity provider. */
let tokens: Tokens
beforeAll(async () => {
  identity = await startIdentity()
  tokens = await tokensFor(identity, 'player@example.com')
})
afterAll(() => identity.stop())

/** The player's id token with `changes` to its claims, signed by the issuer. */
const signedIdToken = (changes: Record<string, unknown> = {}) =>
  identity.sign(claimsOf(tokens.idToken, changes))

/** The player's access token with `changes` to its claims, signed by the issuer. */
const signedAccessToken = (changes: Record<string, unknown> = {}) =>
  identity.sign(claimsOf(tokens.accessToken, changes), { typ: 'at+jwt' })

const now = 1_760_000_000_000 // ms
const seconds = now / 1000

const passport = {
  imx_eth_address: '0x1111111111111111111111111111111111111111',
  imx_stark_address: '0x0222',
  imx_user_admin_address: '0x3333333333333333333333333333333333333333',
  zkevm_eth_address: '0x4444444444444444444444444444444444444444',
  zkevm_user_admin_address: '0x5555555555555555555555555555555555555555',
}

describe('fromTokenResponse', () => {
  test('default: the oidc-client-ts storage shape', async () => {
    const idToken = await signedIdToken({
      nonce: 'n-1',
      auth_time: 1,
      iat: seconds,
      exp: seconds + 600,
    })
    const stored = fromTokenResponse(
      {
        access_token: 'access',
        id_token: idToken,
        refresh_token: 'refresh',
        token_type: 'Bearer',
        scope: 'openid',
        expires_in: 600,
      },
      { now },
    )
    expect(stored).toEqual({
      id_token: idToken,
      session_state: null,
      access_token: 'access',
      refresh_token: 'refresh',
      token_type: 'Bearer',
      scope: 'openid',
      profile: {
        iss: identity.issuer,
        sub: tokens.sub,
        aud: identity.clientId,
        iat: seconds,
        exp: seconds + 600,
        email: 'player@example.com',
        email_verified: true,
        nickname: 'player',
      },
      expires_at: seconds + 600,
    })
  })

  test('behavior: a refresh without id or refresh token keeps the previous ones', async () => {
    const idToken = await signedIdToken()
    const previous = fromTokenResponse(
      {
        access_token: 'a1',
        id_token: idToken,
        refresh_token: 'r1',
        token_type: 'Bearer',
        expires_in: 10,
      },
      { now },
    )
    const next = fromTokenResponse(
      { access_token: 'a2', token_type: 'Bearer', expires_in: 20 },
      { now, previous },
    )
    expect(next).toMatchObject({
      access_token: 'a2',
      id_token: idToken,
      refresh_token: 'r1',
      profile: previous.profile,
      expires_at: seconds + 20,
    })
  })
})

describe('toUser', () => {
  test('default: a user without chain accounts', async () => {
    const idToken = await signedIdToken({ username: 'neo' })
    const stored = fromTokenResponse(
      {
        access_token: 'a',
        id_token: idToken,
        refresh_token: 'r',
        token_type: 'Bearer',
        expires_in: 60,
      },
      { now },
    )
    const user = toUser(stored, { now })
    expect(user).toEqual({
      expired: false,
      idToken,
      accessToken: 'a',
      refreshToken: 'r',
      profile: {
        sub: tokens.sub,
        email: 'player@example.com',
        nickname: 'player',
        username: 'neo',
      },
    })
    expect(isUserZkEvm(user)).toBe(false)
    expect(isUserImx(user)).toBe(false)
    expect(toUser(stored, { now: now + 60_000 }).expired).toBe(true)
  })

  test('behavior: imx and zkEvm from the passport claim', async () => {
    const idToken = await signedIdToken({ passport })
    const user = toUser(
      fromTokenResponse(
        { access_token: 'a', id_token: idToken, token_type: 'Bearer' },
        { now },
      ),
      { now },
    )
    expect(user.imx).toEqual({
      ethAddress: passport.imx_eth_address,
      starkAddress: passport.imx_stark_address,
      userAdminAddress: passport.imx_user_admin_address,
    })
    expect(user.zkEvm).toEqual({
      ethAddress: passport.zkevm_eth_address,
      userAdminAddress: passport.zkevm_user_admin_address,
    })
    expect(user.expired).toBeUndefined()
    expect(isUserZkEvm(user) && isUserImx(user)).toBe(true)
  })

  test('behavior: zkEvm needs both claims; imx needs all three', async () => {
    const idToken = await signedIdToken({
      passport: {
        zkevm_eth_address: passport.zkevm_eth_address,
        imx_eth_address: passport.imx_eth_address,
      },
    })
    const user = toUser(
      fromTokenResponse(
        { access_token: 'a', id_token: idToken, token_type: 'Bearer' },
        { now },
      ),
      { now },
    )
    expect('zkEvm' in user).toBe(false)
    expect('imx' in user).toBe(false)
  })
})

describe('isTokenValid', () => {
  test('default: both tokens must outlive the 3600 s buffer', async () => {
    expect(validityBufferSeconds).toBe(3600)
    const at = (exp: number) => signedAccessToken({ exp })
    const id = (exp: number) => signedIdToken({ exp })
    expect(
      isTokenValid(
        {
          accessToken: await at(seconds + 3601),
          idToken: await id(seconds + 3601),
        },
        { now },
      ),
    ).toBe(true)
    expect(
      isTokenValid(
        {
          accessToken: await at(seconds + 3600),
          idToken: await id(seconds + 7200),
        },
        { now },
      ),
    ).toBe(false)
    expect(
      isTokenValid(
        {
          accessToken: await at(seconds + 7200),
          idToken: await id(seconds + 3600),
        },
        { now },
      ),
    ).toBe(false)
    expect(
      isTokenValid({ accessToken: await at(seconds + 7200) }, { now }),
    ).toBe(false)
    expect(
      isTokenValid(
        { accessToken: 'opaque', idToken: await id(seconds + 7200) },
        { now },
      ),
    ).toBe(false)
  })
})

describe('createUserStore', () => {
  test('default: JSON under oidc.user:<authority>:<client_id>', async () => {
    expect(storageKey('https://auth.immutable.com', 'abc')).toBe(
      'oidc.user:https://auth.immutable.com:abc',
    )
    const storage = Storage.memory()
    const users = createUserStore({
      authority: 'https://auth.immutable.com',
      clientId: 'abc',
      storage,
    })
    expect(await users.get()).toBeNull()
    const stored = fromTokenResponse(
      {
        access_token: 'a',
        id_token: await signedIdToken(),
        token_type: 'Bearer',
        expires_in: 5,
      },
      { now },
    )
    await users.set(stored)
    expect(
      JSON.parse(
        (await storage.getItem<string>(
          'oidc.user:https://auth.immutable.com:abc',
        ))!,
      ),
    ).toEqual(stored)
    expect(await users.get()).toEqual(stored)
    await users.remove()
    expect(
      await storage.getItem('oidc.user:https://auth.immutable.com:abc'),
    ).toBeNull()
  })

  test('behavior: unreadable JSON reads as no user', async () => {
    const storage = Storage.memory()
    await storage.setItem('oidc.user:a:b', '{not json')
    expect(
      await createUserStore({ authority: 'a', clientId: 'b', storage }).get(),
    ).toBeNull()
  })
})
