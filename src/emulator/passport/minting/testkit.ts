/**
 * Test helpers for the minting backend: an Anvil of the test's own (the
 * emulator's minter must send from one place only), the emulator's
 * contracts on it, the indexer following it, the minting backend, and the
 * platform API serving both on a free port. Used by the tests; not part
 * of the emulator's runtime.
 */
import {
  createPublicClient,
  createTestClient,
  defineChain,
  http,
  type LocalAccount,
  parseEther,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { anvil as anvilChain } from 'viem/chains'
import { startAnvil } from '../../chain/anvil.js'
import { deployContracts } from '../../chain/deploy.js'
import { platformApiKey } from '../../constants.js'
import { createGuardian } from '../../guardian.js'
import { findFreePort } from '../../net.js'
import { createRegistry } from '../../registry/index.js'
import { startServer } from '../../server.js'
import { chainNameOf } from '../api/chains.js'
import { createApiService } from '../api/service.js'
import { createIndexer } from '../indexer/indexer.js'
import { requester } from '../indexer/testkit.js'
import { mintingIndexerOf } from './link.js'
import { createMinting } from './minting.js'

export type { Answer } from '../indexer/testkit.js'

/** Starts an Anvil with the emulator's contracts, the indexer, minting and the API. */
export async function startMintingTest(
  options: { now?: (() => Date) | undefined } = {},
) {
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
    const indexer = createIndexer({
      chains: [{ chainId: anvil.chainId, nodeUrl: anvil.rpcUrl }],
      now: options.now,
    })
    stops.push(() => indexer.stop())
    const minting = createMinting({
      chains: [
        {
          chainId: anvil.chainId,
          nodeUrl: anvil.rpcUrl,
          collections: [
            { address: contracts.erc721, standard: 'ERC721' },
            { address: contracts.erc1155, standard: 'ERC1155' },
          ],
        },
      ],
      indexer: mintingIndexerOf(indexer),
      now: options.now,
    })
    stops.push(() => minting.stop())
    const app = createApiService({
      issuer: 'http://127.0.0.1:9',
      registry: createRegistry(),
      guardian: createGuardian(),
      chains: [{ chainId: anvil.chainId, rpcUrl: anvil.rpcUrl }],
      walletAddress: () => '0x0000000000000000000000000000000000000001',
      indexer,
      minting,
    })
    const server = await startServer({
      fetch: app.fetch,
      port: await findFreePort(),
      localOnly: ['/dev/'],
    })
    stops.push(() => server.stop())
    const chainName = chainNameOf(anvil.chainId)
    const request = requester(server.url)
    const key = { 'x-immutable-api-key': platformApiKey }
    return {
      rpcUrl: anvil.rpcUrl,
      chainId: anvil.chainId,
      chainName,
      contracts,
      publicClient,
      testClient,
      indexer,
      minting,
      url: server.url,
      /** A new account holding 100 ether. */
      async account(): Promise<LocalAccount> {
        const account = privateKeyToAccount(generatePrivateKey())
        await testClient.setBalance({
          address: account.address,
          value: parseEther('100'),
        })
        return account
      },
      request,
      /** `…/collections/{contract}/nfts/mint-requests{path}` with the key. */
      mint(
        contract: string,
        body: unknown,
        headers: Record<string, string> = key,
      ) {
        return request(
          'POST',
          `/v1/chains/${chainName}/collections/${contract}/nfts/mint-requests`,
          { body, headers },
        )
      },
      /** A GET of the API under the chain, with the key. */
      get(path: string, headers: Record<string, string> = key) {
        return request('GET', `/v1/chains/${chainName}${path}`, { headers })
      },
      stop,
    }
  } catch (error) {
    await stop()
    throw error
  }
}

/** A running minting test kit. */
export type MintingTest = Awaited<ReturnType<typeof startMintingTest>>
