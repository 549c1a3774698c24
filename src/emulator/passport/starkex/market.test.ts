import { describe, expect, test } from 'vitest'
import { createLedger, ethQuantum } from './ledger.js'
import {
  charge,
  feeEscrowOwner,
  feesOf,
  feeTotal,
  feeVaultOf,
  releaseFeeEscrow,
} from './market.js'

const recipient = '0x00000000000000000000000000000000000fee02'
const eth = { type: 'ETH', quantum: ethQuantum } as const

describe('fees', () => {
  test('behavior: each fee is its percentage of the price, rounded down, and the limit their sum', () => {
    const fees = feesOf([
      { address: recipient, fee_percentage: 2.5 },
      { address: recipient, fee_percentage: 0.0001 },
      { address: recipient, fee_percentage: 33.3333 },
    ])
    expect(fees.ok).toBe(true)
    if (!fees.ok) return
    const charged = charge(fees.value, 999n)
    expect(charged.map((fee) => fee.amount)).toEqual([24n, 0n, 332n])
    expect(feeTotal(charged)).toBe(356n)
  })

  test('error: fees adding up to 100 % or more, more than ten, or malformed are refused', () => {
    const one = { address: recipient, fee_percentage: 1 }
    expect(feesOf(Array.from({ length: 11 }, () => one)).ok).toBe(false)
    expect(
      feesOf([
        { address: recipient, fee_percentage: 99.9999 },
        { address: recipient, fee_percentage: 0.0001 },
      ]),
    ).toEqual({
      ok: false,
      message: 'The fees add up to 100 %: they must stay below 100 %.',
    })
    for (const fee_percentage of [0, -1, 1e-7, 0.00001, '1', Number.NaN, 1000])
      expect(feesOf([{ address: recipient, fee_percentage }]).ok).toBe(false)
    expect(feesOf(null)).toEqual({ ok: true, value: [] })
    expect(feesOf({}).ok).toBe(false)
  })
})

describe('fee escrow', () => {
  test('behavior: fees of an unregistered address wait in its escrow vault and move to its account once it registers', () => {
    const ledger = createLedger()
    const asset = ledger.learnAsset(eth, 18)
    const escrow = feeVaultOf(ledger, recipient, asset)
    expect(ledger.vault(escrow)?.starkKey).toBe(feeEscrowOwner(recipient))
    ledger.credit(escrow, 25n)
    const starkKey = `0x${'1'.padStart(64, '0')}`
    const account = ledger.register({
      ethAddress: recipient,
      starkKey,
      sub: undefined,
    })
    expect(feeVaultOf(ledger, recipient, asset)).toBe(
      ledger.vaultOf(starkKey, asset.id)?.id,
    )
    expect(releaseFeeEscrow(ledger, account)).toHaveLength(1)
    expect(ledger.vaultOf(starkKey, asset.id)?.balance).toBe(25n)
    expect(ledger.vault(escrow)?.balance).toBe(0n)
    expect(releaseFeeEscrow(ledger, account)).toEqual([])
  })
})
