import { createWalletClient, type Hex, http } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type ChainService, call, open, startChainService } from './testkit.js'

let anvil: ChainService['anvil']
let contracts: ChainService['contracts']
let app: ChainService['app']

beforeAll(async () => {
  ;({ anvil, contracts, app } = await startChainService())
}, 60_000)

afterAll(() => anvil?.stop())

/** An Anvil dev account, unlocked: the external wallet of these tests. */
const wallet = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

/** Starts a 3PW checkout, confirms its screen, returns the flow and tx. */
async function initiated() {
  const flow = await open(app, 'magic_nft_checkout', [
    {
      contractId: contracts.testErc721,
      tokenId: '1',
      walletAddress: wallet,
      walletProvider: 'web3modal',
    },
  ])
  await flow.until((line) => line.kind === 'screen')
  await flow.answer('confirm')
  const line = (await flow.until(
    (line) =>
      line.kind === 'event' &&
      (line as { event?: string }).event === 'nft-checkout-initiated',
  )) as unknown as { params: [{ from: Hex; to: Hex; data: Hex }] }
  return { flow, transaction: line.params[0] }
}

describe('magic_nft_checkout with a third-party wallet (walletProvider web3modal)', {
  timeout: 30_000,
}, () => {
  test('behavior: emits the mint for walletAddress; the sent hash is checked on chain: processed', async () => {
    const { flow, transaction } = await initiated()
    expect(transaction.from).toBe(wallet)
    expect(transaction.to).toBe(contracts.testErc721)
    const hash = await createWalletClient({
      transport: http(anvil.rpcUrl),
    }).sendTransaction({ ...transaction, account: wallet, chain: null })
    await flow.answer('nft-checkout-success', hash)
    expect((await flow.done()).response.result).toEqual({
      status: 'processed',
    })
  })

  test('behavior: nft-checkout-failure, or a hash that did not pay the contract, is declined', async () => {
    const failed = await initiated()
    await failed.flow.answer('nft-checkout-failure')
    expect((await failed.flow.done()).response.result).toEqual({
      status: 'declined',
    })
    const other = await initiated()
    const unrelated = await createWalletClient({
      transport: http(anvil.rpcUrl),
    }).sendTransaction({
      account: wallet,
      chain: null,
      to: '0x000000000000000000000000000000000000dEaD',
      value: 1n,
    })
    await other.flow.answer('nft-checkout-success', unrelated)
    expect((await other.flow.done()).response.result).toEqual({
      status: 'declined',
    })
  })

  test('behavior: disconnecting the external wallet on the checkout screen, before or while it pays, emits disconnect and ends cancelled', async () => {
    const before = await open(app, 'magic_nft_checkout', [
      {
        contractId: contracts.testErc721,
        walletAddress: wallet,
        walletProvider: 'web3modal',
      },
    ])
    const screen = await before.until((line) => line.kind === 'screen')
    expect(screen).toMatchObject({
      screen: 'nft-checkout',
      data: { action: 'checkout', wallet },
    })
    await before.answer('disconnect')
    expect((await before.done()).response.result).toEqual({
      status: 'cancelled',
    })
    expect(
      before.lines.filter((line) => line.kind === 'event').map((line) => line),
    ).toEqual([{ kind: 'event', event: 'disconnect', params: [] }])

    const paying = await initiated()
    await paying.flow.answer('disconnect')
    expect((await paying.flow.done()).response.result).toEqual({
      status: 'cancelled',
    })
    expect(
      paying.flow.lines.flatMap((line) =>
        line.kind === 'event' ? [line.event] : [],
      ),
    ).toEqual(['nft-checkout-initiated', 'disconnect'])
  })

  test('error: without walletAddress it is -32602', async () => {
    const { error } = await call(app, 'magic_nft_checkout', [
      { contractId: contracts.testErc721, walletProvider: 'web3modal' },
    ])
    expect(error).toEqual({
      code: -32602,
      message:
        'magic_nft_checkout: a third-party wallet checkout needs the walletAddress.',
    })
  })
})
