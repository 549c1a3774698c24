/**
 * Test helpers for the emulated StarkEx exchange: the service on a free
 * port beside a real identity provider (sharing its registry) and a
 * guardian, players signed in through the provider's pages, registered
 * with a fresh Stark key, assets minted through the dev route, and
 * requests with their tokens. Used by the tests; not part of the
 * emulator's runtime.
 */
import { getStarkKey, sign, utils } from '@scure/starknet'
import type { Address, Hex } from 'viem'
import type { DevMintRequest } from '../../../passport/wire/starkex.js'
import {
  createGuardian,
  type Guardian,
  starkExChainId,
  starkExDigest,
} from '../../guardian.js'
import { findFreePort } from '../../net.js'
import type { User } from '../../registry/index.js'
import { startServer } from '../../server.js'
import { type JsonAnswer, requestJson } from '../../testkit.js'
import { custodyIdentity } from '../custody.js'
import { startIdentity, type Tokens, tokensFor } from '../identity/testkit.js'
import { createStarkExService } from './service.js'
import { normalizeStarkKey } from './stark.js'

/** A player signed in at the identity provider, with a Stark key of their own. */
export type Player = Tokens & {
  email: string
  user: User
  /** The Stark private key (hex). */
  starkPrivateKey: string
  /** `0x` + 64 hex digits. */
  starkKey: string
  /** The custody key's address: the player's StarkEx address once registered. */
  ethAddress: Address
}

/** A response read as JSON. */
export type Answer = JsonAnswer

/** Signs a payload hash (as the exchange prints it) with a Stark key: `0x` + r + s. */
export function starkSign(payloadHash: string, privateKey: string): string {
  const signature = sign(`0x${payloadHash}`, privateKey)
  return `0x${signature.r.toString(16).padStart(64, '0')}${signature.s.toString(16).padStart(64, '0')}`
}

/** A fresh Stark private key. */
export function newStarkKey(): { privateKey: string; starkKey: string } {
  const privateKey = `0x${Buffer.from(utils.randomPrivateKey()).toString('hex')}`
  return { privateKey, starkKey: normalizeStarkKey(getStarkKey(privateKey))! }
}

/**
 * Starts an identity provider and the exchange on free ports, the
 * exchange's clock at `clock.now` (tests move it).
 */
export async function startStarkEx() {
  const identity = await startIdentity()
  const guardian: Guardian = createGuardian()
  const clock = { now: Date.now() }
  const { app, deps } = createStarkExService({
    issuer: identity.issuer,
    registry: identity.registry,
    guardian,
    now: () => clock.now,
  })
  const server = await startServer({
    fetch: app.fetch,
    port: await findFreePort(),
    localOnly: ['/dev/'],
  })
  const url = server.url
  let count = 0

  const kit = {
    url,
    identity,
    guardian,
    deps,
    clock,
    registry: identity.registry,
    /** Signs a new player in; their custody key is created as the key-custody API does. */
    async player(): Promise<Player> {
      const email = `starkex${++count}-${Date.now()}@example.com`
      const tokens = await tokensFor(identity, email)
      const user = identity.registry.get(tokens.sub)
      if (!user) throw new Error(`No user ${tokens.sub}.`)
      const custody = await identity.registry.findOrCreate(
        custodyIdentity(identity.issuer, tokens.sub),
      )
      const { privateKey, starkKey } = newStarkKey()
      return {
        ...tokens,
        email,
        user,
        starkPrivateKey: privateKey,
        starkKey,
        ethAddress: custody.address,
      }
    },
    /**
     * The player's custody key as an ethers-like signer (`getAddress`,
     * `signMessage` with EIP-191, v as 1b/1c), for the published SDK's
     * helpers.
     */
    custodySigner(player: Player) {
      const custody = identity.registry.find(
        custodyIdentity(identity.issuer, player.sub),
      )
      if (!custody) throw new Error('No custody key.')
      return {
        getAddress: async (): Promise<Address> => custody.address,
        signMessage: (message: string): Promise<Hex> =>
          identity.registry.signMessage(custody.id, message),
      }
    },
    /** The custody key's EIP-191 signature of `message`, v as 00/01 (as the published SDK sends it). */
    async ethSign(player: Player, message: string): Promise<Hex> {
      const signature = await kit.custodySigner(player).signMessage(message)
      const v = Number.parseInt(signature.slice(130), 16) - 27
      return `${signature.slice(0, 130)}0${v}` as Hex
    },
    /**
     * The signed wallet headers of a create: the player's StarkEx address
     * and the custody key's signature of `message` (the signable answer's
     * `signable_message`), as the published x-client sends them.
     */
    async walletHeaders(
      player: Player,
      message: string,
    ): Promise<Record<string, string>> {
      return {
        'x-imx-eth-address': player.ethAddress,
        'x-imx-eth-signature': await kit.ethSign(player, message),
      }
    },
    /** Registers the player off chain, as the published SDK does; the answer of the create. */
    async register(player: Player): Promise<Answer> {
      const signable = await kit.post('/v1/signable-registration-offchain', {
        ether_key: player.ethAddress,
        stark_key: player.starkKey,
      })
      if (signable.status !== 200)
        throw new Error(`Signable registration: ${signable.text}`)
      return kit.post(
        '/v2/passport/users',
        {
          eth_signature: await kit.ethSign(
            player,
            signable.body.signable_message,
          ),
          ether_key: player.ethAddress,
          stark_signature: starkSign(
            signable.body.payload_hash,
            player.starkPrivateKey,
          ),
          stark_key: player.starkKey,
        },
        player.accessToken,
      )
    },
    /** A registered player. */
    async registered(): Promise<Player> {
      const player = await kit.player()
      const answer = await kit.register(player)
      if (answer.status !== 201) throw new Error(`Register: ${answer.text}`)
      return player
    },
    /** Credits through the dev route. */
    mint: (body: DevMintRequest) => kit.post('/dev/starkex/mint', body),
    /** Records the guardian's approval of a payload hash for a wallet. */
    approve(wallet: Address, payloadHash: string) {
      guardian.record({
        kind: 'starkex',
        chainId: starkExChainId,
        wallet,
        digest: starkExDigest(payloadHash),
        payload: null,
        state: 'allowed',
      })
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
    ): Promise<Answer> {
      return requestJson(url, method, path, options)
    },
    get: (path: string, token?: string) => kit.request('GET', path, { token }),
    post: (path: string, body: unknown, token?: string) =>
      kit.request('POST', path, { body, token }),
    async stop() {
      await server.stop()
      await identity.stop()
    },
  }
  return kit
}

/** A running test exchange. */
export type TestStarkEx = Awaited<ReturnType<typeof startStarkEx>>
