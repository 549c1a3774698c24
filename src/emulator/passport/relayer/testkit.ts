/**
 * Test helpers for the relayer: a real Anvil with the contracts, the real
 * identity provider (for access tokens, by the sign-in pages), the shared
 * guardian state and the relayer on its own port; and the client's side of
 * the game wallet as the published SDK builds it (the player's
 * threshold-1 signature inside `execute` calldata). Used by the tests; not
 * part of the emulator's runtime.
 */
import * as jose from 'jose'
import {
  type Address,
  createPublicClient,
  createTestClient,
  type Hex,
  http,
  type LocalAccount,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { methods, path } from '../../../passport/wire/relayer.js'
import {
  encodeExecute,
  type MetaTransaction,
  playerWalletAddress,
  subDigest,
  transactionSignature,
  transactionsDigest,
} from '../../../passport/wire/sequence.js'
import { startAnvil } from '../../chain/anvil.js'
import { deployContracts } from '../../chain/deploy.js'
import { createGuardian } from '../../guardian.js'
import { findFreePort } from '../../net.js'
import { startServer } from '../../server.js'
import { custodyIdentity } from '../custody.js'
import { startIdentity, tokensFor } from '../identity/testkit.js'
import { createRelayer } from './service.js'

/** Starts a chain, the identity provider and the relayer. */
export async function startRelayer(
  options: { holdMs?: number | undefined } = {},
) {
  const anvil = await startAnvil({ port: await findFreePort() })
  const stops: (() => Promise<void>)[] = [() => anvil.stop()]
  const stop = async () => {
    for (const s of stops.toReversed()) await s()
  }
  try {
    const contracts = await deployContracts({ rpcUrl: anvil.rpcUrl })
    const identity = await startIdentity()
    stops.push(() => identity.stop())
    const guardian = createGuardian()
    const relayer = createRelayer({
      issuer: identity.issuer,
      registry: identity.registry,
      chains: [{ chainId: anvil.chainId, nodeUrl: anvil.rpcUrl, contracts }],
      guardian,
      holdMs: options.holdMs,
    })
    const server = await startServer({
      fetch: relayer.fetch,
      port: await findFreePort(),
      name: 'relayer',
      localOnly: ['/dev/'],
    })
    stops.push(async () => {
      relayer.stop()
      await server.stop()
    })
    const transport = http(anvil.rpcUrl)
    const publicClient = createPublicClient({ transport, pollingInterval: 50 })
    const testClient = createTestClient({ transport, mode: 'anvil' })
    return {
      url: server.url,
      chainId: anvil.chainId,
      contracts,
      identity,
      guardian,
      relayer,
      publicClient,
      testClient,
      stop,
    }
  } catch (error) {
    await stop()
    throw error
  }
}

/** A started relayer. */
export type Running = Awaited<ReturnType<typeof startRelayer>>

/** An access token for `email`, by the sign-in pages (authorization code + PKCE). */
export async function accessToken(
  identity: Running['identity'],
  email: string,
): Promise<string> {
  return (await tokensFor(identity, email)).accessToken
}

/** A JSON-RPC response of the relayer. */
export type RpcResponse = {
  status: number
  body: {
    id?: unknown
    result?: unknown
    error?: { code: number; message: string } | string
  }
}

/** Calls the relayer as the SDK does. */
export async function rpc(
  url: string,
  token: string | undefined,
  method: string,
  params: unknown,
): Promise<RpcResponse> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify({ id: 1, jsonrpc: '2.0', method, params }),
  })
  return {
    status: response.status,
    body: (await response.json()) as RpcResponse['body'],
  }
}

let players = 0

/**
 * A new player, signed in at the identity provider and registered as the
 * platform API registers one: their access token, their custody key (the
 * registry user of the token's issuer and subject, as the key-custody API
 * creates it) and the game wallet of that key, recorded on the player.
 */
export async function newPlayer(relayer: Running): Promise<Player> {
  const { identity, contracts } = relayer
  const token = await accessToken(
    identity,
    `relayer-player${++players}-${Date.now()}@example.com`,
  )
  const { sub } = jose.decodeJwt(token)
  if (typeof sub !== 'string') throw new Error('The token names no player.')
  const user = await identity.registry.findOrCreate(
    custodyIdentity(identity.issuer, sub),
  )
  const custody = privateKeyToAccount(identity.registry.revealKey(user.id))
  const wallet = playerWalletAddress({ custody: custody.address, contracts })
  identity.registry.setPassport(sub, {
    zkevmEthAddress: wallet,
    zkevmUserAdminAddress: custody.address,
  })
  return { token, custody, wallet }
}

/** A registered player: their access token, custody key and game wallet. */
export type Player = {
  token: string
  custody: LocalAccount
  wallet: Address
}

/**
 * `eth_sendTransaction`'s params as the SDK builds them: the player signs
 * the sub-digest with eth_sign and sends threshold 1 with its part only.
 */
export async function clientSend(options: {
  chainId: number
  wallet: Address
  custody: LocalAccount
  nonce: bigint
  transactions: readonly MetaTransaction[]
}) {
  const { chainId, wallet, custody, nonce, transactions } = options
  const digest = transactionsDigest(nonce, transactions)
  // As the client signs: the custody key's part alone, threshold 1.
  const signature = transactionSignature(
    await custody.signMessage({
      message: { raw: subDigest({ chainId, wallet, digest }) },
    }),
  )
  return {
    digest,
    params: [
      {
        to: wallet,
        data: encodeExecute({ transactions, nonce, signature }),
        chainId: `eip155:${chainId}`,
      },
    ],
  }
}

/** Polls `im_getTransactionByHash` until the status is final (not PENDING/SUBMITTED). */
export async function settled(
  url: string,
  token: string,
  relayerId: string,
): Promise<{
  status: string
  chainId: string
  relayerId: string
  hash?: Hex
  statusMessage?: string
}> {
  for (let i = 0; i < 600; i++) {
    const { body } = await rpc(url, token, methods.getTransactionByHash, [
      relayerId,
    ])
    const result = body.result as { status: string } | undefined
    if (!result) throw new Error(JSON.stringify(body))
    if (result.status !== 'PENDING' && result.status !== 'SUBMITTED')
      return result as never
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`${relayerId} never settled.`)
}
