import { decodeJwt } from 'jose'
import { type Address, type Hex, parseEther, toHex } from 'viem'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { spyPopups } from './passportLogin.js'
import {
  chain,
  connectPlayer,
  createWallet,
  fund,
  info,
  noConfirmationWindowLeft,
  randomAddress,
  readNonce,
  rejection,
  sendValue,
  trackWindows,
} from './passportWallet.js'

/*
 * The game wallet's zkEVM provider end to end against the emulator:
 * registration on `eth_requestAccounts`, then value transfers relayed,
 * co-signed and mined on Anvil (the first one deploys the wallet).
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

describe('eth_requestAccounts', () => {
  test('behavior: 4100 before; signs in, registers the counterfactual wallet, emits accountsChanged; the id token carries the wallet; logout emits []', async () => {
    const passport = createWallet()
    const provider = await passport.connectEvm({ announceProvider: false })
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([])
    expect(
      await rejection(
        provider.request({
          method: 'personal_sign',
          params: ['0x68690a', '0x0000000000000000000000000000000000000001'],
        }),
      ),
    ).toEqual({
      code: 4100,
      message: 'Unauthorised - call eth_requestAccounts first',
    })

    const { wallet, accountsChanged } = await connectPlayer({
      passport,
      label: 'register',
    })
    expect(wallet).toMatch(/^0x[0-9a-fA-F]{40}$/)
    // No code yet: the address is counterfactual.
    expect(await chain.getCode({ address: wallet })).toBeUndefined()
    const idToken = (await passport.getIdToken()) as string
    const claims = decodeJwt(idToken) as {
      passport?: {
        zkevm_eth_address?: string
        zkevm_user_admin_address?: string
      }
    }
    expect(claims.passport?.zkevm_eth_address?.toLowerCase()).toBe(
      wallet.toLowerCase(),
    )
    expect(claims.passport?.zkevm_user_admin_address).toMatch(
      /^0x[0-9a-fA-F]{40}$/,
    )
    expect(claims.passport?.zkevm_user_admin_address?.toLowerCase()).not.toBe(
      wallet.toLowerCase(),
    )
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([wallet])

    const events: Address[][] = []
    provider.on('accountsChanged', (accounts) => events.push(accounts))
    await passport.logout()
    expect(events).toEqual([[]])
    expect(accountsChanged).toEqual([[wallet], []])
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([])
  })
})

describe('eth_sendTransaction', () => {
  test('behavior: the first transfer deploys the wallet and is mined; a second one too; each resolves the chain hash', async () => {
    const { provider, wallet } = await connectPlayer({ label: 'send' })
    await fund(wallet, parseEther('1'))
    const to = randomAddress()

    const calls = spyPopups()
    const first = await sendValue(provider, to, parseEther('0.1'))
    expect(first).toMatch(/^0x[0-9a-f]{64}$/)
    const receipt = await chain.waitForTransactionReceipt({ hash: first })
    expect(receipt.status).toBe('success')
    expect(await chain.getCode({ address: wallet })).toMatch(/^0x[0-9a-f]+$/)
    expect(await chain.getBalance({ address: to })).toBe(parseEther('0.1'))
    expect(await readNonce(wallet)).toBe(1n)

    const second = await sendValue(provider, to, parseEther('0.2'))
    expect(second).not.toBe(first)
    expect(
      (await chain.waitForTransactionReceipt({ hash: second })).status,
    ).toBe('success')
    expect(await chain.getBalance({ address: to })).toBe(parseEther('0.3'))
    expect(await chain.getBalance({ address: wallet })).toBe(parseEther('0.7'))
    expect(await readNonce(wallet)).toBe(2n)
    // The guardian asked nothing: each popup opened at the start was closed.
    expect(calls.length).toBe(2)
    await expect
      .poll(() => calls.every((call) => call.window?.closed !== false))
      .toBe(true)
  })

  test('behavior: 20 parallel transfers from one wallet are all mined with distinct, consecutive nonces', async () => {
    const { provider, wallet } = await connectPlayer({ label: 'parallel' })
    await fund(wallet, parseEther('1'))
    // Deployed first, so that the 20 are plain `execute` calls.
    await chain.waitForTransactionReceipt({
      hash: await sendValue(provider, randomAddress(), 1n),
    })
    const before = await readNonce(wallet)
    const to = randomAddress()
    const calls = spyPopups()
    const hashes = await Promise.all(
      Array.from({ length: 20 }, () => sendValue(provider, to, 1000n)),
    )
    // The first request opened the wallet's confirmation window, the other
    // 19 shared it, and the last one to end closed it.
    expect(calls.length).toBe(1)
    await expect
      .poll(() => calls.filter((call) => call.window?.closed === false).length)
      .toBe(0)
    expect(new Set(hashes).size).toBe(20)
    const receipts = await Promise.all(
      hashes.map((hash) => chain.waitForTransactionReceipt({ hash })),
    )
    expect(receipts.map((receipt) => receipt.status)).toEqual(
      hashes.map(() => 'success'),
    )
    expect(await readNonce(wallet)).toBe(before + 20n)
    expect(await chain.getBalance({ address: to })).toBe(20_000n)
  })

  test('behavior: with a relayer fee above zero, the IMX fee transfer is appended and paid from the wallet', async () => {
    const { provider, wallet } = await connectPlayer({ label: 'fee' })
    await fund(wallet, parseEther('1'))
    const price = parseEther('0.003')
    const setFee = (tokenPrice: bigint) =>
      fetch(`${info.passport.relayerUrl}/dev/fee`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tokenPrice: tokenPrice.toString() }),
      })
    expect((await setFee(price)).status).toBe(200)
    try {
      const to = randomAddress()
      const hash = await sendValue(provider, to, parseEther('0.1'))
      expect((await chain.waitForTransactionReceipt({ hash })).status).toBe(
        'success',
      )
      expect(await chain.getBalance({ address: to })).toBe(parseEther('0.1'))
      // The wallet pays no gas: only the value and the relayer's price.
      expect(await chain.getBalance({ address: wallet })).toBe(
        parseEther('1') - parseEther('0.1') - price,
      )
    } finally {
      expect((await setFee(0n)).status).toBe(200)
    }
  })

  test('behavior: eth_sendTransaction without "to" is -32602; read-only methods answer before sign-in', async () => {
    const passport = createWallet()
    const provider = await passport.connectEvm({ announceProvider: false })
    expect(await provider.request({ method: 'eth_chainId' })).toBe(toHex(31337))
    const { provider: signedIn } = await connectPlayer({
      passport,
      label: 'params',
    })
    expect(
      await rejection(
        signedIn.request({
          method: 'eth_sendTransaction',
          params: [{ value: '0x1' } as never],
        }),
      ),
    ).toEqual({
      code: -32602,
      message: 'eth_sendTransaction requires a "to" field',
    })
    expect(
      await signedIn.request({
        method: 'eth_getBalance',
        params: ['0x0000000000000000000000000000000000000000' as Hex] as never,
      }),
    ).toMatch(/^0x/)
  })
})
