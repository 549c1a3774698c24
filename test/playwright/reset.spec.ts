import { createPublicClient, http, type PublicClient } from 'viem'
import { privateKeyToAddress } from 'viem/accounts'
import { kitSender } from '../../src/testing/index.js'
import { expect, test } from './fixtures.js'

/** A fresh address per worker, on no one's books before these tests. */
const address = privateKeyToAddress(
  `0x${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex')}`,
)

function chainOf(rpcUrl: string): PublicClient {
  return createPublicClient({ transport: http(rpcUrl) })
}

test.describe('resetChain (the default)', () => {
  test.describe.configure({ mode: 'serial' })
  let before: { nonce: number; block: bigint } | undefined

  test('behavior: a test funds an address and mints from the kit account', async ({
    kit,
    emulator,
  }) => {
    const chain = chainOf(emulator.rpcUrl)
    before = {
      nonce: await chain.getTransactionCount({ address: kitSender }),
      block: await chain.getBlockNumber(),
    }
    await kit.fund(address, { eth: '2' })
    await kit.mintNft(address)
    expect(await chain.getBalance({ address })).toBe(2n * 10n ** 18n)
    expect(await chain.getTransactionCount({ address: kitSender })).toBe(
      before.nonce + 1,
    )
  })

  test('behavior: the next test finds the balance and nonce reverted', async ({
    emulator,
  }) => {
    const chain = chainOf(emulator.rpcUrl)
    expect(await chain.getBalance({ address })).toBe(0n)
    expect(await chain.getTransactionCount({ address: kitSender })).toBe(
      before?.nonce,
    )
    expect(await chain.getBlockNumber()).toBe(before?.block)
  })
})

test.describe('resetChain: false', () => {
  test.describe.configure({ mode: 'serial' })
  test.use({ resetChain: false })
  const other = privateKeyToAddress(
    `0x${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex')}`,
  )

  test('behavior: a test funds an address', async ({ kit }) => {
    expect((await kit.fund(other, { eth: '3' })).eth).toBe(3n * 10n ** 18n)
  })

  test('behavior: the next test still sees it', async ({ emulator }) => {
    expect(await chainOf(emulator.rpcUrl).getBalance({ address: other })).toBe(
      3n * 10n ** 18n,
    )
  })
})

test.describe('resetServices (the default)', () => {
  test.describe.configure({ mode: 'serial' })
  let defaults: unknown

  test("behavior: a test sets the guardian's rules and plans a relayer failure", async ({
    kit,
  }) => {
    defaults = await kit.guardian.getRules()
    await kit.guardian.setRules({ confirmErc191: true, unavailable: true })
    await kit.relayer.next('fail', { count: 3 })
    await kit.scenarios.set('node-down')
    expect(await kit.guardian.getRules()).not.toEqual(defaults)
  })

  test('behavior: the next test finds the default rules and every scenario off', async ({
    kit,
  }) => {
    expect(await kit.guardian.getRules()).toEqual(defaults)
    expect(
      (await kit.scenarios.list()).filter((scenario) => scenario.on),
    ).toEqual([])
  })
})
