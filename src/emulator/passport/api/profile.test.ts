import { type Address, getAddress, type Hex } from 'viem'
import {
  generatePrivateKey,
  type PrivateKeyAccount,
  privateKeyToAccount,
} from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { linkWalletTypedData } from '../../../passport/wire/api.js'
import { maxLinkedWallets } from './profile.js'
import { type Player, startApi, type TestApi } from './testkit.js'

let api: TestApi

beforeAll(async () => {
  api = await startApi()
})
afterAll(() => api?.stop())

const linkPath = '/passport-profile/v2/linked-wallets'
const infoPath = '/passport-profile/v1/user/info'

/** An external wallet's LinkWallet signature, as the SDK's docs describe it. */
function signLink(
  account: PrivateKeyAccount,
  passportAddress: Address,
  nonce: string,
): Promise<Hex> {
  return account.signTypedData({
    domain: linkWalletTypedData.domain,
    types: { LinkWallet: linkWalletTypedData.types.LinkWallet },
    primaryType: linkWalletTypedData.primaryType,
    message: {
      walletAddress: account.address.toLowerCase() as Address,
      immutablePassportAddress: passportAddress.toLowerCase() as Address,
      condition: linkWalletTypedData.condition,
      nonce,
    },
  })
}

async function link(
  player: Player,
  passportAddress: Address,
  options: {
    account?: PrivateKeyAccount
    nonce?: string
    type?: string
  } = {},
) {
  const account = options.account ?? privateKeyToAccount(generatePrivateKey())
  const nonce = options.nonce ?? crypto.randomUUID()
  const response = await api.post(
    linkPath,
    {
      type: options.type ?? 'io.metamask',
      wallet_address: account.address,
      signature: await signLink(account, passportAddress, nonce),
      nonce,
    },
    player.accessToken,
  )
  return { account, nonce, response }
}

describe('GET /passport-profile/v1/user/info', () => {
  test('default: an unregistered player has an email and no addresses', async () => {
    const player = await api.player()
    const response = await api.get(infoPath, player.accessToken)
    expect(response.status).toBe(200)
    expect(response.body).toEqual({
      sub: player.sub,
      email: player.email,
      linked_addresses: [],
    })
  })

  test('behavior: a registered player has their wallet and linked addresses, oldest first', async () => {
    const player = await api.player()
    const wallet = await api.register(player)
    const first = await link(player, wallet)
    const second = await link(player, wallet)
    const response = await api.get(infoPath, player.accessToken)
    expect(response.body).toEqual({
      sub: player.sub,
      email: player.email,
      passport_address: wallet,
      linked_addresses: [first.account.address, second.account.address],
    })
  })

  test('error: without an access token it is 401', async () => {
    const player = await api.player()
    for (const token of [undefined, player.idToken]) {
      const response = await api.get(infoPath, token)
      expect(response.status).toBe(401)
      expect(response.body).toMatchObject({ code: 'UNAUTHORISED_REQUEST' })
    }
  })
})

describe('POST /passport-profile/v2/linked-wallets', () => {
  test("default: an EOA's LinkWallet signature links it; the answer names it and the game's client", async () => {
    const player = await api.player()
    const wallet = await api.register(player)
    const { account, response } = await link(player, wallet, {
      type: 'External',
    })
    expect(response.status).toBe(200)
    const body = response.body as { created_at: string }
    expect(response.body).toEqual({
      address: account.address,
      type: 'External',
      created_at: body.created_at,
      updated_at: body.created_at,
      clientName: api.identity.clientId,
    })
    expect(new Date(body.created_at).toISOString()).toBe(body.created_at)
  })

  test('error: a wallet linked already, to this player or another, is ALREADY_LINKED', async () => {
    const player = await api.player()
    const wallet = await api.register(player)
    const { account } = await link(player, wallet)
    const again = await link(player, wallet, { account })
    expect(again.response.status).toBe(409)
    expect(again.response.body).toEqual({
      code: 'ALREADY_LINKED',
      message: 'This wallet is linked to a Passport account already.',
      details: null,
    })
    const other = await api.player()
    const otherWallet = await api.register(other)
    const theirs = await link(other, otherWallet, { account })
    expect(theirs.response.body).toMatchObject({ code: 'ALREADY_LINKED' })
  })

  test('error: a nonce the player used already is DUPLICATE_NONCE', async () => {
    const player = await api.player()
    const wallet = await api.register(player)
    await link(player, wallet, { nonce: 'n-1' })
    const reused = await link(player, wallet, { nonce: 'n-1' })
    expect(reused.response.status).toBe(409)
    expect(reused.response.body).toEqual({
      code: 'DUPLICATE_NONCE',
      message: 'This nonce was used already.',
      details: null,
    })
    // Nonces are the player's own: another player may use the same one.
    const other = await api.player()
    const otherWallet = await api.register(other)
    const theirs = await link(other, otherWallet, { nonce: 'n-1' })
    expect(theirs.response.status).toBe(200)
  })

  test(`error: past ${maxLinkedWallets} wallets it is MAX_WALLETS_LINKED`, async () => {
    const player = await api.player()
    const wallet = await api.register(player)
    for (let i = 0; i < maxLinkedWallets; i++)
      expect((await link(player, wallet)).response.status).toBe(200)
    const extra = await link(player, wallet)
    expect(extra.response.status).toBe(409)
    expect(extra.response.body).toEqual({
      code: 'MAX_WALLETS_LINKED',
      message: `A player may link at most ${maxLinkedWallets} wallets.`,
      details: null,
    })
    const info = await api.get(infoPath, player.accessToken)
    expect(
      (info.body as { linked_addresses: string[] }).linked_addresses,
    ).toHaveLength(maxLinkedWallets)
  })

  test('error: a signature by another key, for another player, nonce or wallet is VALIDATION_ERROR', async () => {
    const player = await api.player()
    const wallet = await api.register(player)
    const account = privateKeyToAccount(generatePrivateKey())
    const other = privateKeyToAccount(generatePrivateKey())
    const message =
      "signature is not wallet_address's EIP-712 LinkWallet signature for this player and nonce."
    const cases = [
      { signer: other, passport: wallet, nonce: 'a', sent: 'a' },
      {
        signer: account,
        passport: getAddress('0x00000000000000000000000000000000000000aa'),
        nonce: 'a',
        sent: 'a',
      },
      { signer: account, passport: wallet, nonce: 'a', sent: 'b' },
    ]
    for (const { signer, passport, nonce, sent } of cases) {
      const response = await api.post(
        linkPath,
        {
          type: 'External',
          wallet_address: account.address,
          signature: await signLink(signer, passport, nonce),
          nonce: sent,
        },
        player.accessToken,
      )
      expect(response.status).toBe(400)
      expect(response.body).toEqual({
        code: 'VALIDATION_ERROR',
        message,
        details: null,
      })
    }
    const info = await api.get(infoPath, player.accessToken)
    expect(info.body).toMatchObject({ linked_addresses: [] })
  })

  test('error: a malformed body is VALIDATION_ERROR, saying which field', async () => {
    const player = await api.player()
    await api.register(player)
    const good = {
      type: 'External',
      wallet_address: '0x00000000000000000000000000000000000000aa',
      signature: `0x${'11'.repeat(65)}`,
      nonce: 'n',
    }
    for (const [body, message] of [
      ['x', 'Expected { type, wallet_address, signature, nonce }.'],
      [{ ...good, type: '' }, 'type must be a string of 1 to 32 characters.'],
      [
        { ...good, type: 'x'.repeat(33) },
        'type must be a string of 1 to 32 characters.',
      ],
      [{ ...good, wallet_address: 'x' }, 'wallet_address must be an address.'],
      [
        { ...good, signature: '0x11' },
        'signature must be a 65-byte hex signature.',
      ],
      [
        { ...good, nonce: 'n'.repeat(257) },
        'nonce must be a string of 1 to 256 characters.',
      ],
    ] as const) {
      const response = await api.post(linkPath, body, player.accessToken)
      expect(response.status).toBe(400)
      expect(response.body).toEqual({
        code: 'VALIDATION_ERROR',
        message,
        details: null,
      })
    }
  })

  test('error: a player without a wallet cannot link (403); without a token it is 401', async () => {
    const player = await api.player()
    const { response } = await link(
      player,
      getAddress('0x00000000000000000000000000000000000000aa'),
    )
    expect(response.status).toBe(403)
    expect(response.body).toEqual({
      code: 'AUTHENTICATION_ERROR',
      message: 'The player has no zkEVM wallet yet: register it first.',
      details: null,
    })
    const anonymous = await api.post(linkPath, {})
    expect(anonymous.status).toBe(401)
  })
})
