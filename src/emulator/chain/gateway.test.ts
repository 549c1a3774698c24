import { createServer, request } from 'node:http'
import {
  type Address,
  createPublicClient,
  http,
  parseEther,
  parseGwei,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { findFreePort } from '../net.js'
import { startServer } from '../server.js'
import { anvilAccounts } from './accounts.js'
import {
  createGateway,
  isPublicMethod,
  maxBatch,
  type RunningChain,
  rpcGasCap,
  startChain,
} from './gateway.js'

const foreign = 'https://evil.example'
const loopback = 'http://localhost:5173'
/** A fresh address whose balance the admin methods would change. */
const target: Address = '0x00000000000000000000000000000000000ca11e'

let chain: RunningChain
beforeAll(async () => {
  chain = await startChain({ chainId: 31337, port: await findFreePort() })
})
afterAll(() => chain?.stop())

/**
 * POSTs a JSON-RPC body to the gateway as a page on `origin` would, giving
 * up after 10 s (a request the gateway let through uncapped would run for
 * hours).
 */
async function rpc(body: unknown, origin?: string) {
  const response = await fetch(chain.rpcUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(origin === undefined ? {} : { origin }),
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  })
  return {
    status: response.status,
    cors: response.headers.get('access-control-allow-origin'),
    body: (await response.json()) as unknown,
  }
}

const call = (method: string, params: unknown[] = [], id: unknown = 1) => ({
  jsonrpc: '2.0',
  id,
  method,
  params,
})

const balanceOf = async (address: Address) =>
  createPublicClient({ transport: http(chain.nodeUrl) }).getBalance({ address })

const [from] = anvilAccounts
const admin = [
  call('anvil_setBalance', [target, '0xde0b6b3a7640000']),
  call('hardhat_setBalance', [target, '0xde0b6b3a7640000']),
  call('evm_mine'),
  call('eth_sendTransaction', [
    { from: from?.address, to: target, value: '0x1' },
  ]),
  call('eth_sendTransactionSync', [
    { from: from?.address, to: target, value: '0x1' },
  ]),
  // Anvil sends this from any address, without a signature.
  call('eth_sendUnsignedTransaction', [
    { from: from?.address, to: target, value: '0x1' },
  ]),
  call('eth_sign', [from?.address, '0x00']),
  call('debug_traceTransaction', [`0x${'0'.repeat(64)}`]),
  call('anvil_impersonateAccount', [from?.address]),
]

describe('the chain gateway', () => {
  test('behavior: a page on any origin may read the chain, with CORS for its origin', async () => {
    const chainId = await rpc(call('eth_chainId'), foreign)
    expect(chainId).toEqual({
      status: 200,
      cors: foreign,
      body: { jsonrpc: '2.0', id: 1, result: '0x7a69' },
    })
    const blockNumber = await rpc(call('eth_blockNumber', [], 'n'), foreign)
    expect(blockNumber.body).toEqual({
      jsonrpc: '2.0',
      id: 'n',
      result: expect.stringMatching(/^0x[0-9a-f]+$/),
    })
    // The test ERC-20's decimals(), deployed with the chain.
    const decimals = await rpc(
      call('eth_call', [
        { to: chain.contracts.erc20, data: '0x313ce567' },
        'latest',
      ]),
      foreign,
    )
    expect(decimals.body).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: `0x${'12'.padStart(64, '0')}`,
    })
  })

  test('behavior: a page on any origin may send a transaction it signed', async () => {
    const sender = anvilAccounts[1]
    if (!sender) throw new Error('no account 1')
    const client = createPublicClient({ transport: http(chain.nodeUrl) })
    const before = await balanceOf(target)
    const raw = await sender.signTransaction({
      chainId: 31337,
      type: 'eip1559',
      to: target,
      value: 1n,
      nonce: await client.getTransactionCount({ address: sender.address }),
      gas: 21_000n,
      maxFeePerGas: parseGwei('10'),
      maxPriorityFeePerGas: parseGwei('1'),
    })
    const sent = await rpc(call('eth_sendRawTransaction', [raw]), foreign)
    expect(sent).toEqual({
      status: 200,
      cors: foreign,
      body: {
        jsonrpc: '2.0',
        id: 1,
        result: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      },
    })
    await client.waitForTransactionReceipt({
      hash: (sent.body as { result: `0x${string}` }).result,
    })
    expect(await balanceOf(target)).toBe(before + 1n)
  })

  test('error: a page on another origin cannot call admin or node-signing methods: 403, code 4100, nothing changes', async () => {
    const before = await balanceOf(target)
    const blockBefore = await rpc(call('eth_blockNumber'))
    for (const request of admin) {
      for (const origin of [foreign, 'null']) {
        const refused = await rpc(request, origin)
        expect(refused).toEqual({
          status: 403,
          cors: origin,
          body: {
            jsonrpc: '2.0',
            id: 1,
            error: {
              code: 4100,
              message: `${request.method} is answered for pages on a loopback origin only.`,
            },
          },
        })
      }
    }
    expect(await balanceOf(target)).toBe(before)
    expect((await rpc(call('eth_blockNumber'))).body).toEqual(blockBefore.body)
  })

  test('error: a cross-site request without Origin is not trusted either', async () => {
    const response = await new Promise<{ status: number; body: string }>(
      (resolve, reject) => {
        const body = JSON.stringify(call('evm_mine'))
        const req = request(
          chain.rpcUrl,
          {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
              'sec-fetch-site': 'cross-site',
            },
          },
          (res) => {
            let text = ''
            res.on('data', (chunk) => {
              text += chunk
            })
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, body: text }),
            )
          },
        )
        req.on('error', reject)
        req.end(body)
      },
    )
    expect(response.status).toBe(403)
    expect(JSON.parse(response.body).error.code).toBe(4100)
  })

  test('behavior: a loopback page or a program (no Origin) may call admin methods', async () => {
    const amount = parseEther('3')
    for (const origin of [loopback, 'http://127.0.0.1:63315', undefined]) {
      const set = await rpc(
        call('anvil_setBalance', [target, `0x${amount.toString(16)}`]),
        origin,
      )
      expect(set).toEqual({
        status: 200,
        cors: origin ?? null,
        body: { jsonrpc: '2.0', id: 1, result: null },
      })
      expect(await balanceOf(target)).toBe(amount)
      const mined = await rpc(call('evm_mine'), origin)
      expect(mined.body).toEqual({ jsonrpc: '2.0', id: 1, result: '0x0' })
    }
    const sent = await rpc(
      call('eth_sendTransaction', [
        { from: from?.address, to: target, value: '0x1' },
      ]),
      loopback,
    )
    expect(sent.status).toBe(200)
    expect(sent.body).toMatchObject({
      result: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    })
    const { result: hash } = sent.body as { result: string }
    const trace = await rpc(call('debug_traceTransaction', [hash]), loopback)
    expect(trace.status).toBe(200)
    expect(trace.body).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: { failed: false, gas: 21_000 },
    })
  })

  test('error: a batch with any refused entry is refused whole, each entry named', async () => {
    const before = await balanceOf(target)
    const batch = [
      call('eth_chainId', [], 1),
      call('anvil_setBalance', [target, '0x1'], 'two'),
      { jsonrpc: '2.0', id: [[3]], method: 'evm_mine' },
      null,
      call('eth_blockNumber', [], 5),
    ]
    const refused = await rpc(batch, foreign)
    expect(refused.status).toBe(403)
    expect(refused.body).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32603, message: 'Not run: the batch was refused.' },
      },
      {
        jsonrpc: '2.0',
        id: 'two',
        error: {
          code: 4100,
          message:
            'anvil_setBalance is answered for pages on a loopback origin only.',
        },
      },
      {
        jsonrpc: '2.0',
        id: null,
        error: {
          code: 4100,
          message: 'evm_mine is answered for pages on a loopback origin only.',
        },
      },
      {
        jsonrpc: '2.0',
        id: null,
        error: {
          code: 4100,
          message:
            'This method is answered for pages on a loopback origin only.',
        },
      },
      {
        jsonrpc: '2.0',
        id: 5,
        error: { code: -32603, message: 'Not run: the batch was refused.' },
      },
    ])
    expect(await balanceOf(target)).toBe(before)
    const allowed = await rpc(
      [call('eth_chainId', [], 1), call('net_version', [], 2)],
      foreign,
    )
    expect(allowed.body).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x7a69' },
      { jsonrpc: '2.0', id: 2, result: '31337' },
    ])
  })

  test('error: malformed JSON answers 400 -32700; an empty or oversized batch 400 -32600', async () => {
    for (const body of ['{"jsonrpc":', '', 'not json', '[1,]'])
      expect(await rpc(body, foreign)).toEqual({
        status: 400,
        cors: foreign,
        body: {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32700, message: 'Parse error.' },
        },
      })
    expect((await rpc([], foreign)).body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Empty batch.' },
    })
    const big = await rpc(
      Array.from({ length: maxBatch + 1 }, (_, id) =>
        call('eth_chainId', [], id),
      ),
    )
    expect(big).toEqual({
      status: 400,
      cors: null,
      body: {
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32600,
          message: 'A batch holds at most 1000 requests.',
        },
      },
    })
  })

  test('error: a method other than POST answers 405; a preflight from any origin 204', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const response = await fetch(chain.rpcUrl, { method })
      expect(response.status).toBe(405)
      expect(await response.json()).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Send JSON-RPC with POST.' },
      })
    }
    const preflight = await fetch(chain.rpcUrl, {
      method: 'OPTIONS',
      headers: {
        origin: foreign,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe(foreign)
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST')
  })

  test('behavior: the node itself answers no CORS, so no page reaches it around the gateway', async () => {
    const preflight = await fetch(chain.nodeUrl, {
      method: 'OPTIONS',
      headers: {
        origin: foreign,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    })
    expect(preflight.headers.get('access-control-allow-origin')).toBe(null)
    const direct = await fetch(chain.nodeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: foreign },
      body: JSON.stringify(call('eth_chainId')),
    })
    expect(direct.headers.get('access-control-allow-origin')).toBe(null)
  })
})

describe('the gas cap, the time bound and the abort', () => {
  /** Init code that loops until its gas runs out: JUMPDEST PUSH1 0 JUMP. */
  const loop = '0x5b600056'
  /** An address given the loop as code by a state override. */
  const looper: Address = '0x0000000000000000000000000000000000001000'
  const huge = `0x${(2n ** 48n).toString(16)}`
  const capHex = `0x${rpcGasCap.toString(16)}`
  /** The allowance a node's out-of-gas estimate names, e.g. 50000000. */
  const allowanceOf = (answer: unknown) =>
    /allowance: (\d+)/.exec(
      (answer as { error?: { message?: string } }).error?.message ?? '',
    )?.[1]

  test("default: the cap is geth's default RPC gas cap, 50,000,000", () => {
    expect(rpcGasCap).toBe(50_000_000n)
  })

  test('error: a batch of ten calls at gas 2^48 from another origin is refused at once, and nothing runs', async () => {
    const started = Date.now()
    const batch = Array.from({ length: 10 }, (_, id) =>
      call('eth_call', [{ data: loop, gas: huge }, 'latest'], id),
    )
    const answer = await rpc([...batch, call('eth_chainId', [], 'c')], foreign)
    expect(Date.now() - started).toBeLessThan(2_000)
    const message = `Pages on other origins may use at most 50000000 gas per request, over all its calls (as geth's RPC gas cap); this one asks 500000000.`
    expect(answer).toEqual({
      status: 400,
      cors: foreign,
      body: [
        ...batch.map((_, id) => ({
          jsonrpc: '2.0',
          id,
          error: { code: -32005, message },
        })),
        {
          jsonrpc: '2.0',
          id: 'c',
          error: { code: -32603, message: 'Not run: the batch was refused.' },
        },
      ],
    })
  })

  test('behavior: one call from another origin runs capped: at gas 2^48 or with none, eth_estimateGas, eth_call, eth_createAccessList and eth_simulateV1 stop at the cap', async () => {
    for (const gas of [huge, undefined, 2 ** 48, String(2n ** 64n)]) {
      const estimate = await rpc(
        call('eth_estimateGas', [
          { data: loop, ...(gas === undefined ? {} : { gas }) },
        ]),
        foreign,
      )
      expect({ gas, allowance: allowanceOf(estimate.body) }).toEqual({
        gas,
        allowance: '50000000',
      })
    }
    // Block overrides cannot raise the estimate's bound either.
    const overridden = await rpc(
      call('eth_estimateGas', [
        { data: loop },
        'latest',
        {},
        { gasLimit: huge },
      ]),
      foreign,
    )
    expect(allowanceOf(overridden.body)).toBe('50000000')
    const called = await rpc(
      call('eth_call', [{ data: loop, gas: huge }, 'latest']),
      foreign,
    )
    expect(called.body).toMatchObject({
      error: { message: 'EVM error OutOfGas' },
    })
    const accessList = await rpc(
      call('eth_createAccessList', [{ data: loop, gas: huge }, 'latest']),
      foreign,
    )
    expect(accessList.status).toBe(200)
    const simulated = await rpc(
      call('eth_simulateV1', [
        {
          blockStateCalls: [
            {
              blockOverrides: { gasLimit: huge },
              stateOverrides: { [looper]: { code: loop } },
              calls: [{ to: looper, gas: huge }],
            },
          ],
        },
        'latest',
      ]),
      foreign,
    )
    const [block] = (
      simulated.body as { result: { calls: { gasUsed: string }[] }[] }
    ).result
    expect(block?.calls[0]?.gasUsed).toBe(capHex)
  })

  test('behavior: the calls of one request share the cap; a call without gas gets an equal share of what is left', async () => {
    const shared = await rpc(
      [
        call('eth_estimateGas', [{ data: loop, gas: '0x989680' }], 1),
        call('eth_estimateGas', [{ data: loop }], 2),
        call('eth_estimateGas', [{ data: loop }], 3),
      ],
      foreign,
    )
    expect((shared.body as unknown[]).map(allowanceOf)).toEqual([
      '10000000',
      '20000000',
      '20000000',
    ])
  })

  test('error: gas the gateway cannot read is refused, not forwarded', async () => {
    for (const gas of ['lots', -1, 1.5, { hex: '0x1' }]) {
      const answer = await rpc(
        call('eth_call', [{ data: loop, gas }, 'latest']),
        foreign,
      )
      expect(answer.body).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32602, message: 'gas must be a quantity.' },
      })
    }
    const named = await rpc(
      { jsonrpc: '2.0', id: 1, method: 'eth_call', params: { data: loop } },
      foreign,
    )
    expect(named.body).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: -32602,
        message:
          'eth_call takes its call as the first of its params, an array.',
      },
    })
  })

  test('behavior: a loopback page and a program keep their full gas', async () => {
    const body = call('eth_estimateGas', [{ data: loop, gas: '0x5f5e100' }])
    for (const origin of [loopback, undefined])
      expect(allowanceOf((await rpc(body, origin)).body)).toBe('100000000')
  })

  /** A node that takes requests and never answers, noting each one's end. */
  async function silentNode() {
    const received: { closed: Promise<void> }[] = []
    let arrived: () => void = () => undefined
    const next = () =>
      new Promise<void>((resolve) => {
        arrived = resolve
      })
    let waiting = next()
    const server = createServer((req) => {
      received.push({
        closed: new Promise((resolve) => req.socket.once('close', resolve)),
      })
      arrived()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as { port: number }
    return {
      url: `http://127.0.0.1:${port}`,
      received,
      async arrival() {
        await waiting
        waiting = next()
      },
      stop: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections()
          server.close(() => resolve())
        }),
    }
  }

  test('error: a node that does not answer within the bound is cut: 504, -32005, and the upstream call is aborted', async () => {
    const node = await silentNode()
    const gateway = await startServer({
      handler: createGateway({
        nodeUrl: node.url,
        timeoutMs: 150,
        localTimeoutMs: 300,
      }),
      port: await findFreePort(),
    })
    try {
      for (const [origin, bound] of [
        [foreign, 150],
        [undefined, 300],
      ] as const) {
        const started = Date.now()
        const response = await fetch(gateway.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(origin === undefined ? {} : { origin }),
          },
          body: JSON.stringify([call('eth_blockNumber', [], 7)]),
        })
        expect(Date.now() - started).toBeGreaterThanOrEqual(bound - 5)
        expect(Date.now() - started).toBeLessThan(bound + 2_000)
        expect(response.status).toBe(504)
        expect(await response.json()).toEqual([
          {
            jsonrpc: '2.0',
            id: 7,
            error: {
              code: -32005,
              message: `The node did not answer within ${bound} ms.`,
            },
          },
        ])
        await node.received.at(-1)?.closed
      }
    } finally {
      await gateway.stop()
      await node.stop()
    }
  })

  test('behavior: a client that goes away aborts the upstream call', async () => {
    const node = await silentNode()
    const gateway = await startServer({
      handler: createGateway({ nodeUrl: node.url }),
      port: await findFreePort(),
    })
    try {
      const client = request(gateway.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: foreign },
      })
      client.on('error', () => undefined)
      client.end(JSON.stringify(call('eth_blockNumber')))
      await node.arrival()
      const started = Date.now()
      client.destroy()
      await node.received[0]?.closed
      // Long before the 5 s bound.
      expect(Date.now() - started).toBeLessThan(2_000)
    } finally {
      await gateway.stop()
      await node.stop()
    }
  })
})

describe('isPublicMethod', () => {
  test('behavior: the standard reads and signed sends are public', () => {
    for (const method of [
      'eth_chainId',
      'eth_call',
      'eth_getLogs',
      'eth_sendRawTransaction',
      'net_version',
      'web3_clientVersion',
    ])
      expect(isPublicMethod(method)).toBe(true)
  })

  test('behavior: admin, debug, node-signing and unknown methods are not', () => {
    for (const method of [
      ...admin.map((request) => request.method),
      'eth_signTransaction',
      'eth_signTypedData_v4',
      'eth_fillTransaction',
      'txpool_content',
      'personal_sign',
      'eth_chainid',
      '__proto__',
      'toString',
      '',
      42,
      null,
    ])
      expect(isPublicMethod(method)).toBe(false)
  })
})
