/**
 * Test helpers for the platform API: the service on a free port beside a
 * real identity provider (sharing its registry), players signed in through
 * the provider's pages, their custody keys, and requests with their tokens.
 * Used by the tests; not part of the emulator's runtime.
 */

import type { Address, Hex } from 'viem'
import { registrationMessage } from '../../../passport/wire/api.js'
import { playerWalletAddress } from '../../../passport/wire/sequence.js'
import { predictContracts } from '../../chain/deploy.js'
import { orderTypes } from '../../chain/seaport.js'
import { createGuardian, type Guardian } from '../../guardian.js'
import { findFreePort } from '../../net.js'
import type { User } from '../../registry/index.js'
import { startServer } from '../../server.js'
import { requestJson } from '../../testkit.js'
import { custodyIdentity } from '../custody.js'
import { startIdentity, type Tokens, tokensFor } from '../identity/testkit.js'
import { chainNameOf } from './chains.js'
import type { ApiChain, WalletAddressOf } from './http.js'
import { createApiService } from './service.js'

/** The chains the tests' API lists: a main chain and a second one. */
export const testChains: readonly ApiChain[] = [
  { chainId: 31337, rpcUrl: 'http://127.0.0.1:8545' },
  { chainId: 1337, rpcUrl: 'http://127.0.0.1:8546' },
]

/** The main test chain's API name. */
export const mainChainName = chainNameOf(31337)

/**
 * The game wallet of a custody key with the contracts a fresh emulator
 * chain gets, as the emulator's API computes it.
 */
export const testWalletAddress: WalletAddressOf = (custody) =>
  playerWalletAddress({ custody, contracts: predictContracts() })

/** A player signed in at the identity provider. */
export type Player = Tokens & {
  email: string
  /** The registry user (keyed by email). */
  user: User
}

/**
 * The passport domain the tests' API trusts to settle verdicts (no server
 * listens there: only the `Origin` a request carries is compared).
 */
export const testPassportOrigin = 'http://passport.localhost'

/** Starts an identity provider and the API on free ports. */
export async function startApi(
  options: {
    walletAddress?: WalletAddressOf | undefined
    /** @default testChains */
    chains?: readonly ApiChain[] | undefined
  } = {},
) {
  const identity = await startIdentity()
  const guardian: Guardian = createGuardian()
  const app = createApiService({
    issuer: identity.issuer,
    registry: identity.registry,
    guardian,
    chains: options.chains ?? testChains,
    walletAddress: options.walletAddress ?? testWalletAddress,
    passportOrigin: testPassportOrigin,
  })
  const server = await startServer({
    fetch: app.fetch,
    port: await findFreePort(),
    localOnly: ['/dev/'],
  })
  const url = server.url
  let count = 0

  const api = {
    url,
    identity,
    guardian,
    passportOrigin: testPassportOrigin,
    registry: identity.registry,
    /** Signs a new player in (a fresh email unless one is given). */
    async player(email = `player${++count}-${Date.now()}@example.com`) {
      const tokens = await tokensFor(identity, email)
      const user = identity.registry.get(tokens.sub)
      if (!user) throw new Error(`No user ${tokens.sub}.`)
      return { ...tokens, email, user } satisfies Player
    },
    /** The player's custody key (created as the key-custody API does). */
    custody: (player: Player) =>
      identity.registry.findOrCreate(
        custodyIdentity(identity.issuer, player.sub),
      ),
    /**
     * The custody key's registration signature as the published SDK sends
     * it: `r ‖ s ‖ v` with v 0 or 1 (or 27/28 with `legacyV`).
     */
    async registrationSignature(custody: User, legacyV = false): Promise<Hex> {
      const signature = await identity.registry.signMessage(
        custody.id,
        registrationMessage,
      )
      if (legacyV) return signature
      const v = Number.parseInt(signature.slice(130), 16) - 27
      return `${signature.slice(0, 130)}0${v}` as Hex
    },
    /** Registers the player's zkEVM wallet; returns its address. */
    async register(player: Player): Promise<Address> {
      const custody = await api.custody(player)
      const response = await api.post(
        `/v2/chains/${mainChainName}/passport/counterfactual-address`,
        {
          ethereum_address: custody.address,
          ethereum_signature: await api.registrationSignature(custody),
        },
        player.accessToken,
      )
      if (response.status !== 200)
        throw new Error(`Register: ${response.status} ${response.text}`)
      return (response.body as { counterfactual_address: Address })
        .counterfactual_address
    },
    /** A JSON request; `token` goes in `Authorization: Bearer`. */
    request(
      method: string,
      path: string,
      options: {
        body?: unknown
        token?: string | undefined
        headers?: Record<string, string> | undefined
      } = {},
    ) {
      return requestJson(url, method, path, options)
    },
    get: (path: string, token?: string) => api.request('GET', path, { token }),
    post: (path: string, body: unknown, token?: string) =>
      api.request('POST', path, { body, token }),
    put: (path: string, body: unknown) => api.request('PUT', path, { body }),
    async stop() {
      await server.stop()
      await identity.stop()
    },
  }
  return api
}

/** A running test API. */
export type TestApi = Awaited<ReturnType<typeof startApi>>

/**
 * A Seaport listing of one ERC-721 for 0.01 of the native token plus a fee
 * of 0.00025, as @imtbl/orderbook asks the wallet to sign it.
 */
export function seaportListing(options: {
  chainId: number
  offerer: Address
  token: Address
  tokenId: string
  seaport: Address
  feeRecipient: Address
}) {
  return {
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'version', type: 'string' },
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
      ],
      ...orderTypes,
    },
    domain: {
      name: 'ImmutableSeaport',
      version: '1.5',
      chainId: options.chainId,
      verifyingContract: options.seaport,
    },
    primaryType: 'OrderComponents',
    message: {
      offerer: options.offerer,
      zone: '0x0000000000000000000000000000000000000000',
      offer: [
        {
          itemType: '2',
          token: options.token,
          identifierOrCriteria: options.tokenId,
          startAmount: '1',
          endAmount: '1',
        },
      ],
      consideration: [
        {
          itemType: '0',
          token: '0x0000000000000000000000000000000000000000',
          identifierOrCriteria: '0',
          startAmount: '10000000000000000',
          endAmount: '10000000000000000',
          recipient: options.offerer,
        },
        {
          itemType: '0',
          token: '0x0000000000000000000000000000000000000000',
          identifierOrCriteria: '0',
          startAmount: '250000000000000',
          endAmount: '250000000000000',
          recipient: options.feeRecipient,
        },
      ],
      orderType: '0',
      startTime: '1700000000',
      endTime: '2000000000',
      zoneHash: `0x${'00'.repeat(32)}`,
      salt: '12345',
      conduitKey: `0x${'00'.repeat(32)}`,
      counter: '0',
    },
  }
}
