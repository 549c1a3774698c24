import { encodeErrorResult, parseAbi } from 'viem'
import { describe, expect, test } from 'vitest'
import { maxTokenUriLength, metadataOfUri, revertReason } from './onchain.js'

describe('metadataOfUri', () => {
  test('behavior: a base64 or percent-encoded JSON data: URI gives its name and image', () => {
    const json = JSON.stringify({ name: 'Sword', image: 'ipfs://sword' })
    expect(
      metadataOfUri(
        `data:application/json;base64,${Buffer.from(json).toString('base64')}`,
      ),
    ).toEqual({ name: 'Sword', image: 'ipfs://sword' })
    expect(
      metadataOfUri(
        `data:application/json;charset=utf-8,${encodeURIComponent(json)}`,
      ),
    ).toEqual({ name: 'Sword', image: 'ipfs://sword' })
  })

  test('behavior: names lose control characters; fields of other types are left out', () => {
    expect(
      metadataOfUri(
        `data:application/json,${encodeURIComponent(JSON.stringify({ name: '\u0000Shield\n', image: 7 }))}`,
      ),
    ).toEqual({ name: 'Shield' })
  })

  test('error: URIs of other kinds are not fetched, and malformed or oversized ones give nothing', () => {
    for (const uri of [
      'https://example.com/1.json',
      'ipfs://Qm/1',
      'data:text/plain,hello',
      'data:application/json;base64,!!!',
      'data:application/json,%E0%A4%A',
      'data:application/json,[1]',
      `data:application/json,${encodeURIComponent(JSON.stringify({ name: 'x'.repeat(maxTokenUriLength) }))}`,
    ])
      expect(metadataOfUri(uri)).toEqual({})
  })
})

describe('revertReason', () => {
  test('behavior: Error(string) and Panic(uint256) in words, other data as given', () => {
    const abi = parseAbi(['error Error(string)', 'error Panic(uint256)'])
    expect(
      revertReason(
        encodeErrorResult({ abi, errorName: 'Error', args: ['no\nfunds'] }),
      ),
    ).toBe('The call reverted: no funds')
    expect(
      revertReason(encodeErrorResult({ abi, errorName: 'Panic', args: [17n] })),
    ).toBe('The call panicked with code 0x11.')
    expect(revertReason('0x')).toBe('The call reverted without a reason.')
    expect(revertReason('0x12345678')).toBe(
      'The call reverted with data 0x12345678.',
    )
    expect(revertReason(`0x${'ab'.repeat(200)}`)).toBe(
      `The call reverted with data 0x${'ab'.repeat(100)}….`,
    )
  })
})
