import {
  type Address,
  createPublicClient,
  createWalletClient,
  decodeFunctionData,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  parseEther,
  parseEventLogs,
} from 'viem'
import {
  afterAll,
  afterEach,
  beforeAll,
  describe,
  expect,
  test,
  vi,
} from 'vitest'
import { anvilAccounts, gasSponsor } from '../../chain/accounts.js'
import {
  SponsoredCallDelegate,
  TestERC20,
} from '../../chain/artifacts.generated.js'
import { runFlow } from './app/backend.js'
import {
  type ChainService,
  call,
  type Device,
  startChainService,
} from './testkit.js'

let service: ChainService

beforeAll(async () => {
  service = await startChainService()
}, 60_000)

afterAll(() => service?.stop())

const chain = () =>
  createPublicClient({ transport: http(service.anvil.rpcUrl) })
const bob: Address = '0x000000000000000000000000000000000000b0b0'
const erc20 = (functionName: 'mint' | 'transfer', args: [Address, bigint]) =>
  encodeFunctionData({ abi: TestERC20.abi, functionName, args })
const balanceOf = (address: Address) =>
  chain().readContract({
    address: service.contracts.erc20,
    abi: TestERC20.abi,
    functionName: 'balanceOf',
    args: [address],
  })
/** What the sponsor paid for a transaction. */
const feeOf = async (hash: Hex) => {
  const receipt = await chain().getTransactionReceipt({ hash })
  return receipt.gasUsed * receipt.effectiveGasPrice
}

const gasless = (device: Device, params: unknown[]) =>
  call(service.app, 'eth_sendGaslessTransaction', params, { device })

describe('eth_sendGaslessTransaction', { timeout: 30_000 }, () => {
  test('behavior: ERC-20 mint and transfer run from the user, the sponsor pays all the gas', async () => {
    const { device, address } = await service.loggedIn()
    const token = service.contracts.erc20
    const sponsorBefore = await chain().getBalance({
      address: gasSponsor.address,
    })

    const minted = await gasless(device, [
      address,
      { to: token, data: erc20('mint', [address, parseEther('5')]) },
    ])
    const mint = minted.result as { request_id: Hex }
    expect(minted.result).toEqual({
      request_id: mint.request_id,
      state: 'COMPLETED',
      success: true,
    })
    const sent = await gasless(device, [
      address,
      {
        from: address,
        to: token,
        data: erc20('transfer', [bob, parseEther('2')]),
        chainId: 31337,
      },
    ])
    const transfer = sent.result as { request_id: Hex }
    expect(sent.result).toEqual({
      request_id: transfer.request_id,
      state: 'COMPLETED',
      success: true,
    })

    // The first one delegated the account (type 4); the second needed not.
    const first = await chain().getTransaction({ hash: mint.request_id })
    const second = await chain().getTransaction({ hash: transfer.request_id })
    const summary = (tx: typeof first) => [
      tx.type,
      getAddress(tx.from),
      tx.to && getAddress(tx.to),
    ]
    expect(summary(first)).toEqual(['eip7702', gasSponsor.address, address])
    expect(summary(second)).toEqual(['eip1559', gasSponsor.address, address])
    expect(await chain().getCode({ address })).toBe(
      `0xef0100${service.contracts.sponsoredCallDelegate.slice(2).toLowerCase()}`,
    )
    // The token saw the user as the sender.
    const receipt = await chain().getTransactionReceipt({
      hash: transfer.request_id,
    })
    const [event] = parseEventLogs({
      abi: TestERC20.abi,
      eventName: 'Transfer',
      logs: receipt.logs,
    })
    expect(event?.args).toEqual({
      from: address,
      to: bob,
      value: parseEther('2'),
    })
    expect(await balanceOf(address)).toBe(parseEther('3'))
    expect(await balanceOf(bob)).toBe(parseEther('2'))
    // The user paid nothing; the sponsor paid exactly both fees.
    expect(await chain().getBalance({ address })).toBe(parseEther('100'))
    expect(await chain().getBalance({ address: gasSponsor.address })).toBe(
      sponsorBefore -
        (await feeOf(mint.request_id)) -
        (await feeOf(transfer.request_id)),
    )
  })

  test('behavior: a value transfer takes exactly value from the user, whatever form the number has', async () => {
    const { device, address } = await service.loggedIn()
    const to: Address = '0x000000000000000000000000000000000000cafe'
    for (const value of ['0x3e8', '1000', 1000, { _hex: '0x3e8' }]) {
      const { result } = await gasless(device, [address, { to, value }])
      expect(result).toMatchObject({ state: 'COMPLETED', success: true })
    }
    expect(await chain().getBalance({ address: to })).toBe(4000n)
    expect(await chain().getBalance({ address })).toBe(
      parseEther('100') - 4000n,
    )
  })

  test('error: an address other than the logged-in user is -32602', async () => {
    const { device } = await service.loggedIn()
    const { error } = await gasless(device, [bob, { to: bob, value: '1' }])
    expect(error).toEqual({
      code: -32602,
      message: `eth_sendGaslessTransaction: ${bob} is not the logged-in user's address.`,
    })
  })

  test('error: bad fields are -32602 naming the field', async () => {
    const { device, address } = await service.loggedIn()
    const errorOf = async (tx: unknown) =>
      (await gasless(device, [address, tx])).error
    expect(await errorOf({ to: bob, value: 'lots' })).toEqual({
      code: -32602,
      message:
        'eth_sendGaslessTransaction: value is not a non-negative integer.',
    })
    expect(await errorOf({ value: '1' })).toEqual({
      code: -32602,
      message:
        'eth_sendGaslessTransaction: a gasless transaction needs a to address (contract creation cannot be sponsored).',
    })
    expect(await errorOf({ to: bob, chainId: '0x1' })).toEqual({
      code: -32602,
      message:
        "eth_sendGaslessTransaction: chainId 1 is not this chain's (31337).",
    })
  })

  test('error: a call that would revert is refused before anything is sent (-32603, decoded)', async () => {
    const { device, address } = await service.loggedIn()
    const sponsorNonce = await chain().getTransactionCount({
      address: gasSponsor.address,
    })
    const { error } = await gasless(device, [
      address,
      { to: service.contracts.erc20, data: erc20('transfer', [bob, 1n]) },
    ])
    expect(error).toMatchObject({
      code: -32603,
      message: `eth_sendGaslessTransaction: the transaction reverts (call 0 reverted: ERC20InsufficientBalance(${address}, 0, 1)); nothing was sent.`,
    })
    expect(
      await chain().getTransactionCount({ address: gasSponsor.address }),
    ).toBe(sponsorNonce)
  })

  test('error: replaying a sponsored execute reverts with InvalidNonce and changes nothing', async () => {
    const { device, address } = await service.loggedIn()
    const { result } = await gasless(device, [address, { to: bob, value: '5' }])
    const hash = (result as { request_id: Hex }).request_id
    const { input } = await chain().getTransaction({ hash })
    const replayer = createWalletClient({
      account: anvilAccounts[1]!,
      transport: http(service.anvil.rpcUrl),
    })
    const replay = await replayer.sendTransaction({
      chain: null,
      to: address,
      data: input,
      gas: 300_000n,
    })
    const receipt = await chain().waitForTransactionReceipt({ hash: replay })
    expect(receipt.status).toBe('reverted')
    const { args } = decodeFunctionData({
      abi: SponsoredCallDelegate.abi,
      data: input,
    })
    await expect(
      chain().simulateContract({
        account: anvilAccounts[1]!,
        address,
        abi: SponsoredCallDelegate.abi,
        functionName: 'execute',
        args: args as never,
      }),
    ).rejects.toMatchObject({
      cause: { data: { errorName: 'InvalidNonce', args: [1n, 0n] } },
    })
    expect(await chain().getBalance({ address })).toBe(parseEther('100') - 5n)
  })
})

describe('iframe app → backend', () => {
  afterEach(() => vi.unstubAllGlobals())

  test('behavior: bigint params (structured clone) are posted as 0x hex', async () => {
    const fetch = vi.fn(async () => new Response(''))
    vi.stubGlobal('fetch', fetch)
    const request = {
      jsonrpc: '2.0' as const,
      id: 1,
      method: 'eth_sendGaslessTransaction',
      params: ['0xa', { to: '0xb', value: 1n, chainId: 31337n }],
    }
    await runFlow({ params: 'p', request }, { onStart() {}, onLine() {} })
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit]
    expect(JSON.parse(init.body as string).request.params).toEqual([
      '0xa',
      { to: '0xb', value: '0x1', chainId: '0x7a69' },
    ])
  })
})
