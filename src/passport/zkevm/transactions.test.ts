import type { Address, Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import type { RpcClient } from './chain.js'
import type { Context } from './context.js'
import { readNonce } from './transactions.js'

const wallet = '0x00000000000000000000000000000000000000Aa' as Address

/** A chain client that logs each call and each flush, in order. */
function logged(answers: Record<string, Hex>) {
  const log: string[] = []
  const rpc = {
    request: async ({ method }: { method: string }) => {
      log.push(method)
      return answers[method]
    },
    flush: () => log.push('flush'),
  } as unknown as RpcClient
  return { log, context: { rpc } as unknown as Context }
}

describe('readNonce', () => {
  test("behavior: the wallet's code and nonce are asked for, then sent at once (no batch window)", async () => {
    const { log, context } = logged({
      eth_getCode: '0x6000',
      eth_call: `0x${'0'.repeat(63)}9`,
    })
    expect(await readNonce(context, wallet, 0n)).toBe(9n)
    expect(log).toEqual(['eth_getCode', 'eth_call', 'flush'])
  })

  test('behavior: a wallet without code reads 0 whatever the call answers', async () => {
    const { context } = logged({
      eth_getCode: '0x',
      eth_call: `0x${'0'.repeat(63)}9`,
    })
    expect(await readNonce(context, wallet, 0n)).toBe(0n)
  })
})
