import * as XClient from '@imtbl/x-client'
import axios from 'axios'
import { type Hex, keccak256, numberToHex, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { startPlatform } from '../../emulator/passport/testkit.js'
import type { Reply } from '../../emulator/testkit.js'
import { starkKeyMessage } from '../wire/starkex.js'
import { createExchangeClients, starkKeyLookup } from './clients.js'
import {
  accountKey,
  createStarkSigner,
  deriveStarkPrivateKey,
  grinds,
  messages,
  starkKeyDerivationPath,
} from './starkSigner.js'

/**
 * The exchange's record of an address (`GET /v1/users/{address}`), as
 * each test sets it, answered at the emulated platform's tap: our
 * derivation asks it through the generated client, and the published
 * x-client (whose hosted URL is sent to the tap, see below) asks it too.
 */
let platform: Awaited<ReturnType<typeof startPlatform>>
let base: string
const accountNotFound: Reply = {
  status: 404,
  body: { code: 'account_not_found', message: 'Account not found' },
}
let answer: Reply = accountNotFound
const users = /^\/v1\/users\//
const asked = () => platform.api.requests.filter((r) => users.test(r.path))

beforeAll(async () => {
  platform = await startPlatform()
  base = platform.api.url
  platform.api.always({ method: 'GET', path: users }, () => answer)
  // x-client 2.14.0 always asks the hosted mainnet exchange; its axios
  // requests go to the tap instead.
  axios.interceptors.request.use((config) => {
    if (config.url)
      config.url = config.url.replace('https://api.x.immutable.com', base)
    return config
  })
})
afterAll(() => platform.stop())
beforeEach(() => {
  platform.api.requests.length = 0
  answer = accountNotFound
})

/** A deterministic custody key, as our signer and as x-client's. */
function custody(seed: number) {
  const account = privateKeyToAccount(keccak256(toHex(`custody ${seed}`)))
  return {
    address: account.address,
    ours: {
      getAddress: async () => account.address,
      signMessage: (message: string) => account.signMessage({ message }),
    },
    published: {
      getAddress: async () => account.address,
      signMessage: (message: string | Uint8Array) =>
        account.signMessage({
          message: typeof message === 'string' ? message : { raw: message },
        }),
    },
    bip32: async () =>
      accountKey(
        await account.signMessage({ message: starkKeyMessage }),
        account.address,
      ),
  }
}

const lookup = () => starkKeyLookup(createExchangeClients(base).usersApi)

/** The first deterministic custody keys whose first grinding hash is (or is not) over the limit. */
async function findCustody(overLimit: boolean, count: number) {
  const found: ReturnType<typeof custody>[] = []
  for (let seed = 0; found.length < count; seed++) {
    const candidate = custody(seed)
    if (grinds.overLimit(await candidate.bip32()) === overLimit)
      found.push(candidate)
  }
  return found
}

const starkKeyHex = (privateKey: bigint) =>
  numberToHex(BigInt(createStarkSignerKey(privateKey)), { size: 32 })
function createStarkSignerKey(privateKey: bigint): Hex {
  const key = privateKey.toString(16).padStart(64, '0')
  // The x-coordinate, through the published x-client's own curve.
  return `0x${XClient.imxClientCreateStarkSigner(key).getAddress().replace(/^0x/, '')}` as Hex
}

describe('deriveStarkPrivateKey', () => {
  test('behavior: equals x-client 2.14.0 generateLegacyStarkPrivateKey for keys under the limit, asking no one', async () => {
    for (const player of await findCustody(false, 6)) {
      const ours = await deriveStarkPrivateKey(player.ours, lookup())
      const published = await XClient.imxClientGenerateLegacyStarkPrivateKey(
        player.published as never,
      )
      expect(ours).toBe(published)
      expect(ours).toMatch(/^[0-9a-f]{64}$/)
    }
    expect(asked()).toEqual([])
  })

  test('behavior: a key over the limit asks the exchange; account_not_found keeps the standard grind, as x-client', async () => {
    const [player] = await findCustody(true, 1)
    if (!player) throw new Error('unreachable')
    const privateKey = await player.bip32()
    const ours = await deriveStarkPrivateKey(player.ours, lookup())
    const published = await XClient.imxClientGenerateLegacyStarkPrivateKey(
      player.published as never,
    )
    expect(ours).toBe(published)
    expect(BigInt(`0x${ours}`)).toBe(grinds.standard(privateKey))
    expect(asked().map((r) => r.url)).toEqual([
      `/v1/users/${player.address.toLowerCase()}`,
      `/v1/users/${player.address.toLowerCase()}`,
    ])
  })

  test('behavior: over the limit, the grind whose Stark key the exchange lists wins, each as x-client picks it', async () => {
    const [player] = await findCustody(true, 1)
    if (!player) throw new Error('unreachable')
    const privateKey = await player.bip32()
    const candidates = [
      grinds.standard(privateKey),
      grinds.repeatedZero(privateKey),
      grinds.secp256k1(privateKey),
    ]
    // Over the limit the standard grind retries with 1 where the legacy ones
    // retry with 0 (the two legacy ones part only on a second retry, as
    // both limits are the same multiple of N).
    expect(candidates[0]).not.toBe(candidates[1])
    expect(candidates[1]).toBe(candidates[2])
    for (const candidate of new Set(candidates)) {
      answer = { status: 200, body: { accounts: [starkKeyHex(candidate)] } }
      const ours = await deriveStarkPrivateKey(player.ours, lookup())
      const published = await XClient.imxClientGenerateLegacyStarkPrivateKey(
        player.published as never,
      )
      expect(ours).toBe(published)
      expect(BigInt(`0x${ours}`)).toBe(candidate)
    }
  })

  test('error: a listed Stark key no grind gives, and a failed lookup, as x-client', async () => {
    const [player] = await findCustody(true, 1)
    if (!player) throw new Error('unreachable')
    answer = { status: 200, body: { accounts: [starkKeyHex(12345n)] } }
    await expect(deriveStarkPrivateKey(player.ours, lookup())).rejects.toThrow(
      messages.noMatchingKey,
    )
    await expect(
      XClient.imxClientGenerateLegacyStarkPrivateKey(player.published as never),
    ).rejects.toThrow(messages.noMatchingKey)

    answer = {
      status: 500,
      body: { code: 'INTERNAL_SERVER_ERROR', message: 'down' },
    }
    await expect(deriveStarkPrivateKey(player.ours, lookup())).rejects.toThrow(
      messages.lookupFailed,
    )
    await expect(
      XClient.imxClientGenerateLegacyStarkPrivateKey(player.published as never),
    ).rejects.toThrow(messages.lookupFailed)
  })

  test('behavior: the path of an address (EIP-2645 layer starkex, application immutablex)', () => {
    expect(
      starkKeyDerivationPath('0xa4864d977b944315389d1765ffa7e66F74ee8cd7'),
    ).toBe("m/2645'/579218131'/211006541'/1961790679'/2135936222'/1")
  })
})

describe('createStarkSigner', () => {
  const privateKey =
    '03c1e9550e66958296d11b60f8e8e7a7ad990d07fa65d5f7652c4a6c87d4e3cc'
  const published = XClient.imxClientCreateStarkSigner(
    privateKey,
  ) as unknown as {
    getAddress(): string
    signMessage(hash: string): Promise<string>
    keyPair: {
      verify(message: string, signature: { r: string; s: string }): boolean
    }
    fixMsgHashLen(hash: string): string
  }
  const hashes = [
    // 63 hex digits: StarkEx appends a 0 before signing.
    '2102820b232636d200cb21f1d330f20d096cae09d1bf3edb1cc333ddee11318',
    '7e4f5b6e1b7f4a1d2c3b4a5968778695a4b3c2d1e0f1e2d3c4b5a69788796a5',
    '1',
    'abc',
    '0x1a2b3c4d5e6f',
  ]
  const parts = (signature: string) => ({
    r: signature.slice(2, 66),
    s: signature.slice(66, 130),
  })

  test('behavior: the Stark key is the x-coordinate, 64 hex digits, as x-client derives it', async () => {
    const ours = createStarkSigner(privateKey)
    expect(await ours.getAddress()).toMatch(/^0x[0-9a-f]{64}$/)
    expect(BigInt(await ours.getAddress())).toBe(
      BigInt(`0x${published.getAddress().replace(/^0x/, '')}`),
    )
  })

  test('behavior: our signatures verify on x-client curve, and x-client signatures verify with ours', async () => {
    const ours = createStarkSigner(privateKey)
    const Stark = await import('@scure/starknet')
    const publicKey = Stark.getPublicKey(privateKey, false)
    for (const hash of hashes) {
      const signature = await ours.signMessage(hash)
      expect(signature).toMatch(/^0x[0-9a-f]{128}$/)
      expect(
        published.keyPair.verify(
          published.fixMsgHashLen(hash),
          parts(signature),
        ),
      ).toBe(true)
      const theirs = await published.signMessage(hash.replace(/^0x/, ''))
      expect(
        Stark.verify(
          new Stark.Signature(
            BigInt(`0x${parts(theirs).r}`),
            BigInt(`0x${parts(theirs).s}`),
          ),
          hash.replace(/^0x/, ''),
          publicKey,
        ),
      ).toBe(true)
    }
  })

  test('error: a signature of another hash does not verify', async () => {
    const ours = createStarkSigner(privateKey)
    const signature = await ours.signMessage('1a2b')
    expect(
      published.keyPair.verify(
        published.fixMsgHashLen('1a2c'),
        parts(signature),
      ),
    ).toBe(false)
  })
})
