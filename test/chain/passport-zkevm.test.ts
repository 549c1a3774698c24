/**
 * The game wallet's zkEVM provider against real Sequence v1 wallet
 * contracts on Anvil. The relayer and API are the unit tests' HTTP fakes
 * (the relayer's co-signer is a real key, the wallet's second signer); the
 * chain node is Anvil. This proves the provider's signatures are the ones
 * the contracts accept: a not-yet-deployed wallet's message signature
 * verifies through ERC-6492 with viem, and through ERC-1271 once deployed;
 * a transaction signed by the provider and completed with the co-signer's
 * part, as a relayer does, executes.
 */
import { decodeFunctionData, type Hex, parseEther, slice } from 'viem'
import { afterEach, describe, expect, inject, test } from 'vitest'
import { MainModule } from '../../src/emulator/chain/artifacts.generated.js'
import {
  type Execute,
  encodeSignedParts,
  eoaSignature,
  playerWalletAddress,
  playerWalletConfig,
  signatureTypes,
  subDigest,
  transactionsDigest,
  walletAbi,
} from '../../src/passport/wire/sequence.js'
import { setup } from '../../src/passport/zkevm/_test/harness.js'
import { getClients } from './clients.js'
import { deployWallet, randomAccount } from './wallets.js'

const contracts = inject('contracts')
const chain = { rpcUrl: inject('rpcUrl'), id: inject('chainId') }
const { publicClient, testClient, walletClient, fundedAccount } = getClients()

let current: Awaited<ReturnType<typeof setup>> | undefined
afterEach(async () => {
  await current?.close()
  current = undefined
})

async function start() {
  current = await setup({
    chain,
    wallet: (coSigner, custody) =>
      playerWalletAddress({ custody, contracts: { ...contracts, coSigner } }),
    config: ({ coSigner }) => ({
      walletContracts: {
        factory: contracts.factory,
        mainModule: contracts.mainModule,
        coSigner,
      },
    }),
  })
  return current
}

const typedData = {
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'chainId', type: 'uint256' },
    ],
    Move: [
      { name: 'piece', type: 'string' },
      { name: 'to', type: 'uint8' },
    ],
  },
  primaryType: 'Move',
  domain: { name: 'Chess', chainId: chain.id },
  message: { piece: 'knight', to: 42 },
} as const

describe('zkEVM provider on Sequence v1 contracts', () => {
  test('behavior: an undeployed wallet’s signatures verify with viem (ERC-6492), then after deployment (ERC-1271)', async () => {
    const { provider, wallet, relayer, custody } = await start()
    expect(await publicClient.getCode({ address: wallet })).toBeUndefined()

    const message = 'gm from the game'
    const wrapped = (await provider.request({
      method: 'personal_sign',
      params: [message, wallet],
    } as never)) as Hex
    expect(slice(wrapped, -32)).toBe(`0x${'6492'.repeat(16)}`)
    expect(
      await publicClient.verifyMessage({
        address: wallet,
        message,
        signature: wrapped,
      }),
    ).toBe(true)
    expect(
      await publicClient.verifyMessage({
        address: wallet,
        message: 'another message',
        signature: wrapped,
      }),
    ).toBe(false)

    const typed = (await provider.request({
      method: 'eth_signTypedData_v4',
      params: [wallet, JSON.stringify(typedData)],
    } as never)) as Hex
    const { EIP712Domain: _, ...types } = typedData.types
    expect(
      await publicClient.verifyTypedData({
        address: wallet,
        ...typedData,
        types,
        signature: typed,
      }),
    ).toBe(true)

    // Deployed: the same provider returns plain ERC-1271 signatures.
    expect(
      await deployWallet(
        playerWalletConfig({
          custody: custody.address,
          coSigner: relayer.coSigner.address,
        }),
      ),
    ).toBe(wallet)
    const plain = (await provider.request({
      method: 'personal_sign',
      params: [message, wallet],
    } as never)) as Hex
    expect(slice(plain, 0, 2)).toBe('0x0002')
    expect(
      await publicClient.verifyMessage({
        address: wallet,
        message,
        signature: plain,
      }),
    ).toBe(true)
  })

  test('behavior: a sent transaction, completed with the co-signer’s part, executes with the provider’s nonce', async () => {
    const { provider, wallet, relayer, custody } = await start()
    const config = playerWalletConfig({
      custody: custody.address,
      coSigner: relayer.coSigner.address,
    })
    expect(await deployWallet(config)).toBe(wallet)
    await testClient.setBalance({ address: wallet, value: parseEther('2') })
    const recipient = randomAccount().address

    for (const round of [0n, 1n]) {
      await provider.request({
        method: 'eth_sendTransaction',
        params: [{ to: recipient, value: '0x100' }],
      } as never)
      const sent = relayer.sent[Number(round)]!
      expect(sent.nonce).toBe(round)
      // What a relayer does: add the co-signer's part to the user's.
      const { args } = decodeFunctionData({ abi: walletAbi, data: sent.data })
      const [txs, nonce] = args as unknown as [Execute['transactions'], bigint]
      const digest = subDigest({
        chainId: chain.id,
        wallet,
        digest: transactionsDigest(nonce, txs),
      })
      const ethSign = (signature: Hex) =>
        ({
          type: 'eoa',
          weight: 1,
          signature: eoaSignature(signature, signatureTypes.ethSign),
        }) as const
      const signature = encodeSignedParts(2, [
        {
          address: custody.address,
          part: ethSign(slice(sent.signature, 4, 69)),
        },
        {
          address: relayer.coSigner.address,
          part: ethSign(
            await relayer.coSigner.signMessage({ message: { raw: digest } }),
          ),
        },
      ])
      const submitter = await fundedAccount()
      const hash = await walletClient(submitter).writeContract({
        address: wallet,
        abi: MainModule.abi,
        functionName: 'execute',
        args: [txs, nonce, signature],
        gas: 500_000n,
      })
      const receipt = await publicClient.waitForTransactionReceipt({ hash })
      expect(receipt.status).toBe('success')
    }
    expect(await publicClient.getBalance({ address: recipient })).toBe(0x200n)
  })
})
