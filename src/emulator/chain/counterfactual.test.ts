import { getAddress, type Hex, keccak256 } from 'viem'
import { describe, expect, test } from 'vitest'
import { BaseError } from '../../core/Errors.js'
import {
  counterfactualAddress,
  DuplicateSignerError,
  EmptySignersError,
  InvalidSignerError,
  InvalidThresholdError,
  imageHash,
  sortSigners,
  UnreachableThresholdError,
  walletInitCode,
} from './counterfactual.js'

// Hand-assembled ABI words, independent of viem's encoders.
const word = (hex: string) =>
  hex.replace(/^0x/, '').toLowerCase().padStart(64, '0')
const wordOf = (n: number) => word(n.toString(16))

const low = '0x1111111111111111111111111111111111111111'
const high = '0xAaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'
const factory = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const mainModule = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'
const creationCode =
  '603a600e3d39601a805130553df3363d3d373d3d3d363d30545af43d82803e903d91601857fd5bf3'

describe('imageHash', () => {
  test('hashes threshold, then keccak256(h ‖ weight ‖ address) per signer', () => {
    const start = `0x${wordOf(1)}`
    const expected = keccak256(`${start}${wordOf(1)}${word(low)}` as Hex)
    expect(
      imageHash({ threshold: 1, signers: [{ weight: 1, address: low }] }),
    ).toBe(expected)
  })

  test('hashes signers in ascending address order whatever order they come in', () => {
    const first = keccak256(`0x${wordOf(3)}${wordOf(2)}${word(low)}` as Hex)
    const expected = keccak256(`${first}${wordOf(1)}${word(high)}` as Hex)
    const signers = [
      { weight: 1, address: high },
      { weight: 2, address: low },
    ] as const
    expect(imageHash({ threshold: 3, signers })).toBe(expected)
    expect(imageHash({ threshold: 3, signers: [...signers].reverse() })).toBe(
      expected,
    )
  })

  test('depends on the threshold', () => {
    const signers = [{ weight: 2, address: low }] as const
    expect(imageHash({ threshold: 1, signers })).not.toBe(
      imageHash({ threshold: 2, signers }),
    )
  })
})

describe('sortSigners', () => {
  test('checksums addresses and orders them by numeric value', () => {
    expect(
      sortSigners({
        threshold: 1,
        signers: [
          { weight: 1, address: high.toLowerCase() as Hex },
          { weight: 0, address: low },
        ],
      }),
    ).toEqual([
      { weight: 0, address: getAddress(low) },
      { weight: 1, address: getAddress(high) },
    ])
  })

  test.each([0, 65_536, 1.5, Number.NaN])(
    'rejects threshold %s',
    (threshold) => {
      expect(() =>
        imageHash({ threshold, signers: [{ weight: 1, address: low }] }),
      ).toThrow(InvalidThresholdError)
    },
  )

  test('rejects an empty signer list', () => {
    expect(() => imageHash({ threshold: 1, signers: [] })).toThrow(
      EmptySignersError,
    )
  })

  test('rejects the same signer twice, whatever the case', () => {
    const run = () =>
      imageHash({
        threshold: 1,
        signers: [
          { weight: 1, address: high },
          { weight: 1, address: high.toLowerCase() as Hex },
        ],
      })
    expect(run).toThrow(DuplicateSignerError)
    try {
      run()
    } catch (error) {
      expect(error).toBeInstanceOf(BaseError)
      expect((error as DuplicateSignerError).address).toBe(getAddress(high))
      expect((error as DuplicateSignerError).name).toBe(
        'Counterfactual.DuplicateSignerError',
      )
    }
  })

  test.each([256, -1, 0.5])('rejects weight %s', (weight) => {
    expect(() =>
      imageHash({ threshold: 1, signers: [{ weight, address: low }] }),
    ).toThrow(InvalidSignerError)
  })

  test('rejects a malformed address', () => {
    expect(() =>
      imageHash({ threshold: 1, signers: [{ weight: 1, address: '0x1234' }] }),
    ).toThrow(InvalidSignerError)
  })

  test('rejects a threshold the weights cannot reach', () => {
    expect(() =>
      imageHash({
        threshold: 4,
        signers: [
          { weight: 1, address: low },
          { weight: 2, address: high },
        ],
      }),
    ).toThrow(UnreachableThresholdError)
  })
})

describe('counterfactualAddress', () => {
  test('init code is the wallet creation code followed by uint256(mainModule)', () => {
    expect(walletInitCode(mainModule)).toBe(
      `0x${creationCode}${word(mainModule)}`,
    )
  })

  test('is the CREATE2 address from the factory, salt = image hash', () => {
    const salt = imageHash({
      threshold: 1,
      signers: [{ weight: 1, address: low }],
    })
    const initCodeHash = keccak256(`0x${creationCode}${word(mainModule)}`)
    const preimage =
      `0xff${factory.slice(2)}${salt.slice(2)}${initCodeHash.slice(2)}` as Hex
    const expected = getAddress(`0x${keccak256(preimage).slice(-40)}`)
    expect(
      counterfactualAddress({ factory, mainModule, imageHash: salt }),
    ).toBe(expected)
  })

  test('differs per main module and per image hash', () => {
    const salt = imageHash({
      threshold: 1,
      signers: [{ weight: 1, address: low }],
    })
    const other = imageHash({
      threshold: 1,
      signers: [{ weight: 1, address: high }],
    })
    const base = counterfactualAddress({ factory, mainModule, imageHash: salt })
    expect(
      counterfactualAddress({ factory, mainModule: factory, imageHash: salt }),
    ).not.toBe(base)
    expect(
      counterfactualAddress({ factory, mainModule, imageHash: other }),
    ).not.toBe(base)
  })
})
