/**
 * Sequence v1 wallet helpers for the chain tests (`wallet.test.ts`):
 * deploying a wallet through the Factory, funding it, and executing a
 * signed batch through a relayer.
 */
import { type Address, encodeFunctionData, type Hex, parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expect, inject } from 'vitest'
import {
  Factory,
  MainModule,
  TestERC20,
} from '../../src/emulator/chain/artifacts.generated.js'
import {
  counterfactualAddress,
  imageHash,
  type MetaTransaction,
  metaTransaction,
  type WalletConfig,
} from '../../src/passport/wire/sequence.js'
import { getClients } from './clients.js'

const contracts = inject('contracts')
const { publicClient, walletClient, fundedAccount } = getClients()

/** Runtime code of every Sequence v1 wallet proxy (Wallet.sol). */
export const proxyRuntime =
  '0x363d3d373d3d3d363d30545af43d82803e903d91601857fd5bf3'

export const randomAccount = () => privateKeyToAccount(generatePrivateKey())

/** Deploys `config`'s wallet with Factory.deploy; checks the address first. */
export async function deployWallet(config: WalletConfig): Promise<Address> {
  const salt = imageHash(config)
  const expected = counterfactualAddress({
    factory: contracts.factory,
    mainModule: contracts.mainModule,
    imageHash: salt,
  })
  expect(await publicClient.getCode({ address: expected })).toBeUndefined()

  const sender = await fundedAccount()
  const { result, request } = await publicClient.simulateContract({
    account: sender,
    address: contracts.factory,
    abi: Factory.abi,
    functionName: 'deploy',
    args: [contracts.mainModule, salt],
  })
  expect(result).toBe(expected)
  // Explicit gas: a CREATE2 that runs out of gas fails without reverting
  // Factory.deploy, so eth_estimateGas settles on too little and the
  // transaction "succeeds" without creating the wallet.
  const hash = await walletClient(sender).writeContract({
    ...request,
    gas: 200_000n,
  })
  const receipt = await publicClient.waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  return expected
}

/** A wallet holding 5 ETH and 100 TEST, and a fresh recipient. */
export async function fundedWallet(config: WalletConfig) {
  const wallet = await deployWallet(config)
  const funder = await fundedAccount(parseEther('20'))
  const client = walletClient(funder)
  await publicClient.waitForTransactionReceipt({
    hash: await client.sendTransaction({
      to: wallet,
      value: parseEther('5'),
    }),
  })
  await publicClient.waitForTransactionReceipt({
    hash: await client.writeContract({
      address: contracts.erc20,
      abi: TestERC20.abi,
      functionName: 'mint',
      args: [wallet, parseEther('100')],
    }),
  })
  const recipient = randomAccount().address
  const txs = [
    metaTransaction({
      to: contracts.erc20,
      data: encodeFunctionData({
        abi: TestERC20.abi,
        functionName: 'transfer',
        args: [recipient, parseEther('30')],
      }),
    }),
    metaTransaction({ to: recipient, value: parseEther('1.5') }),
  ]
  return { wallet, recipient, txs }
}

/** Sends `txs` with `signature` to `wallet`'s execute from a fresh relayer. */
export async function execute(
  wallet: Address,
  txs: readonly MetaTransaction[],
  signature: Hex,
) {
  const relayer = await fundedAccount()
  const { request } = await publicClient.simulateContract({
    account: relayer,
    address: wallet,
    abi: MainModule.abi,
    functionName: 'execute',
    args: [txs, 0n, signature],
  })
  const hash = await walletClient(relayer).writeContract(request)
  return publicClient.waitForTransactionReceipt({ hash })
}
