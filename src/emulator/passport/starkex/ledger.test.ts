import { describe, expect, test } from 'vitest'
import {
  createLedger,
  InvalidMovementError,
  LedgerError,
  LedgerFullError,
  maxNoncesPerKey,
  maxPendingPerKey,
  quantumOf,
} from './ledger.js'
import { assetId } from './stark.js'

const keyA = `0x${'a'.repeat(64)}`
const keyB = `0x${'b'.repeat(64)}`
const eth = { type: 'ETH', quantum: 10n ** 8n } as const
const ethId = assetId(eth)

describe('accounts', () => {
  test('behavior: an account is found by address in any case and by Stark key', () => {
    const ledger = createLedger({ now: () => 5 })
    const address = '0x52908400098527886e0f7030069857d2e4169ee7'
    const account = ledger.register({
      ethAddress: address,
      starkKey: keyA,
      sub: 'p1',
    })
    expect(account).toEqual({
      ethAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
      starkKey: keyA,
      sub: 'p1',
      createdAt: 5,
    })
    expect(ledger.accountOf(address.toUpperCase().replace('0X', '0x'))).toBe(
      account,
    )
    expect(ledger.accountOfKey(keyA)).toBe(account)
    expect(ledger.accountOf('not an address')).toBeUndefined()
  })

  test('error: an address or a Stark key registers once', () => {
    const ledger = createLedger()
    const address = '0x52908400098527886e0f7030069857d2e4169ee7'
    ledger.register({ ethAddress: address, starkKey: keyA, sub: undefined })
    expect(() =>
      ledger.register({ ethAddress: address, starkKey: keyB, sub: undefined }),
    ).toThrow(LedgerError)
    expect(() =>
      ledger.register({
        ethAddress: '0x0000000000000000000000000000000000000001',
        starkKey: keyA,
        sub: undefined,
      }),
    ).toThrow(/Stark key .* is registered already/)
  })
})

describe('vaults', () => {
  test('behavior: one vault per key and asset, ids from a counter', () => {
    const ledger = createLedger()
    const a = ledger.openVault(keyA, ethId)
    expect(ledger.openVault(keyA, ethId)).toBe(a)
    const b = ledger.openVault(keyB, ethId)
    expect([a.id, b.id]).toEqual([1, 2])
    expect(ledger.vaultOf(keyA, ethId)).toBe(a)
    expect(ledger.vault(2)).toBe(b)
    expect(ledger.vaultsOf(keyA)).toEqual([a])
    expect(ledger.vaultOf(keyB, 1n)).toBeUndefined()
  })

  test('behavior: movements apply exactly and holders follow the balance', () => {
    const ledger = createLedger()
    const a = ledger.openVault(keyA, ethId)
    const b = ledger.openVault(keyB, ethId)
    ledger.credit(a.id, 10n)
    ledger.apply([{ from: a.id, to: b.id, amount: 4n }])
    expect([a.balance, b.balance]).toEqual([6n, 4n])
    expect(ledger.holders(ethId).map((v) => v.id)).toEqual([1, 2])
    ledger.apply([{ from: b.id, to: a.id, amount: 4n }])
    expect(ledger.holders(ethId).map((v) => v.id)).toEqual([1])
  })

  test('error: a batch that overdraws moves nothing', () => {
    const ledger = createLedger()
    const a = ledger.openVault(keyA, ethId)
    const b = ledger.openVault(keyB, ethId)
    ledger.credit(a.id, 10n)
    expect(() =>
      ledger.apply([
        { from: a.id, to: b.id, amount: 6n },
        { from: a.id, to: b.id, amount: 6n },
      ]),
    ).toThrow(/Vault 1 holds 10 quantized units, less than the 12/)
    expect([a.balance, b.balance]).toEqual([10n, 0n])
  })

  test('error: unknown vaults, other assets and non-positive amounts are refused', () => {
    const ledger = createLedger()
    const a = ledger.openVault(keyA, ethId)
    const other = ledger.openVault(keyB, 7n)
    ledger.credit(a.id, 10n)
    expect(() => ledger.apply([{ from: a.id, to: 99, amount: 1n }])).toThrow(
      InvalidMovementError,
    )
    expect(() =>
      ledger.apply([{ from: a.id, to: other.id, amount: 1n }]),
    ).toThrow(/different assets/)
    expect(() => ledger.apply([{ from: a.id, to: a.id, amount: 0n }])).toThrow(
      /positive/,
    )
    expect(() => ledger.credit(99, 1n)).toThrow(InvalidMovementError)
    expect(a.balance).toBe(10n)
  })
})

describe('commit', () => {
  test('behavior: spends the nonces and moves the funds together', () => {
    const ledger = createLedger()
    const a = ledger.openVault(keyA, ethId)
    const b = ledger.openVault(keyB, ethId)
    ledger.credit(a.id, 10n)
    ledger.commit({
      starkKey: keyA,
      nonces: [7, 8],
      movements: [
        { from: a.id, to: b.id, amount: 3n },
        { from: a.id, to: b.id, amount: 2n },
      ],
    })
    expect([a.balance, b.balance]).toEqual([5n, 5n])
    expect([ledger.isNonceUsed(keyA, 7), ledger.isNonceUsed(keyA, 8)]).toEqual([
      true,
      true,
    ])
  })

  test('error: a spent nonce moves nothing, a short balance spends no nonce', () => {
    const ledger = createLedger()
    const a = ledger.openVault(keyA, ethId)
    const b = ledger.openVault(keyB, ethId)
    ledger.credit(a.id, 10n)
    ledger.useNonces(keyA, [1])
    expect(() =>
      ledger.commit({
        starkKey: keyA,
        nonces: [2, 1],
        movements: [{ from: a.id, to: b.id, amount: 1n }],
      }),
    ).toThrow(`Nonce 1 of Stark key ${keyA} was used already.`)
    expect(() =>
      ledger.commit({
        starkKey: keyA,
        nonces: [3],
        movements: [{ from: a.id, to: b.id, amount: 11n }],
      }),
    ).toThrow(InvalidMovementError)
    expect([a.balance, b.balance]).toEqual([10n, 0n])
    expect([ledger.isNonceUsed(keyA, 2), ledger.isNonceUsed(keyA, 3)]).toEqual([
      false,
      false,
    ])
  })
})

describe('assets', () => {
  test('behavior: an asset is learned once, with its id and lowercase address', () => {
    const ledger = createLedger()
    const nft = {
      type: 'ERC721',
      tokenAddress: '0xB18ed4768F87b0fFAb83408014f1caF066b91380',
      tokenId: 4100n,
    } as const
    const info = ledger.learnAsset(nft, 0)
    expect(info.id).toBe(
      0x2b0ff0c09505bc40f9d1659becf16855a7b2298b010f8a54f4b05325885b40cn,
    )
    expect(info).toMatchObject({
      tokenAddress: '0xb18ed4768f87b0ffab83408014f1caf066b91380',
      decimals: 0,
    })
    expect(ledger.learnAsset(nft, 3)).toBe(info)
    expect(ledger.asset(info.id)).toBe(info)
  })

  test('behavior: an ERC20 is found by address; error: another quantum for it is refused', () => {
    const ledger = createLedger()
    const address = '0xdAC17F958D2ee523a2206206994597C13D831ec7'
    const usdt = ledger.learnAsset(
      { type: 'ERC20', tokenAddress: address, quantum: quantumOf('ERC20', 6) },
      6,
    )
    expect(ledger.erc20(address.toLowerCase())).toBe(usdt)
    expect(() =>
      ledger.learnAsset(
        {
          type: 'ERC20',
          tokenAddress: address,
          quantum: quantumOf('ERC20', 18),
        },
        18,
      ),
    ).toThrow(
      'The ERC20 0xdAC17F958D2ee523a2206206994597C13D831ec7 is known with 6 decimals.',
    )
  })

  test('behavior: quanta are 10^8 for ETH, 10^(decimals-10) for an ERC20, 1 for an ERC721', () => {
    expect(quantumOf('ETH', 18)).toBe(10n ** 8n)
    expect(quantumOf('ERC20', 18)).toBe(10n ** 8n)
    expect(quantumOf('ERC20', 6)).toBe(1n)
    expect(quantumOf('ERC721', 0)).toBe(1n)
  })
})

describe('nonces', () => {
  test('behavior: spent nonces are remembered per key', () => {
    const ledger = createLedger()
    ledger.useNonces(keyA, [1, 2])
    expect(ledger.isNonceUsed(keyA, 1)).toBe(true)
    expect(ledger.isNonceUsed(keyB, 1)).toBe(false)
    ledger.useNonces(keyB, [1])
  })

  test('error: a replayed or doubled nonce is refused and nothing is spent', () => {
    const ledger = createLedger()
    ledger.useNonces(keyA, [1])
    expect(() => ledger.useNonces(keyA, [3, 1])).toThrow(
      `Nonce 1 of Stark key ${keyA} was used already.`,
    )
    expect(ledger.isNonceUsed(keyA, 3)).toBe(false)
    expect(() => ledger.useNonces(keyA, [4, 4])).toThrow(/appears twice/)
  })

  test('error: past the cap a key spends no more nonces', () => {
    const ledger = createLedger()
    ledger.useNonces(
      keyA,
      Array.from({ length: maxNoncesPerKey }, (_, i) => i),
    )
    expect(() => ledger.useNonces(keyA, [maxNoncesPerKey])).toThrow(
      LedgerFullError,
    )
  })

  test('behavior: a fresh nonce is a uint31 neither spent nor pending', () => {
    const ledger = createLedger()
    const nonce = ledger.freshNonce(keyA)
    expect(Number.isInteger(nonce) && nonce >= 0 && nonce < 2 ** 31).toBe(true)
  })
})

describe('pending signables', () => {
  test('behavior: kept under any spelling of the hash, forgotten once settled', () => {
    const ledger = createLedger()
    ledger.issue({
      hash: '0x0ABC',
      kind: 'transfer',
      starkKey: keyA,
      nonce: 1,
      expiration: 2,
      message: 'Payload hash: abc',
      details: { x: 1 },
    })
    expect(ledger.pending(0xabcn)?.details).toEqual({ x: 1 })
    expect(ledger.pending('abc')?.hash).toBe('abc')
    ledger.settle('0xabc')
    expect(ledger.pending('abc')).toBeUndefined()
  })

  test('behavior: the oldest of a key go first past the cap', () => {
    const ledger = createLedger()
    for (let i = 1; i <= maxPendingPerKey + 1; i++)
      ledger.issue({
        hash: i.toString(16),
        kind: 'transfer',
        starkKey: keyA,
        nonce: i,
        expiration: 1,
        message: '',
        details: null,
      })
    expect(ledger.pending('1')).toBeUndefined()
    expect(ledger.pending('2')).toBeDefined()
    expect(ledger.pending((maxPendingPerKey + 1).toString(16))).toBeDefined()
  })
})
