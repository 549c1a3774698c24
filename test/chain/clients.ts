import {
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  http,
  type LocalAccount,
  parseEther,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { anvil } from 'viem/chains'
import { inject } from 'vitest'

/** viem clients for the Anvil node the chain project's globalSetup runs. */
export function getClients() {
  const rpcUrl = inject('rpcUrl')
  const chain: Chain = defineChain({
    ...anvil,
    id: inject('chainId'),
    rpcUrls: { default: { http: [rpcUrl] } },
  })
  const transport = http(rpcUrl)
  const publicClient = createPublicClient({
    chain,
    transport,
    pollingInterval: 50,
  })
  const testClient = createTestClient({ chain, transport, mode: 'anvil' })
  const walletClient = (account: LocalAccount) =>
    createWalletClient({ account, chain, transport, pollingInterval: 50 })

  /**
   * A new random account holding `value` wei. Test files run in parallel on
   * one chain, so each sender must be its own account (no nonce races).
   */
  const fundedAccount = async (value: bigint = parseEther('10')) => {
    const account = privateKeyToAccount(generatePrivateKey())
    await testClient.setBalance({ address: account.address, value })
    return account
  }

  return { chain, publicClient, testClient, walletClient, fundedAccount }
}
