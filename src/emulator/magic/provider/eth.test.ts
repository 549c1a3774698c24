import {
  createPublicClient,
  type Hex,
  http,
  parseEther,
  parseTransaction,
  recoverMessageAddress,
  recoverTransactionAddress,
  verifyTypedData,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  type ChainService,
  call,
  rawJson,
  startChainService,
} from './testkit.js'

let anvil: ChainService['anvil']
let app: ChainService['app']
let loggedIn: ChainService['loggedIn']

beforeAll(async () => {
  ;({ anvil, app, loggedIn } = await startChainService())
}, 60_000)

afterAll(() => anvil?.stop())

const chain = () => createPublicClient({ transport: http(anvil.rpcUrl) })

type Editable = {
  types: Record<string, { name: string; type: string }[]> & {
    Mail: { name: string; type: string }[]
  }
  domain: Record<string, unknown>
}

const typedData = {
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'chainId', type: 'uint256' },
    ],
    Mail: [
      { name: 'to', type: 'address' },
      { name: 'contents', type: 'string' },
    ],
  },
  primaryType: 'Mail',
  domain: { name: 'Test', chainId: 31337 },
  message: {
    to: '0x0000000000000000000000000000000000000001',
    contents: 'hi',
  },
} as const

describe('ethereum methods', { timeout: 30_000 }, () => {
  test('behavior: a new user is funded with 100 ETH; eth_accounts lists the address only when logged in', async () => {
    const { device, address } = await loggedIn()
    expect(await chain().getBalance({ address })).toBe(parseEther('100'))
    expect((await call(app, 'eth_accounts', [], { device })).result).toEqual([
      address,
    ])
    expect((await call(app, 'eth_accounts')).result).toEqual([])
  })

  test('behavior: personal_sign and eth_sign recover to the user', async () => {
    const { device, address } = await loggedIn()
    const signature = (
      await call(app, 'personal_sign', ['0x68656c6c6f', address], { device })
    ).result as Hex
    expect(await recoverMessageAddress({ message: 'hello', signature })).toBe(
      address,
    )
    const text = (
      await call(app, 'personal_sign', ['hello world', address], { device })
    ).result as Hex
    expect(
      await recoverMessageAddress({ message: 'hello world', signature: text }),
    ).toBe(address)
    const ethSign = (
      await call(app, 'eth_sign', [address, '0x68656c6c6f'], { device })
    ).result as Hex
    expect(ethSign).toBe(signature)
  })

  test('behavior: signing without a device share signs and hands the session its share', async () => {
    const { device, address } = await loggedIn()
    const share = device.deviceShare
    device.deviceShare = undefined
    const { result } = await call(app, 'personal_sign', ['0x00', address], {
      device,
    })
    expect(
      await recoverMessageAddress({
        message: { raw: '0x00' },
        signature: result as Hex,
      }),
    ).toBe(address)
    expect(device.deviceShare).toBe(share)
  })

  test('error: signing with a foreign device share, or logged out, is -10011', async () => {
    const { device, address } = await loggedIn()
    const share = device.deviceShare
    device.deviceShare = Buffer.from('not this session').toString('base64')
    expect(
      (await call(app, 'personal_sign', ['0x00', address], { device })).error,
    ).toEqual({
      code: -10011,
      message:
        'The device share is missing or does not belong to this session.',
    })
    device.deviceShare = share
    expect((await call(app, 'personal_sign', ['0x00', address])).error).toEqual(
      { code: -10011, message: 'The user is not logged in.' },
    )
  })

  test('behavior: eth_signTypedData_v4 signs valid typed data; broken rules are -32602', async () => {
    const { device, address } = await loggedIn()
    const signature = (
      await call(
        app,
        'eth_signTypedData_v4',
        [address, JSON.stringify(typedData)],
        { device },
      )
    ).result as Hex
    expect(
      await verifyTypedData({
        address,
        signature,
        ...(typedData as unknown as Omit<
          Parameters<typeof verifyTypedData>[0],
          'address' | 'signature'
        >),
      }),
    ).toBe(true)
    const broken = (mutate: (data: Editable) => void) => {
      const data = structuredClone(typedData) as unknown as Editable
      mutate(data)
      return call(app, 'eth_signTypedData_v3', [address, data], { device })
    }
    expect(
      (
        await broken((data) => {
          data.types.Mail[1]!.type = 'uint7'
        })
      ).error,
    ).toEqual({
      code: -32602,
      message:
        'Invalid type uint7: the width must be a multiple of 8 from 8 to 256.',
    })
    expect(
      (
        await broken((data) => {
          data.types.Mail[1]!.type = 'bytes33'
        })
      ).error,
    ).toEqual({
      code: -32602,
      message: 'Invalid type bytes33: bytesN needs N from 1 to 32.',
    })
    expect(
      (
        await broken((data) => {
          data.types.Mail.push({ name: 'self', type: 'Mail' })
        })
      ).error,
    ).toEqual({ code: -32602, message: 'Type Mail is circular.' })
    expect(
      (
        await broken((data) => {
          data.types.Other = [{ name: 'x', type: 'bool' }]
        })
      ).error,
    ).toEqual({
      code: -32602,
      message:
        'The typed data must have exactly one primary type; it has 2 (Mail, Other).',
    })
    expect(
      (
        await broken((data) => {
          data.domain.chainId = -1
        })
      ).error,
    ).toEqual({ code: -32602, message: 'The domain chainId is negative.' })
    expect(
      (
        await broken((data) => {
          data.types.Mail[1]!.type = 'Unknown'
        })
      ).error,
    ).toEqual({ code: -32602, message: 'Unknown type Unknown.' })
    expect(
      (
        await broken((data) => {
          ;(data.types.Mail as unknown[]).push(null)
        })
      ).error,
    ).toEqual({
      code: -32602,
      message: 'Type Mail has a field that is not { name, type } strings.',
    })
    expect(
      (
        await broken((data) => {
          ;(data as unknown as { primaryType: string }).primaryType = 'toString'
        })
      ).error,
    ).toEqual({
      code: -32602,
      message: 'The primary type toString is not defined.',
    })
  })

  test('behavior: eth_sendTransaction fills, signs and submits; the receipt succeeds', async () => {
    const { device, address } = await loggedIn()
    const to = '0x000000000000000000000000000000000000dEaD'
    const before = await chain().getBalance({ address: to })
    const hash = (
      await call(
        app,
        'eth_sendTransaction',
        [{ from: address, to, value: '0xde0b6b3a7640000' }],
        { device },
      )
    ).result as Hex
    const receipt = await chain().waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(receipt.from.toLowerCase()).toBe(address.toLowerCase())
    expect(await chain().getBalance({ address: to })).toBe(
      before + parseEther('1'),
    )
  })

  test('behavior: eth_signTransaction returns a transaction signed by the user', async () => {
    const { device, address } = await loggedIn()
    const raw = (
      await call(app, 'eth_signTransaction', [{ to: address, value: '0x1' }], {
        device,
      })
    ).result as Hex
    expect(parseTransaction(raw)).toMatchObject({
      chainId: 31337,
      nonce: 0,
      value: 1n,
      type: 'eip1559',
    })
    expect(
      await recoverTransactionAddress({ serializedTransaction: raw as never }),
    ).toBe(address)
  })

  test("error: Anvil's admin methods are not proxied: -32601, and the chain is unchanged", async () => {
    const { address } = await loggedIn()
    const before = await chain().getBalance({ address })
    for (const method of ['anvil_setBalance', 'evm_mine', 'debug_traceCall'])
      expect((await call(app, method, [address, '0x1'])).error).toEqual({
        code: -32601,
        message: `The method ${method} does not exist / is not available.`,
      })
    expect(await chain().getBalance({ address })).toBe(before)
  })

  test('behavior: other methods are proxied to the chain; an rpcUrl of no emulator chain is refused', async () => {
    expect((await call(app, 'eth_chainId')).result).toBe('0x7a69')
    expect((await call(app, 'eth_blockNumber')).result).toMatch(/^0x[0-9a-f]+$/)
    expect(
      (
        await call(app, 'eth_blockNumber', [], {
          network: { rpcUrl: 'https://rpc.example/' },
        })
      ).error,
    ).toEqual({
      code: -32602,
      message: `The network rpcUrl must be one of the emulator's chains (${anvil.rpcUrl}).`,
    })
  })

  test('error: params nested too deep to send to the chain are -32602', async () => {
    const deep = rawJson(`${'['.repeat(20_000)}${']'.repeat(20_000)}`)
    expect((await call(app, 'eth_getBalance', [deep, 'latest'])).error).toEqual(
      {
        code: -32602,
        message:
          'eth_getBalance: the params cannot be sent as JSON (nested too deep?).',
      },
    )
  })
})
