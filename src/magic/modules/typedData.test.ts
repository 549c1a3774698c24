import { describe, expect, test } from 'vitest'
import { validate, validateParams } from './typedData.js'

const mail = {
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'salt', type: 'bytes32' },
    ],
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallet', type: 'address' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person[]' },
      { name: 'contents', type: 'string' },
      { name: 'amount', type: 'uint8' },
      { name: 'tag', type: 'bytes4' },
    ],
  },
  primaryType: 'Mail',
  domain: { name: 'Ether Mail', chainId: 1, salt: `0x${'ab'.repeat(32)}` },
  message: {},
}

function withTypes(
  types: Record<string, { name: string; type: string }[]>,
  primaryType = 'Mail',
) {
  return { ...mail, types: { ...mail.types, ...types }, primaryType }
}

function reason(typedData: unknown): string {
  try {
    validate(typedData)
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError)
    return (error as TypeError).message
  }
  return 'valid'
}

describe('validate', () => {
  test('default: accepts well-formed typed data, as an object or a JSON string', () => {
    expect(reason(mail)).toBe('valid')
    expect(() => validateParams(['0xabc', JSON.stringify(mail)])).not.toThrow()
  })

  test('error: int/uint width must be a multiple of 8 from 8 to 256', () => {
    expect(
      ['uint7', 'int0', 'uint264', 'int12'].map((type) =>
        reason(withTypes({ Mail: [{ name: 'a', type }] })),
      ),
    ).toMatchInlineSnapshot(`
      [
        "Invalid typed data: \`Mail.a\` has type \`uint7\`: the width must be a multiple of 8 from 8 to 256.",
        "Invalid typed data: \`Mail.a\` has type \`int0\`: the width must be a multiple of 8 from 8 to 256.",
        "Invalid typed data: \`Mail.a\` has type \`uint264\`: the width must be a multiple of 8 from 8 to 256.",
        "Invalid typed data: \`Mail.a\` has type \`int12\`: the width must be a multiple of 8 from 8 to 256.",
      ]
    `)
    expect(
      reason(
        withTypes({
          Mail: [
            { name: 'a', type: 'int256[2]' },
            { name: 'p', type: 'Person' },
          ],
        }),
      ),
    ).toBe('valid')
  })

  test('error: bytesN must have N from 1 to 32', () => {
    expect(
      ['bytes0', 'bytes33'].map((type) =>
        reason(withTypes({ Mail: [{ name: 'a', type }] })),
      ),
    ).toEqual([
      'Invalid typed data: `Mail.a` has type `bytes0`: bytesN must have N from 1 to 32.',
      'Invalid typed data: `Mail.a` has type `bytes33`: bytesN must have N from 1 to 32.',
    ])
  })

  test('error: unknown, duplicated and circular types', () => {
    expect([
      reason(withTypes({ Mail: [{ name: 'a', type: 'Missing' }] })),
      reason(
        withTypes({
          Mail: [
            { name: 'a', type: 'string' },
            { name: 'a', type: 'string' },
          ],
        }),
      ),
      reason(
        withTypes({
          Mail: [{ name: 'a', type: 'Person' }],
          Person: [{ name: 'b', type: 'Mail[]' }],
        }),
      ),
    ]).toMatchInlineSnapshot(`
      [
        "Invalid typed data: \`Mail.a\` has unknown type \`Missing\`.",
        "Invalid typed data: type \`Mail\` has a duplicate field \`a\`.",
        "Invalid typed data: circular type reference: \`Person\` → \`Mail\` → \`Person\`.",
      ]
    `)
  })

  test('error: exactly one primary type', () => {
    expect([
      reason(withTypes({ Extra: [{ name: 'x', type: 'string' }] })),
      reason(withTypes({}, 'Person')),
      reason(withTypes({}, 'Nope')),
    ]).toMatchInlineSnapshot(`
      [
        "Invalid typed data: there must be exactly one primary type, found \`Mail\`, \`Extra\`.",
        "Invalid typed data: primary type \`Person\` is referenced by another type; the primary type is \`Mail\`.",
        "Invalid typed data: primary type \`Nope\` is not in \`types\`.",
      ]
    `)
  })

  test('error: domain chainId non-negative and salt of 32 bytes', () => {
    expect([
      reason({ ...mail, domain: { chainId: -1 } }),
      reason({ ...mail, domain: { chainId: '0x1' } }),
      reason({ ...mail, domain: { chainId: 1.5 } }),
      reason({ ...mail, domain: { salt: '0x1234' } }),
    ]).toEqual([
      'Invalid typed data: `domain.chainId` must not be negative.',
      'valid',
      'Invalid typed data: `domain.chainId` must be an integer.',
      'Invalid typed data: `domain.salt` must be 32 bytes.',
    ])
  })

  test('error: params that are not typed data', () => {
    expect(() => validateParams(['0xabc', '{nope'])).toThrow(
      'Invalid typed data: the typed data is not valid JSON.',
    )
    expect(reason(null)).toBe(
      'Invalid typed data: the typed data must be an object.',
    )
  })
})
