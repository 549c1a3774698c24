import { type Hex, hexToBytes, recoverMessageAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ethChain, headers, paths } from '../../../passport/wire/tee.js'
import { predictContracts } from '../../chain/deploy.js'
import * as Clock from '../../clock.js'
import { custodyApiKey, passportOidcProviderId } from '../../constants.js'
import * as Mailbox from '../../dev/mailbox.js'
import { createGuardian } from '../../guardian.js'
import * as Inspect from '../../inspect.js'
import { decodeDidToken } from '../../magic/provider/didToken.js'
import { defaultApiKey } from '../../magic/provider/protocol.js'
import * as MagicProvider from '../../magic/provider/service.js'
import { call, createDevice } from '../../magic/provider/testkit.js'
import { findFreePort } from '../../net.js'
import * as Scenarios from '../../scenarios.js'
import type { Context, Started } from '../../service.js'
import { custodyIdentity } from '../custody.js'
import { startIdentity, type Tokens, tokensFor } from '../identity/testkit.js'
import * as Tee from './service.js'

let identity: Awaited<ReturnType<typeof startIdentity>>
let tee: Started
let magic: Started

/** A service context as the emulator builds it, without a chain. */
async function contextFor(name: 'tee' | 'magic'): Promise<Context> {
  const port = await findFreePort()
  return {
    listen: { host: '127.0.0.1', port, name },
    origin: `http://127.0.0.1:${port}`,
    origins: { identity: identity.issuer },
    chains: [
      {
        chainId: 31337,
        rpcUrl: 'http://127.0.0.1:1',
        nodeUrl: 'http://127.0.0.1:1',
        contracts: predictContracts(),
      },
    ],
    registry: identity.registry,
    mailbox: Mailbox.create(),
    clock: Clock.create(),
    scenarios: Scenarios.create(),
    inspect: Inspect.create(),
    passport: {
      redirectUri: 'http://127.0.0.1:1/redirect',
      logoutRedirectUri: 'http://127.0.0.1:1/logout',
      guardian: createGuardian(),
    },
  }
}

beforeAll(async () => {
  identity = await startIdentity()
  tee = await Tee.service.start(await contextFor('tee'))
  magic = await MagicProvider.service.start(await contextFor('magic'))
})
afterAll(async () => {
  await tee?.stop()
  await magic?.stop()
  await identity?.stop()
})

const goodHeaders = (idToken: string) => ({
  [headers.apiKey]: custodyApiKey,
  [headers.providerId]: passportOidcProviderId,
  [headers.chain]: ethChain,
  authorization: `Bearer ${idToken}`,
})

async function post(
  path: string,
  options: { headers: Record<string, string>; body?: unknown },
) {
  const response = await fetch(`${tee.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...options.headers },
    body:
      typeof options.body === 'string'
        ? options.body
        : JSON.stringify(options.body ?? {}),
  })
  return { status: response.status, body: (await response.json()) as unknown }
}

/** The magic service, as the testkit reaches it. */
const magicTarget = {
  request: (path: string, init?: RequestInit) =>
    fetch(`${magic.url}${path}`, init),
}

let count = 0
async function newPlayer(): Promise<Tokens & { email: string }> {
  const email = `tee${++count}-${Date.now()}@example.com`
  return { ...(await tokensFor(identity, email)), email }
}

async function wallet(player: Tokens) {
  return post(paths.wallet, { headers: goodHeaders(player.idToken) })
}

const base64 = (bytes: Uint8Array | string) =>
  Buffer.from(bytes).toString('base64')

describe('POST /v1/wallet', () => {
  test("default: the player's id token gives their custody key, the registry user of the issuer and sub", async () => {
    const player = await newPlayer()
    const response = await wallet(player)
    const custody = identity.registry.find(
      custodyIdentity(identity.issuer, player.sub),
    )
    expect(response).toEqual({
      status: 200,
      body: { public_address: custody?.address },
    })
    expect(custody?.id).not.toBe(player.sub)
    expect(await wallet(player)).toEqual(response)
  })

  test("behavior: the custody app's OIDC login with the same id token reaches the same key", async () => {
    const player = await newPlayer()
    const login = await call(
      magicTarget,
      'magic_auth_login_with_oidc',
      [{ jwt: player.idToken, providerId: passportOidcProviderId }],
      { device: await createDevice(), apiKey: custodyApiKey },
    )
    const did = decodeDidToken(login.result as string).parsed
    const response = await wallet(player)
    const address = (response.body as { public_address: string }).public_address
    expect(did.iss).toBe(`did:ethr:${address}`)
    // The player keeps their email: the custody key does not take it.
    expect(identity.registry.find({ email: player.email })?.id).toBe(player.sub)
  })

  test("error: the dApps' iframe-wallet key is not the custody app's: the key-custody API refuses it, and its OIDC login does not know the game wallet's identity provider", async () => {
    const player = await newPlayer()
    expect(custodyApiKey).not.toBe(defaultApiKey)
    expect(
      await post(paths.wallet, {
        headers: {
          ...goodHeaders(player.idToken),
          [headers.apiKey]: defaultApiKey,
        },
      }),
    ).toEqual({
      status: 401,
      body: {
        code: 'INVALID_API_KEY',
        message: 'X-Magic-API-Key is not a known key.',
      },
    })
    const login = await call(
      magicTarget,
      'magic_auth_login_with_oidc',
      [{ jwt: player.idToken, providerId: passportOidcProviderId }],
      { device: await createDevice(), apiKey: defaultApiKey },
    )
    expect(login.error).toEqual({
      code: -32602,
      message: `Unknown OIDC provider ${passportOidcProviderId}.`,
    })
    expect(
      identity.registry.find(custodyIdentity(identity.issuer, player.sub)),
    ).toBe(undefined)
  })

  test('error: a wrong key, provider id or chain is refused before the token is looked at', async () => {
    const player = await newPlayer()
    const cases: [Record<string, string>, number, object][] = [
      [
        { [headers.apiKey]: 'pk_live_OTHER' },
        401,
        {
          code: 'INVALID_API_KEY',
          message: 'X-Magic-API-Key is not a known key.',
        },
      ],
      [
        { [headers.providerId]: 'aa80b860-8869-4f13-9000-6a6ad3d20017' },
        400,
        {
          code: 'INVALID_OIDC_PROVIDER',
          message: 'X-OIDC-Provider-ID is not a registered OIDC provider.',
        },
      ],
      [
        { [headers.chain]: 'SOL' },
        400,
        { code: 'UNSUPPORTED_CHAIN', message: 'X-Magic-Chain must be ETH.' },
      ],
    ]
    for (const [override, status, body] of cases)
      for (const path of [paths.wallet, paths.signMessage])
        expect(
          await post(path, {
            headers: { ...goodHeaders(player.idToken), ...override },
            body: { message_base64: base64('x') },
          }),
        ).toEqual({ status, body })
  })

  test('error: an access token, a missing or a forged token is 401', async () => {
    const player = await newPlayer()
    const [head, payload] = player.idToken.split('.')
    for (const token of [
      player.accessToken,
      '',
      `${head}.${payload}.${'A'.repeat(342)}`,
    ]) {
      const response = await post(paths.wallet, {
        headers: { ...goodHeaders(token) },
      })
      expect(response.status).toBe(401)
      expect(response.body).toMatchObject({ code: 'UNAUTHORIZED' })
    }
    expect(
      identity.registry.find(custodyIdentity(identity.issuer, player.sub)),
    ).toBe(undefined)
  })
})

describe('POST /v1/wallet/sign/message', () => {
  test('default: text is signed as its UTF-8 bytes (EIP-191), with r, s and v', async () => {
    const player = await newPlayer()
    const { public_address } = (await wallet(player)).body as {
      public_address: string
    }
    const text = 'Only sign this message from Immutable Passport ✓'
    const response = await post(paths.signMessage, {
      headers: goodHeaders(player.idToken),
      body: { message_base64: base64(text) },
    })
    expect(response.status).toBe(200)
    const { signature, r, s, v } = response.body as {
      signature: Hex
      r: string
      s: string
      v: number
    }
    expect(await recoverMessageAddress({ message: text, signature })).toBe(
      public_address,
    )
    expect(`${r}${s.slice(2)}${v.toString(16)}`).toBe(signature)
    expect([27, 28]).toContain(v)
  })

  test('behavior: the text 0x<hex> is signed as the bytes it spells, as the wallet contract checks it', async () => {
    const player = await newPlayer()
    const { public_address } = (await wallet(player)).body as {
      public_address: string
    }
    const digest =
      '0x0badc0ffee0badc0ffee0badc0ffee0badc0ffee0badc0ffee0badc0ffee0bad' as Hex
    const response = await post(paths.signMessage, {
      headers: goodHeaders(player.idToken),
      body: { message_base64: base64(digest) },
    })
    const { signature } = response.body as { signature: Hex }
    expect(
      await recoverMessageAddress({
        message: { raw: hexToBytes(digest) },
        signature,
      }),
    ).toBe(public_address)
    expect(
      await recoverMessageAddress({ message: digest, signature }),
    ).not.toBe(public_address)
  })

  test('error: before the wallet exists it is 404', async () => {
    const player = await newPlayer()
    const response = await post(paths.signMessage, {
      headers: goodHeaders(player.idToken),
      body: { message_base64: base64('x') },
    })
    expect(response).toEqual({
      status: 404,
      body: {
        code: 'WALLET_NOT_FOUND',
        message: 'The player has no wallet yet: POST /v1/wallet first.',
      },
    })
  })

  test('error: a body without base64 message_base64 is 400', async () => {
    const player = await newPlayer()
    await wallet(player)
    for (const body of [
      'x',
      {},
      { message_base64: 5 },
      { message_base64: 'not base64!' },
      { message_base64: 'abcde' },
    ])
      expect(
        await post(paths.signMessage, {
          headers: goodHeaders(player.idToken),
          body,
        }),
      ).toEqual({
        status: 400,
        body: {
          code: 'VALIDATION_ERROR',
          message: 'Expected { message_base64 } (a base64 string).',
        },
      })
  })
})

describe('CORS', () => {
  test('behavior: any page may call with the headers the published SDK sends', async () => {
    const preflight = await fetch(`${tee.url}${paths.signMessage}`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://game.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers':
          'authorization,content-type,x-magic-api-key,x-magic-chain,x-oidc-provider-id',
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    expect(
      preflight.headers.get('access-control-allow-headers')?.toLowerCase(),
    ).toBe(
      'authorization,content-type,x-magic-api-key,x-oidc-provider-id,x-magic-chain,x-sdk-version',
    )
  })
})
