import {
  createPublicClient,
  getAddress,
  type Hex,
  http,
  parseEther,
  stringToHex,
} from 'viem'
import { afterEach, describe, expect, inject, test } from 'vitest'
import { gasSponsor } from '../../src/emulator/chain/accounts.js'
import type { Magic } from '../../src/magic/index.js'
import { rejection } from './magicClient.js'
import { loggedIn } from './magicLogin.js'

/**
 * `magic.wallet.sendGaslessTransaction` from our client in Chromium against
 * the emulator: a bigint `value` crosses postMessage and the iframe app, the
 * emulator's sponsor pays the gas, and the call runs from the user's address.
 */
describe('wallet.sendGaslessTransaction', () => {
  const emulator = inject('magicEmulator')
  const chain = createPublicClient({ transport: http(emulator.rpcUrl) })
  let current: Magic | undefined

  afterEach(() => {
    current?.destroy()
    current = undefined
  })

  test('sends value 1n with data from the user while the sponsor pays the gas', async () => {
    const session = await loggedIn(emulator, { name: 'gasless' })
    current = session.magic
    const { magic, address } = session
    const to = getAddress(
      `0x${crypto.randomUUID().replaceAll('-', '')}00000000`,
    )
    const data = stringToHex('gasless memo')
    const sponsorBefore = await chain.getBalance({
      address: gasSponsor.address,
    })

    const result = await magic.wallet.sendGaslessTransaction(address, {
      to,
      value: 1n,
      data,
    })

    const hash = result.request_id as Hex
    expect(result).toEqual({
      request_id: hash,
      state: 'COMPLETED',
      success: true,
    })
    const receipt = await chain.getTransactionReceipt({ hash })
    expect([
      receipt.status,
      getAddress(receipt.from),
      receipt.to && getAddress(receipt.to),
      receipt.type,
    ]).toEqual(['success', gasSponsor.address, address, 'eip7702'])
    expect(await chain.getBalance({ address: to })).toBe(1n)
    expect(await chain.getBalance({ address })).toBe(parseEther('100') - 1n)
    expect(await chain.getBalance({ address: gasSponsor.address })).toBe(
      sponsorBefore - receipt.gasUsed * receipt.effectiveGasPrice,
    )
    const { input } = await chain.getTransaction({ hash })
    expect(input).toContain(data.slice(2))
  })

  test("refuses an address that is not the user's with -32602", async () => {
    const session = await loggedIn(emulator, { name: 'gasless-other' })
    current = session.magic
    const other = '0x000000000000000000000000000000000000dEaD'
    const error = await rejection(
      session.magic.wallet.sendGaslessTransaction(other, { to: other }),
    )
    expect([error.code, error.rawMessage]).toEqual([
      -32602,
      `eth_sendGaslessTransaction: ${other} is not the logged-in user's address.`,
    ])
  })
})
