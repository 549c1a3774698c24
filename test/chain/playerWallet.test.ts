// The game wallet on a real chain: {player EOA, CoSigner} threshold 2,
// deployed on its first transaction through the guest module, then
// validating personal_sign and EIP-712 signatures through ERC-1271.
import {
  type Address,
  encodeFunctionData,
  type Hex,
  hashMessage,
  hashTypedData,
  parseEther,
} from 'viem'
import { describe, expect, inject, test } from 'vitest'
import { coSignerKey } from '../../src/emulator/chain/accounts.js'
import {
  MainModule,
  TestERC20,
} from '../../src/emulator/chain/artifacts.generated.js'
import { signEthSign } from '../../src/emulator/chain/sequence.js'
import {
  encodeDeployAndExecute,
  encodeExecute,
  encodeSignature,
  type MetaTransaction,
  metaTransaction,
  playerWalletAddress,
  playerWalletConfig,
  playerWalletSignature,
  subDigest,
  transactionsDigest,
} from '../../src/passport/wire/sequence.js'
import { getClients } from './clients.js'
import { proxyRuntime, randomAccount } from './wallets.js'

const contracts = inject('contracts')
const chainId = inject('chainId')
const { publicClient, walletClient, fundedAccount } = getClients()

/** The full 2-of-2 signature of `hash` for `custody`'s wallet. */
async function sign(
  custody: ReturnType<typeof randomAccount>,
  wallet: Address,
  digest: Hex,
  coSigner = coSignerKey,
) {
  const hash = subDigest({ chainId, wallet, digest })
  return playerWalletSignature({
    custody: custody.address,
    custodySignature: await signEthSign(custody, hash),
    coSigner: contracts.coSigner,
    coSignature: await signEthSign(coSigner, hash),
  })
}

const readNonce = (wallet: Address) =>
  publicClient.readContract({
    address: wallet,
    abi: MainModule.abi,
    functionName: 'readNonce',
    args: [0n],
  })

/** Deploys `custody`'s wallet and runs `transactions` at nonce 0 in one transaction. */
async function deployAndExecute(
  custody: ReturnType<typeof randomAccount>,
  transactions: readonly MetaTransaction[],
) {
  const wallet = playerWalletAddress({ custody: custody.address, contracts })
  const signature = await sign(
    custody,
    wallet,
    transactionsDigest(0n, transactions),
  )
  const relayer = await fundedAccount()
  const hash = await walletClient(relayer).sendTransaction({
    to: contracts.guestModule,
    data: encodeDeployAndExecute({
      contracts,
      config: playerWalletConfig({
        custody: custody.address,
        coSigner: contracts.coSigner,
      }),
      execute: { transactions, nonce: 0n, signature },
    }),
    gas: 1_000_000n,
  })
  return {
    wallet,
    receipt: await publicClient.waitForTransactionReceipt({ hash }),
  }
}

describe('the game wallet', () => {
  test('is deployed and executes its first transaction in one guest-module call', async () => {
    const custody = randomAccount()
    const wallet = playerWalletAddress({ custody: custody.address, contracts })
    expect(await publicClient.getCode({ address: wallet })).toBeUndefined()
    const recipient = randomAccount().address
    const { receipt } = await deployAndExecute(custody, [
      metaTransaction({
        to: contracts.erc20,
        data: encodeFunctionData({
          abi: TestERC20.abi,
          functionName: 'mint',
          args: [recipient, parseEther('7')],
        }),
      }),
    ])
    expect(receipt.status).toBe('success')
    expect(await publicClient.getCode({ address: wallet })).toBe(proxyRuntime)
    expect(
      await publicClient.readContract({
        address: contracts.erc20,
        abi: TestERC20.abi,
        functionName: 'balanceOf',
        args: [recipient],
      }),
    ).toBe(parseEther('7'))
    expect(await readNonce(wallet)).toBe(1n)

    // Then execute goes to the wallet itself, at the next nonce.
    const transactions = [metaTransaction({ to: recipient })]
    const relayer = await fundedAccount()
    const hash = await walletClient(relayer).sendTransaction({
      to: wallet,
      data: encodeExecute({
        transactions,
        nonce: 1n,
        signature: await sign(
          custody,
          wallet,
          transactionsDigest(1n, transactions),
        ),
      }),
    })
    expect(
      (await publicClient.waitForTransactionReceipt({ hash })).status,
    ).toBe('success')
    expect(await readNonce(wallet)).toBe(2n)
  })

  test("refuses a co-signature from another key than the co-signer's", async () => {
    const custody = randomAccount()
    const wallet = playerWalletAddress({ custody: custody.address, contracts })
    const transactions = [metaTransaction({ to: randomAccount().address })]
    const signature = await sign(
      custody,
      wallet,
      transactionsDigest(0n, transactions),
      randomAccount(),
    )
    const relayer = await fundedAccount()
    const hash = await walletClient(relayer).sendTransaction({
      to: contracts.guestModule,
      data: encodeDeployAndExecute({
        contracts,
        config: playerWalletConfig({
          custody: custody.address,
          coSigner: contracts.coSigner,
        }),
        execute: { transactions, nonce: 0n, signature },
      }),
      gas: 1_000_000n,
    })
    expect(
      (await publicClient.waitForTransactionReceipt({ hash })).status,
    ).toBe('reverted')
    expect(await publicClient.getCode({ address: wallet })).toBeUndefined()
  })

  test('validates a personal_sign and a typed-data signature through ERC-1271', async () => {
    const custody = randomAccount()
    const { wallet, receipt } = await deployAndExecute(custody, [])
    expect(receipt.status).toBe('success')

    const message = 'Sign in to the game'
    const signature = await sign(custody, wallet, hashMessage(message))
    expect(
      await publicClient.verifyMessage({ address: wallet, message, signature }),
    ).toBe(true)
    expect(
      await publicClient.verifyMessage({
        address: wallet,
        message: 'Another message',
        signature,
      }),
    ).toBe(false)

    const typedData = {
      domain: {
        name: 'Game',
        version: '1',
        chainId,
        verifyingContract: contracts.erc721,
      },
      types: { Mail: [{ name: 'contents', type: 'string' }] },
      primaryType: 'Mail',
      message: { contents: 'hello' },
    } as const
    const typedSignature = await sign(custody, wallet, hashTypedData(typedData))
    expect(
      await publicClient.verifyTypedData({
        ...typedData,
        address: wallet,
        signature: typedSignature,
      }),
    ).toBe(true)

    // The player's part alone (threshold 1, as the client signs) is not enough.
    const hash = subDigest({ chainId, wallet, digest: hashMessage(message) })
    const userOnly = encodeSignature({
      threshold: 1,
      parts: [
        { type: 'eoa', weight: 1, signature: await signEthSign(custody, hash) },
      ],
    })
    expect(
      await publicClient.verifyMessage({
        address: wallet,
        message,
        signature: userOnly,
      }),
    ).toBe(false)
  })
})
