import type { Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { fileBackends } from '../../../test/unit/setup/zkevm.js'
import * as RpcErrors from '../../core/RpcErrors.js'
import { RpcResponseError } from '../../core/Transport.js'
import {
  createRpcClient,
  defaults,
  nodeError,
  type RpcClient,
  waitForTransaction,
  waitForTransactionReceipt,
} from './chain.js'

/** The chain node (Anvil behind the emulator's gateway), for the reads. */
const b = fileBackends()

afterEach(() => {
  vi.useRealTimers()
})

const hash = `0x${'ab'.repeat(32)}` as Hex

describe('chain defaults', () => {
  test('default: the published chain-node values', () => {
    expect(defaults).toEqual({
      batchStallTime: 10,
      batchMaxCount: 100,
      batchMaxSize: 1_048_576,
      cacheTimeout: 250,
      pollingInterval: 4000,
      sentTransactionRetries: [1000, 100],
    })
  })
})

describe('RpcClient.read', () => {
  test('behavior: identical reads within 250 ms share one answer; another read, or the same one later, asks again', async () => {
    const { node, fund } = b()
    const one = privateKeyToAccount(generatePrivateKey()).address
    const two = privateKeyToAccount(generatePrivateKey()).address
    await fund(one, 1n)
    await fund(two, 2n)
    // The batching and cache timers run on a fake clock; the node's
    // answers come over real HTTP meanwhile.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const rpc = createRpcClient(node.url)
    const sent = () => node.calls().map((call) => call.params)
    const balance = { method: 'eth_getBalance', params: [one, 'latest'] }
    const first = rpc.read(balance)
    const second = rpc.read({ ...balance, params: [one, 'latest'] })
    await vi.advanceTimersByTimeAsync(10)
    expect(await first).toBe('0x1')
    expect(await second).toBe('0x1')
    await vi.advanceTimersByTimeAsync(229)
    expect(await rpc.read(balance)).toBe('0x1')
    const other = rpc.read({
      method: 'eth_getBalance',
      params: [two, 'latest'],
    })
    await vi.advanceTimersByTimeAsync(10)
    expect(await other).toBe('0x2')
    expect(sent()).toEqual([
      [one, 'latest'],
      [two, 'latest'],
    ])
    // 250 ms after the first read: asked again.
    await vi.advanceTimersByTimeAsync(1)
    const later = rpc.read(balance)
    await vi.advanceTimersByTimeAsync(10)
    expect(await later).toBe('0x1')
    expect(sent()).toHaveLength(3)
    // `request` never shares.
    const direct = [rpc.request(balance), rpc.request(balance)]
    await vi.advanceTimersByTimeAsync(10)
    await Promise.all(direct)
    expect(sent()).toHaveLength(5)
    expect(node.calls().map((call) => call.method)).toEqual(
      Array(5).fill('eth_getBalance'),
    )
  })
})

describe('nodeError', () => {
  const node = (code: number, message: string, data?: unknown) =>
    new RpcResponseError({ code, message, data })

  test.each([
    [
      'eth_estimateGas',
      node(-32000, 'insufficient funds for gas * price + value'),
      'INSUFFICIENT_FUNDS',
      -32000,
      'insufficient funds',
    ],
    [
      'eth_estimateGas',
      node(-32000, 'nonce too low: next nonce 5, tx nonce 4'),
      'NONCE_EXPIRED',
      -32000,
      'nonce has already been used',
    ],
    [
      'eth_sendRawTransaction',
      node(-32000, 'insufficient funds for intrinsic transaction cost'),
      'INSUFFICIENT_FUNDS',
      -32000,
      'insufficient funds for intrinsic transaction cost',
    ],
    [
      'eth_sendRawTransaction',
      node(-32003, 'nonce too low'),
      'NONCE_EXPIRED',
      -32003,
      'nonce has already been used',
    ],
    [
      'eth_sendRawTransaction',
      node(-32000, 'replacement transaction underpriced'),
      'REPLACEMENT_UNDERPRICED',
      -32000,
      'replacement fee too low',
    ],
    [
      'eth_sendRawTransaction',
      node(-32000, 'only replay-protected (EIP-155) transactions allowed'),
      'UNSUPPORTED_OPERATION',
      -32000,
      'legacy pre-eip-155 transactions not supported',
    ],
    [
      'eth_getBlockByNumber',
      node(4001, 'User denied the request'),
      'ACTION_REJECTED',
      4001,
      'user rejected action',
    ],
    [
      'eth_getProof',
      node(-32601, 'the method eth_getProof does not exist/is not available'),
      'UNSUPPORTED_OPERATION',
      -32601,
      'unsupported operation',
    ],
    [
      'eth_getBlockByNumber',
      node(-32602, 'invalid argument 0: hex string without 0x prefix'),
      'UNKNOWN_ERROR',
      -32602,
      'invalid argument 0: hex string without 0x prefix',
    ],
  ] as const)('%s: "%s" is %s', (method, cause, kind, code, message) => {
    const error = nodeError(method, cause)
    expect(error).toBeInstanceOf(RpcErrors.RpcError)
    expect(error.constructor).toBe(RpcErrors.fromCode(code).constructor)
    expect(error).toMatchObject({ kind, code, message, cause })
    // The node's own code and text stay underneath.
    expect(error.cause).toMatchObject({
      code: cause.code,
      shortMessage: cause.shortMessage,
    })
  })

  test('behavior: a reverting eth_call or eth_estimateGas keeps the node code, text and revert data (viem decodes them)', () => {
    for (const method of ['eth_call', 'eth_estimateGas']) {
      const cause = node(3, 'execution reverted', '0x08c379a0')
      const error = nodeError(method, cause)
      expect(error).toMatchObject({
        code: 3,
        message: 'execution reverted',
        data: '0x08c379a0',
        cause,
      })
      expect('kind' in error).toBe(false)
    }
  })
})

describe('waiting for a sent transaction', () => {
  /** A chain client answering `eth_getTransactionByHash` / receipts from a script. */
  function scripted(answers: unknown[]) {
    const calls: string[] = []
    const rpc = {
      async request({ method }: { method: string }) {
        calls.push(method)
        const answer = answers.shift()
        if (answer instanceof Error) throw answer
        return answer ?? null
      },
    } as unknown as RpcClient
    const waits: number[] = []
    const sleep = async (ms: number) => {
      waits.push(ms)
    }
    return { rpc, calls, waits, sleep }
  }

  test('behavior: the transaction is fetched at once, then after 1000, 100, then every 4000 ms', async () => {
    const failure = nodeError(
      'eth_getTransactionByHash',
      new RpcResponseError({ code: -32000, message: 'busy' }),
    )
    const { rpc, calls, waits, sleep } = scripted([
      null,
      failure,
      null,
      null,
      { hash },
    ])
    expect(await waitForTransaction(rpc, hash, { sleep })).toEqual({ hash })
    expect(calls).toHaveLength(5)
    expect(waits).toEqual([1000, 100, 4000, 4000])
  })

  test('error: a node that does not offer the method, or is out of reach, ends the wait', async () => {
    const unsupported = nodeError(
      'eth_getTransactionByHash',
      new RpcResponseError({
        code: -32601,
        message: 'the method eth_getTransactionByHash does not exist',
      }),
    )
    const offline = new TypeError('fetch failed')
    for (const failure of [unsupported, offline]) {
      const { rpc, sleep } = scripted([failure])
      await expect(waitForTransaction(rpc, hash, { sleep })).rejects.toBe(
        failure,
      )
    }
  })

  test('behavior: the receipt is polled every 4000 ms until mined', async () => {
    const receipt = { status: '0x1', transactionHash: hash }
    const { rpc, waits, sleep } = scripted([null, null, receipt])
    expect(await waitForTransactionReceipt(rpc, hash, { sleep })).toBe(receipt)
    expect(waits).toEqual([4000, 4000])
  })
})
