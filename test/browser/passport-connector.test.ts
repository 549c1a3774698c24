import {
  connect,
  createConfig,
  disconnect,
  getConnection,
  http,
  reconnect,
  sendCalls,
  sendTransaction,
  signMessage,
  signTypedData,
  waitForCallsStatus,
  waitForTransactionReceipt,
} from '@wagmi/core'
import {
  createPublicClient,
  getAddress,
  parseEther,
  toHex,
  http as viemHttp,
} from 'viem'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { passport } from '../../connectors/passport.js'
import { Passport } from '../../src/passport/index.js'
import { appConfig } from './fixtures/passportApp.js'
import { fund } from './magicLogin.js'
import { localChain } from './magicWagmi.js'
import {
  appOptions,
  completeInPopup,
  freshEmail,
  popupAt,
  spyPopups,
  userKey,
} from './passportLogin.js'
import { info } from './publishedPassport.js'

/*
 * The wagmi connector `passport()` with real `@wagmi/core` actions, our
 * client's zkEVM provider and the emulator (identity provider, platform API,
 * relayer, key custody, Anvil); the connector's logic is unit-tested in
 * connectors/passport.test.ts.
 */

const chain = localChain({ rpcUrl: info.rpcUrl, chainId: info.chainId })
const client = createPublicClient({ transport: viemHttp(info.rpcUrl) })

/**
 * Our Passport on this page, configured as a dApp would against the
 * emulator: its `overrides` as printed (every backend, and the wallet
 * contracts our client wraps undeployed signatures with, ERC-6492).
 */
function createWallet(): Passport {
  return new Passport({
    ...appConfig(location.origin, appOptions),
    overrides: info.passport.overrides,
  })
}

/** A wagmi config whose only connector is `passport()` around `wallet`. */
function createWagmi(wallet: Passport = createWallet()) {
  const config = createConfig({
    chains: [chain],
    connectors: [passport({ passport: wallet })],
    transports: { [chain.id]: http(info.rpcUrl) },
    multiInjectedProviderDiscovery: false,
    storage: null,
  })
  const connector = config.connectors[0]
  if (!connector) throw new Error('The config has no connector.')
  return { config, connector, wallet }
}

/** `connect`, signing in through the real login popup as `email`. */
async function connectSigningIn(
  wagmi: ReturnType<typeof createWagmi>,
  email = freshEmail('connector'),
) {
  const calls = spyPopups()
  const pending = connect(wagmi.config, { connector: wagmi.connector })
  await completeInPopup(await popupAt(calls), email)
  const result = await pending
  vi.mocked(window.open).mockRestore()
  return result
}

const typed = (owner: `0x${string}`) =>
  ({
    domain: { name: 'Connector', version: '1', chainId: info.chainId },
    types: {
      Order: [
        { name: 'owner', type: 'address' },
        { name: 'amount', type: 'uint256' },
      ],
    },
    primaryType: 'Order',
    message: { owner, amount: 10n ** 20n },
  }) as const

beforeEach(() => localStorage.clear())
afterEach(() => vi.restoreAllMocks())

describe('passport() wagmi connector', () => {
  test('behavior: connect signs in and registers; signMessage and signTypedData verify before and after deployment; sendTransaction is mined', async () => {
    const wagmi = createWagmi()
    const { accounts, chainId } = await connectSigningIn(wagmi)
    expect(chainId).toBe(info.chainId)
    const address = accounts[0] as `0x${string}`
    expect(accounts).toEqual([getAddress(address)])
    expect(getConnection(wagmi.config)).toMatchObject({
      status: 'connected',
      address,
      chainId: info.chainId,
    })
    expect(getConnection(wagmi.config).connector?.id).toBe(
      'com.immutable.passport',
    )

    // Not yet deployed: viem checks the signature against the wallet the
    // factory would deploy.
    expect(await client.getCode({ address })).toBeUndefined()
    const early = 'signed before deployment'
    const earlySignature = await signMessage(wagmi.config, { message: early })
    expect(
      await client.verifyMessage({
        address,
        message: early,
        signature: earlySignature,
      }),
    ).toBe(true)
    const earlyTyped = await signTypedData(wagmi.config, typed(address))
    expect(
      await client.verifyTypedData({
        address,
        signature: earlyTyped,
        ...typed(address),
      }),
    ).toBe(true)

    await fund(info.rpcUrl, address, parseEther('1'))
    const to = getAddress(toHex(crypto.getRandomValues(new Uint8Array(20))))
    const hash = await sendTransaction(wagmi.config, {
      to,
      value: parseEther('0.1'),
    })
    const receipt = await waitForTransactionReceipt(wagmi.config, { hash })
    expect(receipt.status).toBe('success')
    expect(await client.getBalance({ address: to })).toBe(parseEther('0.1'))
    expect(await client.getCode({ address })).toMatch(/^0x[0-9a-f]+$/)

    const message = 'signed after deployment'
    const signature = await signMessage(wagmi.config, { message })
    expect(await client.verifyMessage({ address, message, signature })).toBe(
      true,
    )
    const typedSignature = await signTypedData(wagmi.config, typed(address))
    expect(
      await client.verifyTypedData({
        address,
        signature: typedSignature,
        ...typed(address),
      }),
    ).toBe(true)
  })

  test('behavior: sendCalls sends a batch from the wallet; its status reports the receipts', async () => {
    const wagmi = createWagmi()
    const { accounts } = await connectSigningIn(wagmi)
    const address = accounts[0] as `0x${string}`
    await fund(info.rpcUrl, address, parseEther('1'))
    const [a, b] = [1, 2].map(() =>
      getAddress(toHex(crypto.getRandomValues(new Uint8Array(20)))),
    ) as [`0x${string}`, `0x${string}`]
    const { id } = await sendCalls(wagmi.config, {
      calls: [
        { to: a, value: parseEther('0.01') },
        { to: b, value: parseEther('0.02') },
      ],
    })
    const status = await waitForCallsStatus(wagmi.config, { id })
    expect(status.status).toBe('success')
    expect(status.receipts?.every((r) => r.status === 'success')).toBe(true)
    expect(await client.getBalance({ address: a })).toBe(parseEther('0.01'))
    expect(await client.getBalance({ address: b })).toBe(parseEther('0.02'))
  })

  test('behavior: a reload reconnects from the stored session without a popup; disconnect signs out locally', async () => {
    const first = createWagmi()
    const { accounts } = await connectSigningIn(first)

    // A page reload: a new client, config and connector; the same storage.
    const second = createWagmi()
    const calls = spyPopups()
    expect(await second.connector.isAuthorized()).toBe(true)
    expect(await reconnect(second.config)).toEqual([
      { accounts, chainId: info.chainId, connector: second.connector },
    ])
    expect(calls).toEqual([])

    await disconnect(second.config)
    expect(getConnection(second.config).status).toBe('disconnected')
    expect(localStorage.getItem(userKey)).toBeNull()
    expect(await second.connector.isAuthorized()).toBe(false)
    expect(calls).toEqual([])
  })
})
