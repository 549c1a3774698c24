/**
 * The game wallet's backends for the client's tests: the one test double of
 * each of them is the real emulated service. `startBackends`: Anvil with
 * the wallet contracts, behind the emulator's chain gateway; the identity
 * provider; the platform API with the guardian; the relayer.
 * `startPlatform`: the API and the identity provider alone, for the API's
 * clients that need no chain. They share one registry and one guardian, as
 * in the emulator, and each is served behind a tap (src/emulator/
 * testkit.ts) that records every request with its answer and answers what
 * a test scripts (a 500, a malformed body, a stall) instead of the
 * service. Chain state a test needs (a deployed wallet, a balance, a
 * wallet's nonce, code that reverts) is set on the real chain, with
 * Anvil's test methods. Used by the tests; not part of the emulator's
 * runtime.
 */
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  encodeAbiParameters,
  type Hex,
  http,
  keccak256,
  type LocalAccount,
  type PublicClient,
  parseEther,
  toHex,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { anvil as anvilChain } from 'viem/chains'
import {
  counterfactualAddressPath,
  registrationMessage,
} from '../../passport/wire/api.js'
import { paths } from '../../passport/wire/identity.js'
import {
  imageHash,
  playerWalletAddress,
  playerWalletConfig,
} from '../../passport/wire/sequence.js'
import { AnvilStartError, startAnvil } from '../chain/anvil.js'
import { Factory } from '../chain/artifacts.generated.js'
import {
  type Contracts,
  deployContracts,
  predictContracts,
} from '../chain/deploy.js'
import { createGateway } from '../chain/gateway.js'
import { createGuardian } from '../guardian.js'
import { findFreePort } from '../net.js'
import { createRegistry } from '../registry/index.js'
import { toNodeHandler } from '../server.js'
import { startTap } from '../testkit.js'
import { chainNameOf, createApiService } from './api/service.js'
import { custodyIdentity } from './custody.js'
import { startIdentity, type Tokens, tokensFor } from './identity/testkit.js'
import { createRelayer } from './relayer/service.js'

/** The chain id of the tests' chain, unless a test asks for another. */
export const testChainId = 13473

/**
 * Where a Sequence v1 wallet keeps its nonce of `space`:
 * `keccak256(abi.encode(NONCE_KEY, space))`, NONCE_KEY being
 * `keccak256("org.arcadeum.module.calls.nonce")` (ModuleCalls.sol).
 */
export function nonceSlot(space: bigint): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'bytes32' }, { type: 'uint256' }],
      [
        '0x8d0bf1fd623d628c741362c1289948e57b3e2905218c676d3e69abee36d6ae2e',
        space,
      ],
    ),
  )
}

/** Runtime code that reverts with empty data (`PUSH1 0 PUSH1 0 REVERT`). */
export const revertingCode: Hex = '0x60006000fd'

/** A player signed in at the identity provider, with their custody key. */
export type Player = Tokens & {
  email: string
  /** The custody key (the registry's, as the key-custody API holds it). */
  custody: LocalAccount
  /** The counterfactual address of the player's game wallet. */
  wallet: Address
}

/**
 * The platform API with the guardian and the identity provider its tokens
 * come from, sharing one registry, each behind a tap: what a test of the
 * API's clients needs without a chain (the API only names the chain, and
 * computes wallets from the contracts' addresses).
 */
export async function startPlatform(
  options: {
    chainId?: number | undefined
    /** The chain's public endpoint, as the API lists it. */
    rpcUrl?: string | undefined
    /** Anvil's endpoint, where the registry funds its users' keys. */
    nodeUrl?: string | undefined
    /** @default the addresses a fresh emulator chain gets */
    contracts?: Contracts | undefined
  } = {},
) {
  const chainId = options.chainId ?? testChainId
  const contracts = options.contracts ?? predictContracts()
  const stops: (() => Promise<unknown>)[] = []
  const stop = async () => {
    for (const step of stops.splice(0).toReversed()) await step()
  }
  try {
    const registry = createRegistry(
      options.nodeUrl === undefined ? {} : { rpcUrl: options.nodeUrl },
    )
    const identity = await startIdentity({ registry })
    stops.push(() => identity.stop())
    const guardian = createGuardian()
    const apiApp = createApiService({
      issuer: identity.issuer,
      registry,
      guardian,
      chains: [
        {
          chainId,
          rpcUrl: options.rpcUrl ?? 'http://127.0.0.1:8545',
          nodeUrl: options.nodeUrl,
          contracts,
        },
      ],
      walletAddress: (custody) => playerWalletAddress({ custody, contracts }),
    })
    const api = await startTap({
      upstream: toNodeHandler(apiApp.fetch, { name: 'api' }),
      name: 'api',
      localOnly: ['/dev/'],
    })
    stops.push(() => api.stop())
    let players = 0

    const platform = {
      chainId,
      /** The chain's name at the platform API. */
      chainName: chainNameOf(chainId),
      contracts,
      identity,
      api,
      guardian,
      registry,

      /**
       * A new player signed in at the identity provider (by its pages),
       * with their custody key as the key-custody API creates it.
       */
      async player(): Promise<Player> {
        const email = `player${++players}-${crypto.randomUUID()}@example.com`
        const tokens = await tokensFor(identity, email)
        const user = await registry.findOrCreate(
          custodyIdentity(identity.issuer, tokens.sub),
        )
        const custody = privateKeyToAccount(registry.revealKey(user.id))
        const wallet = playerWalletAddress({
          custody: custody.address,
          contracts,
        })
        return { ...tokens, email, custody, wallet }
      },

      /**
       * Registers the player's game wallet at the platform API, as the
       * published SDK does (the custody key's signature, v 0 or 1).
       */
      async register(player: Player): Promise<void> {
        const signature = await player.custody.signMessage({
          message: registrationMessage,
        })
        const v = Number.parseInt(signature.slice(130), 16) - 27
        const response = await fetch(
          `${api.url}${counterfactualAddressPath(chainNameOf(chainId))}`,
          {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              authorization: `Bearer ${player.accessToken}`,
            },
            body: JSON.stringify({
              ethereum_address: player.custody.address,
              ethereum_signature: `${signature.slice(0, 130)}0${v}`,
            }),
          },
        )
        if (response.status !== 200)
          throw new Error(
            `Register: ${response.status} ${await response.text()}`,
          )
      },

      /**
       * The player's tokens refreshed at the identity provider (a
       * refreshed id token carries the wallet once it is registered).
       */
      async refresh(player: Player): Promise<Player> {
        const response = await fetch(`${identity.issuer}${paths.token}`, {
          method: 'POST',
          body: new URLSearchParams({
            grant_type: 'refresh_token',
            client_id: identity.clientId,
            refresh_token: player.refreshToken,
          }),
        })
        const body = (await response.json()) as Record<string, string>
        if (response.status !== 200)
          throw new Error(`Refresh: ${response.status} ${body.error}`)
        return {
          ...player,
          accessToken: String(body.access_token),
          idToken: String(body.id_token),
          refreshToken: String(body.refresh_token ?? player.refreshToken),
        }
      },

      /** Forgets the taps' records and scripts. */
      reset() {
        identity.clear()
        api.clear()
      },

      stop,
    }
    return platform
  } catch (error) {
    await stop()
    throw error
  }
}

/** A started platform API and identity provider. */
export type Platform = Awaited<ReturnType<typeof startPlatform>>

/**
 * Starts the backends on free ports: Anvil (chain id `testChainId` unless
 * given) with the contracts behind the chain gateway, the platform API and
 * the identity provider ({@link startPlatform}), and the relayer. Start it
 * once per test file: Anvil and the deployment take a moment.
 */
export async function startBackends(
  options: {
    chainId?: number | undefined
    /** How long the relayer holds a transaction whose nonce is ahead. */
    holdMs?: number | undefined
  } = {},
) {
  const chainId = options.chainId ?? testChainId
  const stops: (() => Promise<unknown>)[] = []
  const stop = async () => {
    for (const step of stops.splice(0).toReversed()) await step()
  }
  try {
    const anvil = await startFreeAnvil(chainId)
    stops.push(() => anvil.stop())
    const contracts = await deployContracts({ rpcUrl: anvil.rpcUrl, chainId })
    const node = await startTap({
      upstream: createGateway({ nodeUrl: anvil.rpcUrl }),
      name: `chain ${chainId}`,
    })
    stops.push(() => node.stop())
    const platform = await startPlatform({
      chainId,
      rpcUrl: node.url,
      nodeUrl: anvil.rpcUrl,
      contracts,
    })
    stops.push(() => platform.stop())
    const relayerService = createRelayer({
      issuer: platform.identity.issuer,
      registry: platform.registry,
      chains: [{ chainId, nodeUrl: anvil.rpcUrl, contracts }],
      guardian: platform.guardian,
      holdMs: options.holdMs,
    })
    stops.push(async () => relayerService.stop())
    const relayer = await startTap({
      upstream: toNodeHandler(relayerService.fetch, { name: 'relayer' }),
      name: 'relayer',
      localOnly: ['/dev/'],
    })
    stops.push(() => relayer.stop())

    const chain = defineChain({
      ...anvilChain,
      id: chainId,
      rpcUrls: { default: { http: [anvil.rpcUrl] } },
    })
    const transport = http(anvil.rpcUrl)
    const publicClient: PublicClient = createPublicClient({
      chain,
      transport,
      pollingInterval: 50,
    })
    const testClient = createTestClient({ chain, transport, mode: 'anvil' })

    return {
      ...platform,
      /** Anvil's own JSON-RPC endpoint (the tests' viem clients use it). */
      nodeUrl: anvil.rpcUrl,
      /** The chain as the wallet reaches it: the gateway, behind its tap. */
      node,
      relayer,
      /** The relayer's test controls: its fee, the outcome of the next sends. */
      relayerControls: relayerService.controls,
      publicClient,
      testClient,

      /**
       * Deploys the player's wallet through the Factory, from a funded
       * account of its own (no service's sender, whose nonces they track).
       */
      async deploy(player: Player): Promise<void> {
        const salt = imageHash(
          playerWalletConfig({
            custody: player.custody.address,
            coSigner: contracts.coSigner,
          }),
        )
        const sender = privateKeyToAccount(generatePrivateKey())
        await testClient.setBalance({
          address: sender.address,
          value: parseEther('1'),
        })
        const hash = await createWalletClient({
          account: sender,
          chain,
          transport,
        }).writeContract({
          address: contracts.factory,
          abi: Factory.abi,
          functionName: 'deploy',
          args: [contracts.mainModule, salt],
          // An estimate can settle on too little: a CREATE2 out of gas
          // fails without reverting the factory's call.
          gas: 200_000n,
        })
        const receipt = await publicClient.waitForTransactionReceipt({ hash })
        const code = await publicClient.getCode({ address: player.wallet })
        if (receipt.status !== 'success' || code === undefined)
          throw new Error(`The wallet ${player.wallet} was not deployed.`)
      },

      /** Sets `address`'s balance, in wei. */
      fund: (address: Address, wei: bigint) =>
        testClient.setBalance({ address, value: wei }),

      /** Sets the wallet's nonce of `space` (its storage, on chain). */
      setNonce: (wallet: Address, space: bigint, nonce: bigint) =>
        testClient.setStorageAt({
          address: wallet,
          index: nonceSlot(space),
          value: toHex(nonce, { size: 32 }),
        }),

      /** Puts `code` at `address`. */
      setCode: (address: Address, code: Hex) =>
        testClient.setCode({ address, bytecode: code }),

      /** Forgets the taps' records and scripts and the relayer's plans. */
      reset() {
        platform.reset()
        node.clear()
        relayer.clear()
        relayerService.controls.reset()
      },

      stop,
    }
  } catch (error) {
    await stop()
    throw error
  }
}

/** Started backends. */
export type Backends = Awaited<ReturnType<typeof startBackends>>

/**
 * Anvil on a port the system says is free; another process may take it
 * between the check and the start, so a few ports are tried.
 */
async function startFreeAnvil(chainId: number) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startAnvil({ chainId, port: await findFreePort() })
    } catch (error) {
      const taken =
        error instanceof AnvilStartError && /in use/.test(error.shortMessage)
      if (!taken || attempt >= 5) throw error
    }
  }
}
