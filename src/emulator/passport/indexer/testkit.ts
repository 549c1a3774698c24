/**
 * Test helpers for the indexer: an Anvil of the test's own (a snapshot
 * revert must not reach other tests' chains) with the emulator's contracts
 * and the indexer's fixture contracts (`_test/Fixtures.sol`: a burnable
 * ERC-20, ERC-721 and ERC-1155, and a marketplace that reports its fills
 * with Seaport's `OrderFulfilled`), the indexer following it, and the
 * platform API serving the indexer's routes on a free port. Used by the
 * tests; not part of the emulator's runtime.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type Abi,
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  type Hex,
  http,
  type LocalAccount,
  parseEther,
  type TransactionReceipt,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { anvil as anvilChain } from 'viem/chains'
import { startAnvil } from '../../chain/anvil.js'
import { deployContracts } from '../../chain/deploy.js'
import { createGuardian } from '../../guardian.js'
import { findFreePort } from '../../net.js'
import { createRegistry } from '../../registry/index.js'
import { startServer } from '../../server.js'
import { chainNameOf } from '../api/chains.js'
import { createApiService } from '../api/service.js'
import { createIndexer, type ListingsSource } from './indexer.js'

/** The fixture contracts' names. */
export type FixtureName =
  | 'FixtureToken'
  | 'FixtureCollection'
  | 'FixtureItems'
  | 'FixtureMarket'

/** A compiled contract. */
export type Artifact = { abi: Abi; bytecode: Hex }

let compiled: Record<FixtureName, Artifact> | undefined

/**
 * The fixture contracts, compiled by the npm solc (cached in the system's
 * temporary folder by the source's hash: every test file needs them).
 */
export function fixtureArtifacts(): Record<FixtureName, Artifact> {
  if (compiled) return compiled
  const require = createRequire(import.meta.url)
  const source = readFileSync(
    new URL('./_test/Fixtures.sol', import.meta.url),
    'utf8',
  )
  const solc = require('solc') as {
    version(): string
    compile(input: string, callbacks: object): string
  }
  const hash = createHash('sha256')
    .update(solc.version())
    .update(source)
    .digest('hex')
    .slice(0, 16)
  const folder = join(tmpdir(), 'embedded-wallets-fixtures')
  const cache = join(folder, `indexer-${hash}.json`)
  try {
    compiled = JSON.parse(readFileSync(cache, 'utf8'))
    if (compiled) return compiled
  } catch {
    // Not compiled yet.
  }
  const modules = (path: string) => {
    try {
      return { contents: readFileSync(require.resolve(path), 'utf8') }
    } catch {
      return { error: `${path} not found` }
    }
  }
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: 'Solidity',
        sources: { 'Fixtures.sol': { content: source } },
        settings: {
          optimizer: { enabled: true, runs: 200 },
          evmVersion: 'prague',
          outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
        },
      }),
      { import: modules },
    ),
  ) as {
    errors?: { severity: string; formattedMessage: string }[]
    contracts?: Record<
      string,
      Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>
    >
  }
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length > 0)
    throw new Error(errors.map((e) => e.formattedMessage).join('\n'))
  const contracts = output.contracts?.['Fixtures.sol'] ?? {}
  const artifact = (name: FixtureName): Artifact => {
    const contract = contracts[name]
    if (!contract) throw new Error(`solc compiled no ${name}.`)
    return {
      abi: contract.abi,
      bytecode: `0x${contract.evm.bytecode.object}`,
    }
  }
  compiled = {
    FixtureToken: artifact('FixtureToken'),
    FixtureCollection: artifact('FixtureCollection'),
    FixtureItems: artifact('FixtureItems'),
    FixtureMarket: artifact('FixtureMarket'),
  }
  mkdirSync(folder, { recursive: true })
  writeFileSync(cache, JSON.stringify(compiled))
  return compiled
}

/** A JSON answer of the API. */
export type Answer = {
  status: number
  headers: Headers
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers of many shapes.
  body: any
}

/**
 * Sends requests to the API at `origin`: a JSON body when one is given, the
 * answer's body parsed as JSON when it is JSON.
 */
export function requester(origin: string) {
  return async (
    method: string,
    path: string,
    init: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Answer> => {
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: {
        ...(init.body === undefined
          ? {}
          : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      ...(init.body === undefined
        ? {}
        : {
            body:
              typeof init.body === 'string'
                ? init.body
                : JSON.stringify(init.body),
          }),
    })
    const text = await response.text()
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      body = text
    }
    return { status: response.status, headers: response.headers, body }
  }
}

/**
 * Starts an Anvil with the emulator's contracts, the indexer and the
 * platform API with its routes.
 */
export async function startIndexerTest(
  options: {
    listings?: ListingsSource | undefined
    pollingInterval?: number | undefined
    /** The indexer's clock. @default () => new Date() */
    now?: (() => Date) | undefined
    /**
     * Deploys a `FixtureMarket` first and has the indexer take it for the
     * chain's Seaport (`kit.market`).
     */
    market?: boolean | undefined
  } = {},
) {
  const artifacts = fixtureArtifacts()
  const anvil = await startAnvil({ port: await findFreePort() })
  const stops: (() => Promise<void>)[] = [() => anvil.stop()]
  const stop = async () => {
    for (const step of stops.toReversed()) await step()
  }
  try {
    const contracts = await deployContracts({ rpcUrl: anvil.rpcUrl })
    const chain = defineChain({
      ...anvilChain,
      id: anvil.chainId,
      rpcUrls: { default: { http: [anvil.rpcUrl] } },
    })
    const transport = http(anvil.rpcUrl)
    const publicClient = createPublicClient({
      chain,
      transport,
      pollingInterval: 50,
    })
    const testClient = createTestClient({ chain, transport, mode: 'anvil' })
    const walletOf = (account: LocalAccount) =>
      createWalletClient({ account, chain, transport, pollingInterval: 50 })

    const deployFixture = async (
      from: LocalAccount,
      name: FixtureName,
      args: readonly unknown[] = [],
    ): Promise<Address> => {
      const { abi, bytecode } = artifacts[name]
      const hash = await walletOf(from).deployContract({ abi, bytecode, args })
      const receipt = await publicClient.waitForTransactionReceipt({ hash })
      if (!receipt.contractAddress) throw new Error(`${name} not deployed.`)
      return receipt.contractAddress.toLowerCase() as Address
    }
    const fund = async (): Promise<LocalAccount> => {
      const account = privateKeyToAccount(generatePrivateKey())
      await testClient.setBalance({
        address: account.address,
        value: parseEther('100'),
      })
      return account
    }
    const market = options.market
      ? await deployFixture(await fund(), 'FixtureMarket')
      : undefined

    const indexer = createIndexer({
      chains: [
        { chainId: anvil.chainId, nodeUrl: anvil.rpcUrl, seaport: market },
      ],
      listings: options.listings,
      pollingInterval: options.pollingInterval,
      now: options.now,
    })
    stops.push(() => indexer.stop())
    const app = createApiService({
      issuer: 'http://127.0.0.1:9',
      registry: createRegistry(),
      guardian: createGuardian(),
      chains: [{ chainId: anvil.chainId, rpcUrl: anvil.rpcUrl }],
      walletAddress: () => '0x0000000000000000000000000000000000000001',
      indexer,
    })
    const server = await startServer({
      fetch: app.fetch,
      port: await findFreePort(),
      localOnly: ['/dev/'],
    })
    stops.push(() => server.stop())
    const chainName = chainNameOf(anvil.chainId)

    const request = requester(server.url)

    const kit = {
      rpcUrl: anvil.rpcUrl,
      chainId: anvil.chainId,
      chainName,
      contracts,
      artifacts,
      publicClient,
      testClient,
      indexer,
      url: server.url,
      /** The marketplace the indexer takes for Seaport, if asked for. */
      market,
      /** A new account holding 100 ether. */
      account: fund,
      /** Deploys a fixture contract from `from`; its address. */
      deploy: deployFixture,
      /**
       * Calls a contract's function (a fixture's, or of the ABI given)
       * from `from` and waits for its receipt.
       */
      async send(
        from: LocalAccount,
        name: FixtureName | Abi,
        address: Address,
        functionName: string,
        args: readonly unknown[] = [],
        value?: bigint,
      ): Promise<TransactionReceipt> {
        const hash = await walletOf(from).sendTransaction({
          to: address,
          data: encodeFunctionData({
            abi: typeof name === 'string' ? artifacts[name].abi : name,
            functionName,
            args,
          }),
          ...(value === undefined ? {} : { value }),
        })
        const receipt = await publicClient.waitForTransactionReceipt({ hash })
        if (receipt.status !== 'success')
          throw new Error(`${functionName} reverted.`)
        return receipt
      },
      /** A request to the API. */
      request,
      /** `GET /v1/chains/{chain}{path}`. */
      get: (path: string, headers?: Record<string, string>) =>
        request('GET', `/v1/chains/${chainName}${path}`, {
          ...(headers ? { headers } : {}),
        }),
      /** `POST /v1/chains/{chain}{path}` with a JSON body. */
      post: (path: string, body: unknown, headers?: Record<string, string>) =>
        request('POST', `/v1/chains/${chainName}${path}`, {
          body,
          ...(headers ? { headers } : {}),
        }),
      stop,
    }
    return kit
  } catch (error) {
    await stop()
    throw error
  }
}

/** A running indexer test kit. */
export type IndexerTest = Awaited<ReturnType<typeof startIndexerTest>>

/**
 * A clock the test moves: `now()` answers the time last set (ISO 8601).
 *
 * @example
 * ```ts
 * const clock = createClock('2026-01-01T00:00:00.000Z')
 * clock.set('2026-01-01T00:01:00.000Z')
 * ```
 */
export function createClock(start: string) {
  let time = new Date(start)
  return {
    now: () => new Date(time),
    set(iso: string) {
      time = new Date(iso)
    },
  }
}

/** A `data:application/json;base64,` URI of `json`. */
export function dataUri(json: unknown): string {
  return `data:application/json;base64,${Buffer.from(JSON.stringify(json)).toString('base64')}`
}
