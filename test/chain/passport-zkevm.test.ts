/**
 * The game wallet's zkEVM provider against real Sequence v1 wallet
 * contracts on Anvil, through the real relayer and platform API (the game
 * wallet testkit). This proves the provider's signatures are the ones the
 * contracts accept: a not-yet-deployed wallet's message signature verifies
 * through ERC-6492 with viem, and through ERC-1271 once deployed; a
 * transaction signed by the provider, completed by the relayer with the
 * co-signer's part, executes with the provider's nonce.
 */
import { type Hex, parseEther, recoverMessageAddress, slice } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterEach, describe, expect, test } from 'vitest'
import {
  decodeExecute,
  decodeSignature,
  subDigest,
  transactionsDigest,
} from '../../src/passport/wire/sequence.js'
import { fileBackends, type Harness, setup } from '../unit/setup/zkevm.js'

const b = fileBackends()

let current: Harness | undefined
afterEach(() => {
  current?.close()
  current = undefined
})

async function start() {
  const { factory, mainModule, coSigner } = b().contracts
  current = await setup(b(), {
    config: { walletContracts: { factory, mainModule, coSigner } },
  })
  return current
}

const typedData = (chainId: number) =>
  ({
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
    domain: { name: 'Chess', chainId },
    message: { piece: 'knight', to: 42 },
  }) as const

describe('zkEVM provider on Sequence v1 contracts', () => {
  test('behavior: an undeployed wallet’s signatures verify with viem (ERC-6492), then after deployment (ERC-1271)', async () => {
    const { publicClient, chainId } = b()
    const harness = await start()
    const { provider, wallet } = harness
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

    const data = typedData(chainId)
    const typed = (await provider.request({
      method: 'eth_signTypedData_v4',
      params: [wallet, JSON.stringify(data)],
    } as never)) as Hex
    const { EIP712Domain: _, ...types } = data.types
    expect(
      await publicClient.verifyTypedData({
        address: wallet,
        ...data,
        types,
        signature: typed,
      }),
    ).toBe(true)

    // Deployed: the same provider returns plain ERC-1271 signatures.
    await b().deploy(harness.player)
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

  test('behavior: a sent transaction, completed by the relayer with the co-signer’s part, executes with the provider’s nonce', async () => {
    const { publicClient, chainId, contracts } = b()
    const harness = await start()
    const { provider, wallet, custody } = harness
    await b().deploy(harness.player)
    await b().fund(wallet, parseEther('2'))
    const recipient = privateKeyToAccount(generatePrivateKey()).address

    for (const round of [0n, 1n]) {
      const hash = (await provider.request({
        method: 'eth_sendTransaction',
        params: [{ to: recipient, value: '0x100' }],
      } as never)) as Hex
      expect(harness.sent()[Number(round)]?.nonce).toBe(round)
      const receipt = await publicClient.waitForTransactionReceipt({ hash })
      expect(receipt.status).toBe('success')
      // What ran on chain: the wallet's execute with the provider's nonce,
      // signed by the custody key and the co-signer (threshold 2).
      const { input, to } = await publicClient.getTransaction({ hash })
      expect(to).toBe(wallet.toLowerCase())
      const { transactions, nonce, signature } = decodeExecute(input)
      expect(nonce).toBe(round)
      const digest = subDigest({
        chainId,
        wallet,
        digest: transactionsDigest(nonce, transactions),
      })
      const { threshold, parts } = decodeSignature(signature)
      expect(threshold).toBe(2)
      const signers = await Promise.all(
        parts.map((part) =>
          part.type === 'eoa'
            ? recoverMessageAddress({
                message: { raw: digest },
                signature: slice(part.signature, 0, 65),
              })
            : part.address,
        ),
      )
      expect(signers.toSorted()).toEqual(
        [custody.address, contracts.coSigner].toSorted(),
      )
    }
    expect(await publicClient.getBalance({ address: recipient })).toBe(0x200n)
  })
})
