import { encodeErrorResult, parseAbi } from 'viem'
import { describe, expect, test } from 'vitest'
import { TestERC20 } from './artifacts.generated.js'
import { deployedErrors, revertMessage, revertReason } from './revert.js'

const solidity = parseAbi(['error Error(string)', 'error Panic(uint256)'])
const wallet = '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf'

describe('revertReason', () => {
  test('behavior: Error(string) reads as its text', () => {
    const data = encodeErrorResult({
      abi: solidity,
      errorName: 'Error',
      args: ['ModuleCalls#execute: NOT_ENOUGH_GAS'],
    })
    expect(revertReason(data)).toBe('ModuleCalls#execute: NOT_ENOUGH_GAS')
  })

  test('behavior: Panic(uint256) reads as its code and what Solidity says it means', () => {
    const panic = (code: bigint) =>
      revertReason(
        encodeErrorResult({ abi: solidity, errorName: 'Panic', args: [code] }),
      )
    expect(panic(0x11n)).toBe('Panic(0x11): arithmetic underflow or overflow')
    expect(panic(0x12n)).toBe('Panic(0x12): division or modulo by zero')
    expect(panic(0x01n)).toBe('Panic(0x01): assert failed')
    expect(panic(0x99n)).toBe('Panic(0x99): unknown panic code')
  })

  test("behavior: a deployed contract's custom error reads as its name and arguments", () => {
    const data = encodeErrorResult({
      abi: TestERC20.abi,
      errorName: 'ERC20InsufficientBalance',
      args: [wallet.toLowerCase() as `0x${string}`, 0n, 10n ** 18n],
    })
    expect(revertReason(data)).toBe(
      `ERC20InsufficientBalance(${wallet}, 0, 1000000000000000000)`,
    )
    expect(
      deployedErrors.some((e) => e.name === 'ERC721NonexistentToken'),
    ).toBe(true)
  })

  test('behavior: data no known error decodes is given raw; no data is no reason', () => {
    expect(revertReason('0xdeadbeef')).toBe('data 0xdeadbeef')
    expect(revertReason('0x12')).toBe('data 0x12')
    expect(revertReason('0x')).toBe(undefined)
  })
})

describe('revertMessage', () => {
  test('default: the status message names the reason, or says there was none', () => {
    expect(revertMessage('0xdeadbeef')).toBe(
      'The transaction reverted on chain: data 0xdeadbeef.',
    )
    expect(revertMessage('0x')).toBe(
      'The transaction reverted on chain without a reason.',
    )
    expect(revertMessage(undefined)).toBe(
      'The transaction reverted on chain without a reason.',
    )
  })
})
