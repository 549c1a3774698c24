import { getAddress, keccak256, toBytes } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  test,
  vi,
} from 'vitest'
import { commands } from 'vitest/browser'
import {
  accountKey,
  deriveStarkPrivateKey,
  grinds,
  createStarkSigner as ourStarkSigner,
} from '../../src/passport/starkex/starkSigner.js'
import { starkKeyMessage } from '../../src/passport/wire/starkex.js'
import {
  ethChain,
  headers as teeHeaders,
  paths as teePaths,
} from '../../src/passport/wire/tee.js'
import './fixtures/noTelemetry.js'
import './fixtures/nodeGlobals.js'
import { openedLogins } from './publishedPassport.js'
import {
  connectImx214,
  exchangeOrigin,
  hosted,
  imxClaims,
  overrides,
  routeHosted,
  unrouteHosted,
  xClient,
} from './publishedPassport214.js'

/*
 * The published @imtbl/passport 2.14.0, the last with the StarkEx layer,
 * unchanged, against the emulator: only its configuration points at it.
 * Two hosts it calls whatever its configuration (its StarkEx signer's key
 * custody, and the hosted exchange its x-client asks about some accounts'
 * Stark keys) are answered by the emulator at the browser's network layer
 * (setup/originRoutes.ts), as a game would point them with its own proxy.
 */

/** What `run` threw (synchronously), or undefined. */
function thrown(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  return undefined
}

beforeAll(routeHosted)
afterAll(unrouteHosted)
beforeEach(() => localStorage.clear())
afterEach(async () => {
  vi.restoreAllMocks()
  for (const window of openedLogins.splice(0)) window.close()
  // 2.14.0 leaves its loading popup open after a guarded request.
  await commands.popupsClose(overrides.passportDomain)
})

describe('published @imtbl/passport 2.14.0 against the emulator: StarkEx before registration', () => {
  test('behavior: connectImx() after login derives the Stark key through the key custody at its hosted host, answered by the emulator', async () => {
    const before = (await commands.originsRouted()).length
    const { provider } = await connectImx214('sx-connect')
    const tee = (path: string) => `${hosted.tee}${path}`
    // Preflights aside: the browser asks one per URL only while it has
    // no answer cached.
    const custodyCalls = async () =>
      (await commands.originsRouted())
        .slice(before)
        .filter(
          ({ method, url }) =>
            method !== 'OPTIONS' && url.startsWith(`${hosted.tee}/`),
        )
    const notRegistered = {
      type: 'USER_NOT_REGISTERED_ERROR',
      message: 'User has not been registered with StarkEx',
    }
    // An exchange transfer waits for the Stark signer (and opens no
    // popup): had the derivation failed, it would reject with that error.
    await expect(
      provider.exchangeTransfer({
        type: 'ETH',
        amount: '1',
        receiver: '0x000000000000000000000000000000000000dEaD',
        transactionID: '1',
      }),
    ).rejects.toMatchObject(notRegistered)
    // The signer derived as the provider was made: its custody wallet,
    // then the signature of the Stark key's message.
    expect(await custodyCalls()).toEqual([
      { method: 'POST', url: tee(teePaths.wallet), status: 200 },
      { method: 'POST', url: tee(teePaths.signMessage), status: 200 },
    ])
    expect(await provider.isRegisteredOffchain()).toBe(false)
    await expect(provider.getAddress()).rejects.toMatchObject(notRegistered)
  })

  test("behavior: for a key over the grinding limit, 2.14.0's x-client asks the hosted exchange about the address, answered by the emulator: an unknown address keeps the standard grind", async () => {
    // A local stand-in for a custody key whose first grinding hash is over
    // the limit (about 1 key in 32): the first such key of a fixed sequence.
    let index = 0
    let account = privateKeyToAccount(keccak256(toBytes('over the limit 0')))
    const signatureOf = () => account.signMessage({ message: starkKeyMessage })
    while (
      !grinds.overLimit(
        accountKey(await signatureOf(), account.address.toLowerCase()),
      )
    )
      account = privateKeyToAccount(
        keccak256(toBytes(`over the limit ${++index}`)),
      )
    const signer = {
      getAddress: async () => account.address,
      signMessage: (message: string | Uint8Array) =>
        account.signMessage({
          message: typeof message === 'string' ? message : { raw: message },
        }),
    }
    const before = (await commands.originsRouted()).length
    const privateKey = await xClient.generateLegacyStarkPrivateKey(signer)
    expect((await commands.originsRouted()).slice(before)).toEqual([
      {
        method: 'GET',
        url: `${hosted.exchange}/v1/users/${account.address.toLowerCase()}`,
        status: 404,
      },
    ])
    expect(privateKey).toBe(
      await deriveStarkPrivateKey(
        { getAddress: signer.getAddress, signMessage: signatureOf },
        async () => undefined,
      ),
    )
  })

  test('error: deposit, prepareWithdrawal, completeWithdrawal and isRegisteredOnchain throw "Operation not supported" at once', async () => {
    const { provider } = await connectImx214('sx-unsupported')
    const eth = { type: 'ETH', amount: '1000000000000000000' } as const
    const unsupported = {
      type: 'OPERATION_NOT_SUPPORTED_ERROR',
      message: 'Operation not supported',
    }
    expect(thrown(() => provider.deposit(eth))).toMatchObject(unsupported)
    expect(thrown(() => provider.prepareWithdrawal(eth))).toMatchObject(
      unsupported,
    )
    expect(
      thrown(() => provider.completeWithdrawal('0x1', { type: 'ETH' })),
    ).toMatchObject(unsupported)
    expect(thrown(() => provider.isRegisteredOnchain())).toMatchObject(
      unsupported,
    )
  })
})

/**
 * The player's key at the emulated key custody, asked directly with the
 * player's id token (as the SDK asks it): its address, and its EIP-191
 * signature of a text.
 */
function custodyOf(idToken: string) {
  const call = async (path: string, body?: unknown) => {
    const response = await fetch(`${overrides.magicTeeBasePath}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${idToken}`,
        'content-type': 'application/json',
        [teeHeaders.apiKey]: overrides.magicPublishableApiKey,
        [teeHeaders.providerId]: overrides.magicProviderId,
        [teeHeaders.chain]: ethChain,
      },
      body: body === undefined ? null : JSON.stringify(body),
    })
    expect(response.status).toBe(200)
    return (await response.json()) as Record<string, string>
  }
  return {
    getAddress: async () => (await call(teePaths.wallet)).public_address ?? '',
    signMessage: async (message: string) => {
      const bytes = new TextEncoder().encode(message)
      const message_base64 = btoa(String.fromCharCode(...bytes))
      return (await call(teePaths.signMessage, { message_base64 }))
        .signature as `0x${string}`
    },
  }
}

describe('published @imtbl/passport 2.14.0 against the emulator: registration', () => {
  test('behavior: registerOffchain() registers the custody key with its Stark key; the refreshed id token carries the three imx claims, isRegisteredOffchain() is true and getAddress() is the imx Ethereum address', async () => {
    const { passport, provider } = await connectImx214('sx-register')
    expect(await imxClaims(passport)).toBeUndefined()
    const custody = getAddress(
      await custodyOf((await passport.getIdToken()) ?? '').getAddress(),
    )
    const registered = await provider.registerOffchain()

    const claims = await imxClaims(passport)
    expect(claims).toEqual({
      imx_eth_address: custody,
      imx_stark_address: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      imx_user_admin_address: custody,
    })
    expect(registered).toEqual({
      ether_key: custody,
      stark_key: claims?.imx_stark_address,
      user_admin_key: custody,
    })
    expect(await provider.isRegisteredOffchain()).toBe(true)
    expect(await provider.getAddress()).toBe(custody)
    // The exchange lists the Stark key for the address (what the x-client
    // asks when it must pick a grind).
    const users = await fetch(`${exchangeOrigin}/v1/users/${custody}`)
    expect(await users.json()).toEqual({
      accounts: [claims?.imx_stark_address],
    })
  })

  test('error: a second registerOffchain() rejects with the 409 (the published bug: its error wrapper runs before its own 409 check), and the player stays registered', async () => {
    const { passport, provider } = await connectImx214('sx-register-twice')
    await provider.registerOffchain()
    const claims = await imxClaims(passport)
    const error = await provider
      .registerOffchain()
      .catch((error: unknown) => error)
    // Its wrapper takes the HTTP client's own message (the error has a
    // `code` and a `message` of its own), not the exchange's body.
    expect(error).toMatchObject({
      type: 'USER_REGISTRATION_ERROR',
      message: `Request failed with status code 409 [httpStatus=409 url=${exchangeOrigin}/v2/passport/users]`,
    })
    expect(await imxClaims(passport)).toEqual(claims)
    expect(await provider.isRegisteredOffchain()).toBe(true)
  })

  test('behavior: the Stark key 2.14.0 registered is the one our client derives from the same custody key', async () => {
    const { passport, provider } = await connectImx214('sx-stark-key')
    await provider.registerOffchain()
    const claims = await imxClaims(passport)
    // Derived afresh, as for an address the exchange does not know (which
    // it did not when 2.14.0 derived its key): a second custody signature
    // of the same text, so this also holds only if that signature is
    // deterministic.
    const privateKey = await deriveStarkPrivateKey(
      custodyOf((await passport.getIdToken()) ?? ''),
      async () => undefined,
    )
    expect(await ourStarkSigner(privateKey).getAddress()).toBe(
      claims?.imx_stark_address,
    )
  })
})
