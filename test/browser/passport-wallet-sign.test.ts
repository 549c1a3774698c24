import { type Address, type Hex, parseEther, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { Magic } from '../../src/magic/index.js'
import { PassportErrorType } from '../../src/passport/errors.js'
import { linkWalletTypedData } from '../../src/passport/wire/api.js'
import { custodyStorage } from '../../src/passport/zkevm/custodySigner.js'
import type { ZkEvmProvider } from '../../src/passport/zkevm/provider.js'
import {
  chain,
  connectPlayer,
  createWallet,
  fund,
  info,
  noConfirmationWindowLeft,
  overrides,
  randomAddress,
  rejection,
  sendValue,
  trackWindows,
} from './passportWallet.js'

/*
 * The wallet's signatures end to end: ERC-1271 signatures of the 2-of-2
 * wallet (the custody key's part plus the co-signer's from the relayer),
 * checked by viem against the chain before deployment (ERC-6492) and after;
 * EIP-5792 batches; linking an external wallet; and a custody session that
 * ended while the player is still signed in.
 */

let windows: ReturnType<typeof trackWindows>
beforeEach(() => {
  localStorage.clear()
  windows = trackWindows()
})
afterEach(async () => {
  vi.restoreAllMocks()
  await noConfirmationWindowLeft(windows)
})

const typed = (owner: Address) =>
  ({
    domain: { name: 'Game', version: '1', chainId: info.chainId },
    types: {
      Order: [
        { name: 'owner', type: 'address' },
        { name: 'amount', type: 'uint256' },
      ],
    },
    primaryType: 'Order',
    message: { owner, amount: 10n ** 20n },
  }) as const

/** The typed data as a dApp passes it to `eth_signTypedData_v4` (JSON). */
const typedJson = (owner: Address, chainId: number = info.chainId) =>
  JSON.stringify({
    ...typed(owner),
    domain: { ...typed(owner).domain, chainId },
    message: { owner, amount: (10n ** 20n).toString() },
  })

async function personalSign(
  provider: ZkEvmProvider,
  wallet: Address,
  message: string,
) {
  return (await provider.request({
    method: 'personal_sign',
    params: [toHex(message), wallet],
  })) as Hex
}

async function signTyped(provider: ZkEvmProvider, wallet: Address) {
  return (await provider.request({
    method: 'eth_signTypedData_v4',
    params: [wallet, typedJson(wallet)],
  })) as Hex
}

describe('personal_sign and eth_signTypedData_v4', () => {
  test('behavior: verify against the chain before deployment (ERC-6492) and after', async () => {
    const { provider, wallet } = await connectPlayer({ label: 'sign' })
    expect(await chain.getCode({ address: wallet })).toBeUndefined()

    const early = 'signed before deployment'
    const earlySignature = await personalSign(provider, wallet, early)
    expect(
      await chain.verifyMessage({
        address: wallet,
        message: early,
        signature: earlySignature,
      }),
    ).toBe(true)
    // A different message does not verify with it.
    expect(
      await chain.verifyMessage({
        address: wallet,
        message: 'something else',
        signature: earlySignature,
      }),
    ).toBe(false)
    const earlyTyped = await signTyped(provider, wallet)
    expect(
      await chain.verifyTypedData({
        address: wallet,
        signature: earlyTyped,
        ...typed(wallet),
      }),
    ).toBe(true)
    // Signing deployed nothing.
    expect(await chain.getCode({ address: wallet })).toBeUndefined()

    await fund(wallet, parseEther('1'))
    await chain.waitForTransactionReceipt({
      hash: await sendValue(provider, randomAddress(), 1n),
    })
    expect(await chain.getCode({ address: wallet })).toMatch(/^0x[0-9a-f]+$/)

    const message = 'signed after deployment'
    const signature = await personalSign(provider, wallet, message)
    expect(
      await chain.verifyMessage({ address: wallet, message, signature }),
    ).toBe(true)
    const typedSignature = await signTyped(provider, wallet)
    expect(
      await chain.verifyTypedData({
        address: wallet,
        signature: typedSignature,
        ...typed(wallet),
      }),
    ).toBe(true)
  })

  test('behavior: forceScwDeployBeforeMessageSignature deploys the wallet before signing; the signature verifies unwrapped', async () => {
    const passport = createWallet({
      forceScwDeployBeforeMessageSignature: true,
    })
    const { provider, wallet } = await connectPlayer({
      passport,
      label: 'force',
    })
    expect(await chain.getCode({ address: wallet })).toBeUndefined()
    const message = 'deployed first'
    const signature = await personalSign(provider, wallet, message)
    expect(await chain.getCode({ address: wallet })).toMatch(/^0x[0-9a-f]+$/)
    // Not ERC-6492-wrapped: the wallet has code.
    expect(signature.endsWith('6492'.repeat(16))).toBe(false)
    expect(
      await chain.verifyMessage({ address: wallet, message, signature }),
    ).toBe(true)
  })

  test('error: typed data for another chain is -32602; a signature for another address is -32602', async () => {
    const { provider, wallet } = await connectPlayer({ label: 'chain' })
    expect(
      await rejection(
        provider.request({
          method: 'eth_signTypedData_v4',
          params: [wallet, typedJson(wallet, 1)],
        }),
      ),
    ).toEqual({
      code: -32602,
      message: `Invalid chainId, expected ${info.chainId}`,
    })
    expect(
      await rejection(
        provider.request({
          method: 'personal_sign',
          params: [toHex('hi'), randomAddress()],
        }),
      ),
    ).toEqual({
      code: -32602,
      message: 'personal_sign requires the signer to be the from address',
    })
  })
})

describe('EIP-5792', () => {
  test('behavior: wallet_sendCalls sends two calls as one meta-transaction, one chain transaction; wallet_getCallsStatus reports 200 with its receipt', async () => {
    const { provider, wallet } = await connectPlayer({ label: 'calls' })
    await fund(wallet, parseEther('1'))
    expect(
      await provider.request({
        method: 'wallet_getCapabilities',
        params: [wallet, [toHex(info.chainId)]],
      } as never),
    ).toEqual({ [toHex(info.chainId)]: { atomic: { status: 'supported' } } })

    const [a, b] = [randomAddress(), randomAddress()]
    const { id } = (await provider.request({
      method: 'wallet_sendCalls',
      params: [
        {
          version: '2.0.0',
          chainId: toHex(info.chainId),
          from: wallet,
          atomicRequired: true,
          calls: [
            { to: a, value: toHex(parseEther('0.01')) },
            { to: b, value: toHex(parseEther('0.02')) },
          ],
        },
      ],
    } as never)) as { id: string }
    expect(typeof id).toBe('string')

    type Status = {
      status: number
      atomic: boolean
      chainId: Hex
      receipts?: { status: Hex; transactionHash: Hex }[]
    }
    const status = async () =>
      (await provider.request({
        method: 'wallet_getCallsStatus',
        params: [id],
      } as never)) as Status
    await expect.poll(async () => (await status()).status).toBe(200)
    const final = await status()
    expect(final).toMatchObject({
      atomic: true,
      chainId: toHex(info.chainId),
    })
    expect(final.receipts).toHaveLength(1)
    expect(final.receipts?.[0]?.status).toBe('0x1')
    const hash = final.receipts?.[0]?.transactionHash as Hex
    const receipt = await chain.getTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(await chain.getBalance({ address: a })).toBe(parseEther('0.01'))
    expect(await chain.getBalance({ address: b })).toBe(parseEther('0.02'))
    // Both calls ran in that one transaction, from the wallet.
    const transaction = await chain.getTransaction({ hash })
    expect(transaction.blockNumber).toBe(receipt.blockNumber)
    expect(
      await chain.getBalance({
        address: wallet,
        blockNumber: receipt.blockNumber - 1n,
      }),
    ).toBe(parseEther('1'))
    expect(await chain.getBalance({ address: wallet })).toBe(parseEther('0.97'))
  })
})

describe('linked wallets', () => {
  test('behavior: an external EOA signs the LinkWallet typed data; linkExternalWallet links it, getLinkedAddresses lists it; linking it again is LINK_WALLET_ALREADY_LINKED_ERROR', async () => {
    const { passport, wallet } = await connectPlayer({ label: 'link' })
    expect(await passport.getLinkedAddresses()).toEqual([])
    const external = privateKeyToAccount(
      toHex(crypto.getRandomValues(new Uint8Array(32))),
    )
    const link = async (nonce: string) => {
      const signature = await external.signTypedData({
        domain: { chainId: BigInt(linkWalletTypedData.domain.chainId) },
        types: linkWalletTypedData.types,
        primaryType: linkWalletTypedData.primaryType,
        message: {
          walletAddress: external.address.toLowerCase() as Address,
          immutablePassportAddress: wallet.toLowerCase() as Address,
          condition: linkWalletTypedData.condition,
          nonce,
        },
      })
      return passport.linkExternalWallet({
        type: 'External',
        walletAddress: external.address.toLowerCase(),
        signature,
        nonce,
      })
    }
    const linked = await link(crypto.randomUUID())
    expect(linked).toMatchObject({
      address: external.address,
      type: 'External',
    })
    expect(await passport.getLinkedAddresses()).toEqual([external.address])
    const again = await link(crypto.randomUUID()).catch((error) => error)
    expect(again).toMatchObject({
      type: PassportErrorType.LINK_WALLET_ALREADY_LINKED_ERROR,
    })
  })
})

describe('custody session', () => {
  test("behavior: after the custody key's session was logged out while the player is still signed in, the next signature logs in again and succeeds", async () => {
    const { provider, wallet } = await connectPlayer({ label: 'custody' })
    const first = 'before the custody logout'
    expect(
      await chain.verifyMessage({
        address: wallet,
        message: first,
        signature: await personalSign(provider, wallet, first),
      }),
    ).toBe(true)

    // The iframe wallet's session, logged out by another client of the
    // custody key on this page (the same stored session): revoked
    // server-side.
    const client = () =>
      new Magic(overrides.magicPublishableApiKey, {
        endpoint: overrides.magicEndpoint,
        network: { rpcUrl: info.rpcUrl, chainId: info.chainId },
        storage: custodyStorage(),
        announceProvider: false,
      })
    const other = client()
    expect(await other.user.isLoggedIn()).toBe(true)
    expect(await other.user.logout()).toBe(true)
    expect(await client().user.isLoggedIn()).toBe(false)

    const message = 'after the custody logout'
    const signature = await personalSign(provider, wallet, message)
    expect(
      await chain.verifyMessage({ address: wallet, message, signature }),
    ).toBe(true)
    // The signer logged in again, with the player's id token.
    expect(await client().user.isLoggedIn()).toBe(true)
  })
})
