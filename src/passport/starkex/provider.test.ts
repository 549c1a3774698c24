import * as Stark from '@scure/starknet'
import { recoverMessageAddress } from 'viem'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import * as Emitter from '../../core/Emitter.js'
import { startPlatform } from '../../emulator/passport/testkit.js'
import { jsonOf } from '../../emulator/testkit.js'
import type { Events } from '../auth/session.js'
import { toUser, type User } from '../auth/user.js'
import { isPassportError } from '../errors.js'
import type { Confirmation, OpenOptions } from '../zkevm/confirmation.js'
import {
  createExchangeClients,
  createGuardianClient,
  starkKeyLookup,
} from './clients.js'
import { createImxProvider } from './provider.js'
import { deriveStarkPrivateKey } from './starkSigner.js'

/**
 * The StarkEx provider against the emulated platform (identity provider,
 * registry, guardian routes), its exchange answers scripted at the
 * platform's tap until the emulated exchange serves them: what each call
 * sends, and how each failure reaches the caller.
 */
let platform: Awaited<ReturnType<typeof startPlatform>>
beforeAll(async () => {
  platform = await startPlatform()
})
afterAll(() => platform.stop())
beforeEach(() => {
  platform.reset()
  // No player in these tests is known to the exchange.
  platform.api.always(
    { method: 'GET', path: /^\/v1\/users\// },
    {
      status: 404,
      body: { code: 'account_not_found', message: 'Account not found' },
    },
  )
})

type Player = Awaited<ReturnType<typeof platform.player>>

function userOf(player: Player): User {
  return toUser(
    {
      id_token: player.idToken,
      access_token: player.accessToken,
      refresh_token: player.refreshToken,
      token_type: 'Bearer',
      session_state: null,
      profile: { sub: player.sub },
    },
    { now: Date.now() },
  )
}

/** A popup double recording what the provider asks of it. */
function recordingPopup(confirmed: boolean) {
  const log = {
    opened: [] as (OpenOptions | undefined)[],
    openedAt: [] as number[],
    asked: [] as { transactionId: string; wallet: string }[],
    unavailable: 0,
    closed: 0,
  }
  const confirmation: Confirmation = {
    open(options) {
      log.opened.push(options)
      log.openedAt.push(platform.api.requests.length)
      let closed = false
      return {
        transaction: async () => false,
        message: async () => false,
        async starkExTransaction(args) {
          log.asked.push(args)
          return confirmed
        },
        async unavailable() {
          log.unavailable++
        },
        // Idempotent, as the popup's handle is.
        close() {
          if (closed) return
          closed = true
          log.closed++
        },
      }
    },
  }
  return { confirmation, log }
}

/** A player's provider, registered on StarkEx (the registry's claims) unless asked. */
async function setup(
  options: {
    registered?: boolean
    confirmed?: boolean
    crossSdkBridgeEnabled?: boolean
  } = {},
) {
  const {
    registered = true,
    confirmed = true,
    crossSdkBridgeEnabled = false,
  } = options
  let player = await platform.player()
  /** What the custody key was asked to sign, in order. */
  const signed: (string | { raw: `0x${string}` })[] = []
  const custody = {
    getAddress: async () => player.custody.address,
    signMessage: (message: string | { raw: `0x${string}` }) => {
      signed.push(message)
      return player.custody.signMessage({ message })
    },
    destroy: () => {},
  }
  const exchange = createExchangeClients(platform.api.url)
  const lookup = starkKeyLookup(exchange.usersApi)
  const starkPrivateKey = await deriveStarkPrivateKey(custody, lookup)
  const starkKey = `0x${Stark.getStarkKey(starkPrivateKey).slice(2).padStart(64, '0')}`
  const claims = {
    imxEthAddress: player.custody.address,
    imxStarkAddress: starkKey as `0x${string}`,
    imxUserAdminAddress: player.custody.address,
  }
  if (registered) {
    platform.registry.setPassport(player.sub, claims)
    player = await platform.refresh(player)
  }
  let current: User | null = userOf(player)
  const events = Emitter.create<Events>()
  const popup = recordingPopup(confirmed)
  const provider = createImxProvider({
    session: {
      getUser: async () => current,
      forceUserRefresh: async () => {
        player = await platform.refresh(player)
        current = userOf(player)
        return current
      },
    },
    events,
    exchange,
    lookup,
    createCustodySigner: () => custody,
    guardian: {
      config: { crossSdkBridgeEnabled },
      guardian: createGuardianClient(platform.api.url, async () =>
        String(current?.accessToken),
      ),
      retries: 1,
      retryInterval: 0,
    },
    confirmation: popup.confirmation,
    registrationRetries: 1,
    registrationRetryInterval: 0,
  })
  return {
    provider,
    popup,
    signed,
    claims,
    starkKey,
    starkPublicKey: Stark.getPublicKey(starkPrivateKey, false),
    player: () => player,
    logOut: () => {
      current = null
      events.emit('loggedOut')
    },
  }
}

const payloadHash =
  '5a1b2c3d4e5f60718293a4b5c6d7e8f90112233445566778899aabbccddeeff'
const signableTransfer = {
  amount: '100000000',
  asset_id: '0x02705737cd248ac819034b5e2e16d3ee2e4aa00000000000000000000000000',
  expiration_timestamp: 500000,
  nonce: 77,
  payload_hash: payloadHash,
  readable_transaction: '',
  receiver_stark_key: `0x${'1'.repeat(64)}`,
  receiver_vault_id: 2,
  sender_vault_id: 1,
  signable_message: `Only sign this request if you\u2019ve initiated an action with Immutable X.\n\nTransfer 1 base unit.\nPayload hash: ${payloadHash}`,
  verification_signature: '',
}
const receiver = '0x000000000000000000000000000000000000dEaD'

/** The guardian knows the payload hash and answers `confirmationRequired`. */
function guardianAnswers(confirmationRequired: boolean) {
  platform.api.answer(
    { method: 'GET', path: `/guardian/v1/transactions/${payloadHash}` },
    { status: 200, body: { id: payloadHash, chainType: 'starkex' } },
  )
  platform.api.answer(
    {
      method: 'POST',
      path: `/guardian/v1/transactions/${payloadHash}/evaluate`,
    },
    { status: 200, body: { confirmationRequired } },
  )
}

const bodyOf = (path: string) => jsonOf(platform.api.to(path)[0]?.body)

/**
 * Checks the signed wallet headers of the first request to `path`: the
 * player's StarkEx address, and its custody key's EIP-191 signature of
 * `message` as the published toolkit encodes it (r ‖ s ‖ v, v 00/01).
 */
async function expectWalletHeaders(
  path: string,
  message: string,
  address: string,
) {
  const [request] = platform.api.to(path)
  expect(request?.headers['x-imx-eth-address']).toBe(address)
  const signature = String(request?.headers['x-imx-eth-signature'])
  expect(signature).toMatch(/^0x[0-9a-f]{128}0[01]$/)
  const v = Number.parseInt(signature.slice(130), 16) + 27
  expect(
    await recoverMessageAddress({
      message,
      signature: `0x${signature.slice(2, 130)}${v.toString(16)}`,
    }),
  ).toBe(address)
}
const errorOf = async (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('resolved')
    },
    (error: unknown) => error as Error & { type: string },
  )

describe('unsupported operations', () => {
  test('error: deposit, withdrawals and on-chain registration throw OPERATION_NOT_SUPPORTED_ERROR synchronously', async () => {
    const { provider } = await setup()
    const calls = [
      () => provider.deposit({ type: 'ETH', amount: '1' }),
      () => provider.prepareWithdrawal({ type: 'ETH', amount: '1' }),
      () => provider.completeWithdrawal('0x1', { type: 'ETH' }),
      () => provider.isRegisteredOnchain(),
    ]
    for (const call of calls) {
      let thrown: unknown
      try {
        call()
      } catch (error) {
        thrown = error
      }
      expect(isPassportError(thrown, 'OPERATION_NOT_SUPPORTED_ERROR')).toBe(
        true,
      )
      expect((thrown as Error).message).toBe('Operation not supported')
    }
  })
})

describe('the player', () => {
  test('behavior: getAddress is the StarkEx Ethereum address; isRegisteredOffchain reads the claims', async () => {
    const registered = await setup()
    expect(await registered.provider.getAddress()).toBe(
      registered.claims.imxEthAddress,
    )
    expect(await registered.provider.isRegisteredOffchain()).toBe(true)
    const unregistered = await setup({ registered: false })
    expect(await unregistered.provider.isRegisteredOffchain()).toBe(false)
    const error = await errorOf(unregistered.provider.getAddress())
    expect(error.type).toBe('USER_NOT_REGISTERED_ERROR')
    expect(error.message).toBe('User has not been registered with StarkEx')
  })

  test('error: after logout every call is NOT_LOGGED_IN_ERROR "User has been logged out"', async () => {
    const { provider, logOut } = await setup()
    logOut()
    for (const call of [
      provider.getAddress(),
      provider.isRegisteredOffchain(),
      provider.transfer({ type: 'ETH', amount: '1', receiver }),
      provider.registerOffchain(),
    ]) {
      const error = await errorOf(call)
      expect(error.type).toBe('NOT_LOGGED_IN_ERROR')
      expect(error.message).toBe('User has been logged out')
    }
  })
})

describe('registerOffchain', () => {
  test('behavior: both keys sign what the exchange issues; the token is sent; the claims are awaited', async () => {
    const setupResult = await setup({ registered: false })
    const { provider, claims, starkPublicKey } = setupResult
    platform.api.answer(
      { method: 'POST', path: '/v1/signable-registration-offchain' },
      {
        status: 200,
        body: { signable_message: 'Register me', payload_hash: 'abcdef' },
      },
    )
    platform.api.answer({ method: 'POST', path: '/v2/passport/users' }, () => {
      // The exchange grants the claims as it registers.
      platform.registry.setPassport(setupResult.player().sub, claims)
      return {
        status: 201,
        body: {
          ether_key: claims.imxEthAddress,
          stark_key: claims.imxStarkAddress,
          user_admin_key: claims.imxUserAdminAddress,
        },
      }
    })
    expect(await provider.registerOffchain()).toEqual({
      ether_key: claims.imxEthAddress,
      stark_key: claims.imxStarkAddress,
      user_admin_key: claims.imxUserAdminAddress,
    })
    expect(bodyOf('/v1/signable-registration-offchain')).toEqual({
      ether_key: claims.imxEthAddress,
      stark_key: claims.imxStarkAddress,
    })
    const [register] = platform.api.to('/v2/passport/users')
    expect(register?.headers.authorization).toMatch(/^Bearer /)
    const body = jsonOf(register?.body) as Record<string, string>
    expect(body.ether_key).toBe(claims.imxEthAddress)
    expect(body.stark_key).toBe(claims.imxStarkAddress)
    // r ‖ s ‖ v with v as 00 or 01, by the custody key.
    expect(body.eth_signature).toMatch(/^0x[0-9a-f]{128}0[01]$/)
    const v = Number.parseInt(String(body.eth_signature).slice(130), 16) + 27
    expect(
      await recoverMessageAddress({
        message: 'Register me',
        signature:
          `${String(body.eth_signature).slice(0, 130)}${v.toString(16)}` as `0x${string}`,
      }),
    ).toBe(claims.imxEthAddress)
    const signature = String(body.stark_signature)
    expect(
      Stark.verify(
        new Stark.Signature(
          BigInt(`0x${signature.slice(2, 66)}`),
          BigInt(`0x${signature.slice(66, 130)}`),
        ),
        'abcdef',
        starkPublicKey,
      ),
    ).toBe(true)
    expect(await provider.isRegisteredOffchain()).toBe(true)
  })

  test('behavior: a 409 means registered already: the claims are awaited and { tx_hash: "" } answered', async () => {
    const setupResult = await setup({ registered: false })
    const { provider, claims } = setupResult
    platform.api.answer(
      { method: 'POST', path: '/v1/signable-registration-offchain' },
      {
        status: 200,
        body: { signable_message: 'Register me', payload_hash: 'abcdef' },
      },
    )
    platform.api.answer({ method: 'POST', path: '/v2/passport/users' }, () => {
      platform.registry.setPassport(setupResult.player().sub, claims)
      return {
        status: 409,
        body: { code: 'CONFLICT_ERROR', message: 'User already registered' },
      }
    })
    expect(await provider.registerOffchain()).toEqual({ tx_hash: '' })
    expect(await provider.getAddress()).toBe(claims.imxEthAddress)
  })

  test('error: claims that never come are USER_REGISTRATION_ERROR "Failed to obtain a User with the required IMX attributes"', async () => {
    const { provider } = await setup({ registered: false })
    platform.api.answer(
      { method: 'POST', path: '/v1/signable-registration-offchain' },
      {
        status: 200,
        body: { signable_message: 'Register me', payload_hash: 'abcdef' },
      },
    )
    platform.api.answer(
      { method: 'POST', path: '/v2/passport/users' },
      {
        status: 409,
        body: { code: 'CONFLICT_ERROR', message: 'User already registered' },
      },
    )
    const error = await errorOf(provider.registerOffchain())
    expect(error.type).toBe('USER_REGISTRATION_ERROR')
    expect(error.message).toBe(
      'Failed to obtain a User with the required IMX attributes',
    )
  })

  test("error: another refusal is USER_REGISTRATION_ERROR with the exchange's message", async () => {
    const { provider } = await setup({ registered: false })
    platform.api.answer(
      { method: 'POST', path: '/v1/signable-registration-offchain' },
      {
        status: 400,
        body: { code: 'VALIDATION_ERROR', message: 'ether_key is invalid' },
      },
    )
    const error = await errorOf(provider.registerOffchain())
    expect(error.type).toBe('USER_REGISTRATION_ERROR')
    expect(error.message).toBe('ether_key is invalid')
  })
})

describe('transfer', () => {
  test('behavior: the popup opens first, the guardian approves, the Stark signature is sent with the token and the signed wallet headers, the popup closes', async () => {
    const { provider, popup, starkKey, starkPublicKey, claims } = await setup()
    platform.api.answer(
      { method: 'POST', path: '/v1/signable-transfer-details' },
      { status: 200, body: signableTransfer },
    )
    guardianAnswers(false)
    platform.api.answer(
      { method: 'POST', path: '/v1/transfers' },
      {
        status: 200,
        body: {
          sent_signature: '0xsent',
          status: 'success',
          time: 1700000000,
          transfer_id: 42,
        },
      },
    )
    const before = platform.api.requests.length
    expect(
      await provider.transfer({
        type: 'ERC721',
        tokenId: '7',
        tokenAddress: '0x00000000000000000000000000000000000000aa',
        receiver,
      }),
    ).toEqual({
      sent_signature: '0xsent',
      status: 'success',
      time: 1700000000,
      transfer_id: 42,
    })
    expect(popup.log.opened).toEqual([undefined])
    expect(popup.log.openedAt).toEqual([before])
    expect(popup.log.asked).toEqual([])
    expect(popup.log.closed).toBe(1)
    expect(bodyOf('/v1/signable-transfer-details')).toEqual({
      sender: claims.imxEthAddress,
      token: {
        type: 'ERC721',
        data: {
          token_id: '7',
          token_address: '0x00000000000000000000000000000000000000aa',
        },
      },
      amount: '1',
      receiver,
    })
    const [lookup] = platform.api.to(`/guardian/v1/transactions/${payloadHash}`)
    expect(lookup?.url).toContain('chainType=starkex')
    expect(bodyOf(`/guardian/v1/transactions/${payloadHash}/evaluate`)).toEqual(
      { chainType: 'starkex' },
    )
    const [create] = platform.api.to('/v1/transfers')
    expect(create?.headers.authorization).toMatch(/^Bearer /)
    expect(create?.headers['x-sdk-version']).toBeTruthy()
    await expectWalletHeaders(
      '/v1/transfers',
      signableTransfer.signable_message,
      claims.imxEthAddress,
    )
    const body = jsonOf(create?.body) as Record<string, unknown>
    expect(body).toMatchObject({
      sender_stark_key: starkKey,
      sender_vault_id: 1,
      receiver_stark_key: signableTransfer.receiver_stark_key,
      receiver_vault_id: 2,
      asset_id: signableTransfer.asset_id,
      amount: signableTransfer.amount,
      nonce: 77,
      expiration_timestamp: 500000,
    })
    const signature = String(body.stark_signature)
    expect(
      Stark.verify(
        new Stark.Signature(
          BigInt(`0x${signature.slice(2, 66)}`),
          BigInt(`0x${signature.slice(66, 130)}`),
        ),
        payloadHash,
        starkPublicKey,
      ),
    ).toBe(true)
  })

  test('behavior: a verdict asking for confirmation shows the StarkEx page; confirmed, the transfer is sent', async () => {
    const { provider, popup, claims } = await setup({ confirmed: true })
    platform.api.answer(
      { method: 'POST', path: '/v1/signable-transfer-details' },
      { status: 200, body: signableTransfer },
    )
    guardianAnswers(true)
    platform.api.answer(
      { method: 'POST', path: '/v1/transfers' },
      { status: 200, body: { status: 'success', transfer_id: 1 } },
    )
    await provider.transfer({ type: 'ETH', amount: '100000000', receiver })
    expect(popup.log.asked).toEqual([
      { transactionId: payloadHash, wallet: claims.imxEthAddress },
    ])
    expect(platform.api.to('/v1/transfers')).toHaveLength(1)
  })

  test('error: the player rejecting is TRANSFER_ERROR "Transaction rejected by user"; nothing is sent, nor signed by the custody key', async () => {
    const { provider, popup, signed } = await setup({ confirmed: false })
    platform.api.answer(
      { method: 'POST', path: '/v1/signable-transfer-details' },
      { status: 200, body: signableTransfer },
    )
    guardianAnswers(true)
    const error = await errorOf(
      provider.transfer({ type: 'ETH', amount: '100000000', receiver }),
    )
    expect(error.type).toBe('TRANSFER_ERROR')
    expect(error.message).toBe('Transaction rejected by user')
    expect(platform.api.to('/v1/transfers')).toHaveLength(0)
    expect(signed).not.toContain(signableTransfer.signable_message)
    expect(popup.log.closed).toBe(1)
  })

  test('error: in the game bridge a transaction needing confirmation is refused with the published text', async () => {
    const { provider, popup } = await setup({ crossSdkBridgeEnabled: true })
    platform.api.answer(
      { method: 'POST', path: '/v1/signable-transfer-details' },
      { status: 200, body: signableTransfer },
    )
    guardianAnswers(true)
    const error = await errorOf(
      provider.transfer({ type: 'ETH', amount: '100000000', receiver }),
    )
    expect(error.type).toBe('TRANSFER_ERROR')
    expect(error.message).toBe(
      'Transaction requires confirmation but this functionality is not supported in this environment. Please contact Immutable support if you need to enable this feature.',
    )
    expect(popup.log.asked).toEqual([])
  })

  test('error: a guardian 403 shows the unavailable page and is SERVICE_UNAVAILABLE_ERROR "Service unavailable"', async () => {
    const { provider, popup } = await setup()
    platform.api.answer(
      { method: 'POST', path: '/v1/signable-transfer-details' },
      { status: 200, body: signableTransfer },
    )
    platform.api.answer(
      { method: 'GET', path: `/guardian/v1/transactions/${payloadHash}` },
      { status: 200, body: { id: payloadHash } },
    )
    platform.api.answer(
      {
        method: 'POST',
        path: `/guardian/v1/transactions/${payloadHash}/evaluate`,
      },
      {
        status: 403,
        body: { code: 'AUTHENTICATION_ERROR', message: 'unavailable' },
      },
    )
    const error = await errorOf(
      provider.transfer({ type: 'ETH', amount: '100000000', receiver }),
    )
    expect(error.type).toBe('SERVICE_UNAVAILABLE_ERROR')
    expect(error.message).toBe('Service unavailable')
    expect(popup.log.unavailable).toBe(1)
  })

  test('error: a payload hash the guardian never learns of is TRANSFER_ERROR "Transaction does not exist", after the retries', async () => {
    const { provider } = await setup()
    platform.api.answer(
      { method: 'POST', path: '/v1/signable-transfer-details' },
      { status: 200, body: signableTransfer },
    )
    platform.api.always(
      { method: 'GET', path: `/guardian/v1/transactions/${payloadHash}` },
      {
        status: 404,
        body: { code: 'RESOURCE_NOT_FOUND', message: 'not found' },
      },
    )
    const error = await errorOf(
      provider.transfer({ type: 'ETH', amount: '100000000', receiver }),
    )
    expect(error.type).toBe('TRANSFER_ERROR')
    expect(error.message).toBe('Transaction does not exist')
    // The first lookup and one retry (this test's setting).
    expect(
      platform.api.to(`/guardian/v1/transactions/${payloadHash}`),
    ).toHaveLength(2)
  })

  test('behavior: a payload hash the guardian learns of late is found on a retry', async () => {
    const { provider } = await setup()
    platform.api.answer(
      { method: 'POST', path: '/v1/signable-transfer-details' },
      { status: 200, body: signableTransfer },
    )
    platform.api.answer(
      { method: 'GET', path: `/guardian/v1/transactions/${payloadHash}` },
      {
        status: 404,
        body: { code: 'RESOURCE_NOT_FOUND', message: 'not found' },
      },
    )
    guardianAnswers(false)
    platform.api.answer(
      { method: 'POST', path: '/v1/transfers' },
      { status: 200, body: { status: 'success', transfer_id: 3 } },
    )
    expect(
      (await provider.transfer({ type: 'ETH', amount: '100000000', receiver }))
        .transfer_id,
    ).toBe(3)
    expect(
      platform.api.to(`/guardian/v1/transactions/${payloadHash}`),
    ).toHaveLength(2)
  })

  test("error: the exchange's refusal is TRANSFER_ERROR with its message", async () => {
    const { provider, popup } = await setup()
    platform.api.answer(
      { method: 'POST', path: '/v1/signable-transfer-details' },
      {
        status: 400,
        body: { code: 'VALIDATION_ERROR', message: 'Insufficient balance' },
      },
    )
    const error = await errorOf(
      provider.transfer({ type: 'ETH', amount: '100000000', receiver }),
    )
    expect(error.type).toBe('TRANSFER_ERROR')
    expect(error.message).toBe('Insufficient balance')
    expect(popup.log.closed).toBe(1)
  })
})

describe('batchNftTransfer, orders, trades, exchange transfers', () => {
  test('behavior: a batch opens the 480x784 popup, sends amount "1" per NFT and signs each transfer, and the batch message in the wallet headers', async () => {
    const { provider, popup, claims } = await setup()
    const batchMessage = `Transfer 2 tokens.\nPayload hash: ${payloadHash}`
    const nfts = ['1', '2'].map((tokenId) => ({
      tokenId,
      tokenAddress: '0x00000000000000000000000000000000000000aa',
      receiver,
    }))
    platform.api.answer(
      { method: 'POST', path: '/v2/signable-transfer-details' },
      {
        status: 200,
        body: {
          sender_stark_key: claims.imxStarkAddress,
          signable_message: batchMessage,
          signable_responses: [
            { ...signableTransfer, amount: '1' },
            {
              ...signableTransfer,
              amount: '1',
              payload_hash: 'abc',
              nonce: 78,
            },
          ],
        },
      },
    )
    guardianAnswers(false)
    platform.api.answer(
      { method: 'POST', path: '/v2/transfers' },
      { status: 200, body: { transfer_ids: [1, 2] } },
    )
    expect(await provider.batchNftTransfer(nfts)).toEqual({
      transfer_ids: [1, 2],
    })
    expect(popup.log.opened).toEqual([{ width: 480, height: 784 }])
    expect(bodyOf('/v2/signable-transfer-details')).toEqual({
      sender_ether_key: claims.imxEthAddress,
      signable_requests: nfts.map((nft) => ({
        amount: '1',
        token: {
          type: 'ERC721',
          data: { token_id: nft.tokenId, token_address: nft.tokenAddress },
        },
        receiver,
      })),
    })
    const body = bodyOf('/v2/transfers') as {
      sender_stark_key: string
      requests: { nonce: number; stark_signature: string }[]
    }
    expect(body.sender_stark_key).toBe(claims.imxStarkAddress)
    expect(body.requests.map((r) => r.nonce)).toEqual([77, 78])
    expect(body.requests[0]?.stark_signature).not.toBe(
      body.requests[1]?.stark_signature,
    )
    expect(platform.api.to('/v2/transfers')[0]?.headers.authorization).toMatch(
      /^Bearer /,
    )
    await expectWalletHeaders(
      '/v2/transfers',
      batchMessage,
      claims.imxEthAddress,
    )
  })

  test('behavior: an order splits and includes fees, an ERC721 amount is "1"; its refusal is CREATE_ORDER_ERROR', async () => {
    const { provider, claims } = await setup()
    platform.api.answer(
      { method: 'POST', path: '/v3/signable-order-details' },
      {
        status: 200,
        body: {
          ...signableTransfer,
          amount_buy: '1000',
          amount_sell: '1',
          asset_id_buy: '0x1',
          asset_id_sell: '0x2',
          stark_key: claims.imxStarkAddress,
          vault_id_buy: 3,
          vault_id_sell: 4,
        },
      },
    )
    guardianAnswers(false)
    platform.api.answer(
      { method: 'POST', path: '/v3/orders' },
      { status: 200, body: { order_id: 9, status: 'active', time: 1 } },
    )
    const sell = {
      type: 'ERC721' as const,
      tokenId: '5',
      tokenAddress: '0x00000000000000000000000000000000000000aa',
    }
    expect(
      await provider.createOrder({
        sell,
        buy: { type: 'ETH', amount: '100000000000' },
      }),
    ).toEqual({ order_id: 9, status: 'active', time: 1 })
    expect(bodyOf('/v3/signable-order-details')).toEqual({
      user: claims.imxEthAddress,
      amount_buy: '100000000000',
      token_buy: { type: 'ETH', data: { decimals: 18 } },
      amount_sell: '1',
      token_sell: {
        type: 'ERC721',
        data: { token_id: '5', token_address: sell.tokenAddress },
      },
      split_fees: true,
    })
    // The seed asks the wallet headers of transfers and trades only.
    expect(
      platform.api.to('/v3/orders')[0]?.headers['x-imx-eth-signature'],
    ).toBeUndefined()
    expect(bodyOf('/v3/orders')).toMatchObject({
      include_fees: true,
      amount_buy: '1000',
      amount_sell: '1',
      asset_id_buy: '0x1',
      asset_id_sell: '0x2',
      nonce: 77,
      stark_key: claims.imxStarkAddress,
      vault_id_buy: 3,
      vault_id_sell: 4,
    })

    platform.api.answer(
      { method: 'POST', path: '/v3/signable-order-details' },
      {
        status: 400,
        body: { code: 'VALIDATION_ERROR', message: 'Order is invalid' },
      },
    )
    const error = await errorOf(
      provider.createOrder({ sell, buy: { type: 'ETH', amount: '1' } }),
    )
    expect(error.type).toBe('CREATE_ORDER_ERROR')
    expect(error.message).toBe('Order is invalid')
  })

  test('behavior: a cancel is a DELETE with a JSON body; its refusal is CANCEL_ORDER_ERROR', async () => {
    const { provider } = await setup()
    platform.api.answer(
      { method: 'POST', path: '/v3/signable-cancel-order-details' },
      {
        status: 200,
        body: { payload_hash: payloadHash, signable_message: '' },
      },
    )
    guardianAnswers(false)
    platform.api.answer(
      { method: 'DELETE', path: '/v3/orders/9' },
      { status: 200, body: { order_id: 9, status: 'cancelled' } },
    )
    expect(await provider.cancelOrder({ order_id: 9 })).toEqual({
      order_id: 9,
      status: 'cancelled',
    })
    expect(bodyOf('/v3/signable-cancel-order-details')).toEqual({
      order_id: 9,
    })
    const body = bodyOf('/v3/orders/9') as Record<string, unknown>
    expect(body.order_id).toBe(9)
    expect(String(body.stark_signature)).toMatch(/^0x[0-9a-f]{128}$/)

    platform.api.answer(
      { method: 'POST', path: '/v3/signable-cancel-order-details' },
      {
        status: 404,
        body: { code: 'RESOURCE_NOT_FOUND', message: 'Order 10 not found' },
      },
    )
    const error = await errorOf(provider.cancelOrder({ order_id: 10 }))
    expect(error.type).toBe('CANCEL_ORDER_ERROR')
    expect(error.message).toBe('Order 10 not found')
  })

  test('behavior: a trade includes fees, names the player and carries the wallet headers; its refusal is CREATE_TRADE_ERROR', async () => {
    const { provider, claims } = await setup()
    platform.api.answer(
      { method: 'POST', path: '/v3/signable-trade-details' },
      {
        status: 200,
        body: {
          ...signableTransfer,
          amount_buy: '1',
          amount_sell: '1000',
          asset_id_buy: '0x2',
          asset_id_sell: '0x1',
          stark_key: claims.imxStarkAddress,
          vault_id_buy: 5,
          vault_id_sell: 6,
        },
      },
    )
    guardianAnswers(false)
    platform.api.answer(
      { method: 'POST', path: '/v3/trades' },
      { status: 200, body: { trade_id: 3, status: 'success' } },
    )
    expect(
      await provider.createTrade({ order_id: 9, user: 'ignored' }),
    ).toEqual({ trade_id: 3, status: 'success' })
    expect(bodyOf('/v3/signable-trade-details')).toEqual({
      order_id: 9,
      user: claims.imxEthAddress,
    })
    expect(bodyOf('/v3/trades')).toMatchObject({
      include_fees: true,
      order_id: 9,
      amount_buy: '1',
      amount_sell: '1000',
      stark_key: claims.imxStarkAddress,
    })
    expect(platform.api.to('/v3/trades')[0]?.headers.authorization).toMatch(
      /^Bearer /,
    )
    await expectWalletHeaders(
      '/v3/trades',
      signableTransfer.signable_message,
      claims.imxEthAddress,
    )

    platform.api.answer(
      { method: 'POST', path: '/v3/signable-trade-details' },
      {
        status: 400,
        body: { code: 'VALIDATION_ERROR', message: 'Order 9 is filled' },
      },
    )
    const error = await errorOf(
      provider.createTrade({ order_id: 9, user: 'ignored' }),
    )
    expect(error.type).toBe('CREATE_TRADE_ERROR')
    expect(error.message).toBe('Order 9 is filled')
  })

  test('behavior: an exchange transfer asks no guardian and opens no popup, and carries the wallet headers; its refusal is EXCHANGE_TRANSFER_ERROR', async () => {
    const { provider, popup, claims } = await setup()
    platform.api.answer(
      {
        method: 'POST',
        path: '/v2/exchanges/11/signable-transfer-details',
      },
      { status: 200, body: signableTransfer },
    )
    platform.api.answer(
      { method: 'POST', path: '/v2/exchanges/11/transfers' },
      { status: 200, body: { status: 'success', transfer_id: 5 } },
    )
    expect(
      await provider.exchangeTransfer({
        type: 'ETH',
        amount: '100000000',
        receiver,
        transactionID: '11',
      }),
    ).toEqual({
      sent_signature: undefined,
      status: 'success',
      time: undefined,
      transfer_id: 5,
    })
    expect(popup.log.opened).toEqual([])
    const [signable] = platform.api.to(
      '/v2/exchanges/11/signable-transfer-details',
    )
    expect(signable?.headers.authorization).toBeUndefined()
    expect(jsonOf(signable?.body)).toEqual({
      sender: claims.imxEthAddress,
      token: { type: 'ETH', data: { decimals: 18 } },
      amount: '100000000',
      receiver,
    })
    const [create] = platform.api.to('/v2/exchanges/11/transfers')
    expect(create?.headers.authorization).toMatch(/^Bearer /)
    await expectWalletHeaders(
      '/v2/exchanges/11/transfers',
      signableTransfer.signable_message,
      claims.imxEthAddress,
    )

    platform.api.answer(
      {
        method: 'POST',
        path: '/v2/exchanges/12/signable-transfer-details',
      },
      {
        status: 404,
        body: { code: 'RESOURCE_NOT_FOUND', message: 'Exchange 12 not found' },
      },
    )
    const error = await errorOf(
      provider.exchangeTransfer({
        type: 'ETH',
        amount: '1',
        receiver,
        transactionID: '12',
      }),
    )
    expect(error.type).toBe('EXCHANGE_TRANSFER_ERROR')
    expect(error.message).toBe('Exchange 12 not found')
  })
})
