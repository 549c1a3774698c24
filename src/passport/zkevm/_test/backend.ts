/**
 * Fakes of the provider's backends for the unit tests, each a real HTTP
 * server on loopback speaking the wire (`wire/api.ts`, `wire/relayer.ts`,
 * JSON-RPC 2.0 with batches): a chain node, the relayer and the platform
 * API with the guardian. They record every request, and the co-signer of
 * the fake relayer signs with a real key.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  type Address,
  decodeFunctionData,
  encodeFunctionResult,
  getAddress,
  type Hex,
  hashMessage,
  keccak256,
  numberToHex,
  type TypedDataDefinition,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import * as Api from '../../wire/api.js'
import * as Relayer from '../../wire/relayer.js'
import {
  encodeSignaturePart,
  eoaSignature,
  signatureTypes,
  subDigest,
  typedDataDigest,
  walletAbi,
} from '../../wire/sequence.js'

type Handler = (request: {
  method: string
  url: URL
  body: unknown
  headers: IncomingMessage['headers']
}) =>
  | Promise<{ status?: number; body: unknown }>
  | { status?: number; body: unknown }

/** Starts an HTTP server on loopback answering JSON. */
export async function serve(handler: Handler) {
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const text = Buffer.concat(chunks).toString('utf8')
    let body: unknown
    try {
      body = text ? JSON.parse(text) : undefined
    } catch {
      res.writeHead(400).end('bad json')
      return
    }
    try {
      const answer = await handler({
        method: req.method ?? 'GET',
        url: new URL(req.url ?? '/', 'http://localhost'),
        body,
        headers: req.headers,
      })
      res.writeHead(answer.status ?? 200, {
        'Content-Type': 'application/json',
      })
      res.end(JSON.stringify(answer.body))
    } catch (error) {
      res.writeHead(500).end(String(error))
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

type RpcRequest = {
  id: number
  jsonrpc: '2.0'
  method: string
  params?: unknown[]
}

/** A fake chain node: chain id, code, wallet nonces, receipts; batches. */
export async function startNode(options: { chainId: number }) {
  const code = new Map<string, Hex>()
  const nonces = new Map<string, bigint>()
  const receipts = new Map<string, unknown>()
  const reverting = new Set<string>()
  /** Methods answered with this JSON-RPC error. */
  const failing = new Map<string, { code: number; message: string }>()
  const requests: RpcRequest[] = []
  const batches: number[] = []
  /** Each batch's methods, in order. */
  const batchMethods: string[][] = []
  let chainId = options.chainId
  function respond(request: RpcRequest) {
    const params = request.params ?? []
    const failure = failing.get(request.method)
    if (failure) {
      requests.push(request)
      return { jsonrpc: '2.0', id: request.id, error: failure }
    }
    if (
      request.method === 'eth_call' &&
      reverting.has(String((params[0] as { to: string }).to).toLowerCase())
    ) {
      requests.push(request)
      return {
        jsonrpc: '2.0',
        id: request.id,
        error: { code: 3, message: 'execution reverted', data: '0x' },
      }
    }
    return { jsonrpc: '2.0', id: request.id, result: answer(request) }
  }
  function answer(request: RpcRequest): unknown {
    requests.push(request)
    const params = request.params ?? []
    switch (request.method) {
      case 'eth_chainId':
        return numberToHex(chainId)
      case 'eth_getCode':
        return code.get(String(params[0]).toLowerCase()) ?? '0x'
      case 'eth_call': {
        const { to, data } = params[0] as { to: Address; data: Hex }
        const { functionName, args } = decodeFunctionData({
          abi: walletAbi,
          data,
        })
        if (functionName !== 'readNonce') throw new Error('unexpected call')
        const key = `${to.toLowerCase()}:${args[0]}`
        return encodeFunctionResult({
          abi: walletAbi,
          functionName: 'readNonce',
          result: nonces.get(key) ?? 0n,
        })
      }
      case 'eth_getBalance':
        return numberToHex(1234n)
      case 'eth_blockNumber':
        return '0x10'
      case 'eth_getTransactionReceipt':
        return receipts.get(String(params[0])) ?? null
      default:
        return { echo: request.method, params }
    }
  }
  const server = await serve(({ body }) => {
    if (Array.isArray(body)) {
      batches.push(body.length)
      batchMethods.push(body.map((r: RpcRequest) => r.method))
      return { body: body.map((r: RpcRequest) => respond(r)) }
    }
    return { body: respond(body as RpcRequest) }
  })
  return {
    ...server,
    requests,
    batches,
    batchMethods,
    setCode: (address: Address, value: Hex) =>
      code.set(address.toLowerCase(), value),
    setNonce: (address: Address, space: bigint, value: bigint) =>
      nonces.set(`${address.toLowerCase()}:${space}`, value),
    setReceipt: (hash: Hex, receipt: unknown) => receipts.set(hash, receipt),
    /** Calls to `address` revert. */
    setReverting: (address: Address) => reverting.add(address.toLowerCase()),
    /** `method` answers this JSON-RPC error. */
    setError: (method: string, error: { code: number; message: string }) =>
      failing.set(method, error),
    setChainId: (id: number) => {
      chainId = id
    },
  }
}

/** What the fake relayer does with a transaction. */
export type RelayerScript = {
  /** Statuses answered to successive polls. @default ['PENDING', 'SUCCESSFUL'] */
  statuses?: Relayer.Status[]
  statusMessage?: string
  /** Status polls answer this JSON-RPC error message instead. */
  pollError?: string
}

/** The fake relayer; `coSigner` is a real key signing message parts. */
export async function startRelayer(options: {
  chainId: number
  accessToken: string
  fees?: Relayer.FeeOption[] | undefined
}) {
  const coSigner = privateKeyToAccount(generatePrivateKey())
  const requests: { method: string; params: unknown[] }[] = []
  const sent: {
    relayerId: string
    to: Address
    data: Hex
    nonce: bigint
    transactions: readonly {
      target: Address
      value: bigint
      data: Hex
      delegateCall: boolean
      revertOnError: boolean
      gasLimit: bigint
    }[]
    signature: Hex
    hash: Hex
  }[] = []
  const polls = new Map<string, number>()
  let script: RelayerScript = {}
  let httpFailure: number | undefined
  let fees: Relayer.FeeOption[] = options.fees ?? [
    {
      tokenPrice: '0',
      tokenSymbol: 'IMX',
      tokenDecimals: 18,
      tokenAddress: '0x0000000000000000000000000000000000001010',
      recipientAddress: '0x00000000000000000000000000000000000fee00',
    },
  ]
  /** The co-signer's part over `digest` (an EOA part, ETH_SIGN), bare hex. */
  async function coSign(wallet: Address, hash: Hex) {
    const digest = subDigest({ chainId: options.chainId, wallet, digest: hash })
    const signature = await coSigner.signMessage({ message: { raw: digest } })
    return encodeSignaturePart({
      type: 'eoa',
      weight: 1,
      signature: eoaSignature(signature, signatureTypes.ethSign),
    }).slice(2)
  }
  const server = await serve(async ({ url, body, headers }) => {
    if (url.pathname !== Relayer.path) return { status: 404, body: {} }
    if (httpFailure)
      return { status: httpFailure, body: { message: 'overloaded' } }
    if (headers.authorization !== `Bearer ${options.accessToken}`)
      return {
        status: 401,
        body: { code: 'UNAUTHORISED_REQUEST', message: 'no' },
      }
    const { id, method, params } = body as RpcRequest & { params: unknown[] }
    requests.push({ method, params })
    const reply = (result: unknown) => ({
      body: { jsonrpc: '2.0', id, result },
    })
    const p = params[0] as Record<string, unknown>
    switch (method) {
      case Relayer.methods.getFeeOptions:
        return reply(fees)
      case Relayer.methods.sendTransaction: {
        const { args } = decodeFunctionData({
          abi: walletAbi,
          data: p.data as Hex,
        })
        const [transactions, nonce, signature] = args as unknown as [
          (typeof sent)[number]['transactions'],
          bigint,
          Hex,
        ]
        const relayerId = `relayer-${sent.length + 1}`
        sent.push({
          relayerId,
          to: getAddress(p.to as string),
          data: p.data as Hex,
          nonce,
          transactions,
          signature,
          hash: keccak256(p.data as Hex),
        })
        return reply(relayerId)
      }
      case Relayer.methods.getTransactionByHash: {
        const entry = sent.find((s) => s.relayerId === params[0])
        if (!entry)
          return {
            body: {
              jsonrpc: '2.0',
              id,
              error: { code: -32000, message: "Transaction doesn't exists" },
            },
          }
        if (script.pollError)
          return {
            body: {
              jsonrpc: '2.0',
              id,
              error: { code: -32000, message: script.pollError },
            },
          }
        const statuses = script.statuses ?? ['PENDING', 'SUCCESSFUL']
        const n = polls.get(entry.relayerId) ?? 0
        polls.set(entry.relayerId, n + 1)
        const status = statuses[Math.min(n, statuses.length - 1)]!
        return reply({
          status,
          chainId: Relayer.caip2(options.chainId),
          relayerId: entry.relayerId,
          ...(status === 'PENDING' ||
          status === 'FAILED' ||
          status === 'CANCELLED'
            ? {}
            : { hash: entry.hash }),
          ...(script.statusMessage
            ? { statusMessage: script.statusMessage }
            : {}),
        })
      }
      case Relayer.methods.sign:
        return reply(
          await coSign(
            getAddress(p.address as string),
            hashMessage(p.message as string),
          ),
        )
      case Relayer.methods.signTypedData: {
        return reply(
          await coSign(
            getAddress(p.address as string),
            typedDataDigest(p.eip712Payload as TypedDataDefinition),
          ),
        )
      }
      default:
        return {
          body: {
            jsonrpc: '2.0',
            id,
            error: { code: -32601, message: 'Method not found' },
          },
        }
    }
  })
  return {
    ...server,
    coSigner,
    requests,
    sent,
    polls,
    setScript: (next: RelayerScript) => {
      script = next
    },
    /** Answers every call with this HTTP status (undefined: normal). */
    setHttpFailure: (status: number | undefined) => {
      httpFailure = status
    },
    setFees: (next: Relayer.FeeOption[]) => {
      fees = next
    },
  }
}

/** The guardian's verdicts the fake API gives. */
export type GuardianScript = {
  transaction?: { status?: number; body: unknown }
  message?: { status?: number; body: unknown }
  erc191?: { status?: number; body: unknown }
}

/** The fake platform API: chains, registration, guardian evaluations. */
export async function startApi(options: {
  chainId: number
  accessToken: string
  /** The wallet address registration answers. */
  counterfactualAddress: Address
}) {
  const requests: { path: string; body: unknown }[] = []
  let guardian: GuardianScript = {}
  let registration: { status?: number; body: unknown } | undefined
  const server = await serve(({ url, body, headers }) => {
    if (headers.authorization !== `Bearer ${options.accessToken}`)
      return {
        status: 401,
        body: { code: 'UNAUTHORISED_REQUEST', message: 'no' },
      }
    requests.push({ path: url.pathname, body })
    if (url.pathname === Api.paths.chains)
      return {
        body: {
          result: [
            { id: 'eip155:1', name: 'ethereum', rpc_url: 'http://x' },
            {
              id: Relayer.caip2(options.chainId),
              name: 'imtbl-zkevm-local',
              rpc_url: 'http://x',
            },
          ],
        } satisfies Api.ChainsResponse,
      }
    if (url.pathname === Api.counterfactualAddressPath('imtbl-zkevm-local'))
      return (
        registration ?? {
          body: {
            counterfactual_address: options.counterfactualAddress,
          } satisfies Api.CounterfactualAddressResponse,
        }
      )
    if (url.pathname === Api.paths.evaluateTransaction)
      return guardian.transaction ?? { body: { confirmationRequired: false } }
    if (url.pathname === Api.paths.evaluateMessage)
      return guardian.message ?? { body: { confirmationRequired: false } }
    if (url.pathname === Api.paths.evaluateErc191Message)
      return guardian.erc191 ?? { body: { confirmationRequired: false } }
    return {
      status: 404,
      body: { code: 'RESOURCE_NOT_FOUND', message: 'nope' },
    }
  })
  return {
    ...server,
    requests,
    setGuardian: (next: GuardianScript) => {
      guardian = next
    },
    setRegistration: (next: { status?: number; body: unknown } | undefined) => {
      registration = next
    },
  }
}
