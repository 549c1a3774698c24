/**
 * The zkEVM provider against its real backends (Anvil with the wallet
 * contracts behind the chain gateway, the platform API with the guardian,
 * the relayer), started once for the file; each test signs a new player
 * in. What the services never answer by themselves (a node error, a poll
 * error, fee options of several tokens, a status without a message) is
 * scripted at their taps.
 */
import {
  type Address,
  encodeFunctionData,
  encodeFunctionResult,
  type Hex,
  hashMessage,
  hashTypedData,
  parseEther,
  recoverMessageAddress,
  slice,
  stringToHex,
  toHex,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterEach, describe, expect, test, vi } from 'vitest'
import {
  fileBackends,
  type Harness,
  setup,
} from '../../../test/unit/setup/zkevm.js'
import * as RpcErrors from '../../core/RpcErrors.js'
import { TestERC20 } from '../../emulator/chain/artifacts.generated.js'
import { revertingCode } from '../../emulator/passport/testkit.js'
import {
  type Exchange,
  jsonOf,
  type Reply,
  rpcError,
  rpcResult,
} from '../../emulator/testkit.js'
import { counterfactualAddressPath, paths } from '../wire/api.js'
import {
  caip2,
  type FeeOption,
  type RelayerTransaction,
} from '../wire/relayer.js'
import {
  decodeExecute,
  decodeSignature,
  subDigest,
  transactionsDigest,
  walletAbi,
} from '../wire/sequence.js'
import { JsonRpcError, RpcErrorCode } from './errors.js'

const b = fileBackends()

/**
 * A wallet signature's threshold and the signers of its parts, in order;
 * an EOA part (ETH_SIGN) is recovered over `digest`.
 */
async function signersOf(signature: Hex, digest: Hex) {
  const { threshold, parts } = decodeSignature(signature)
  const signers = await Promise.all(
    parts.map((part) =>
      part.type === 'eoa'
        ? recoverMessageAddress({
            message: { raw: digest },
            signature: slice(part.signature, 0, 65),
          })
        : part.address,
    ),
  )
  return { threshold, signers }
}

let current: Harness | undefined
async function start(options: Parameters<typeof setup>[1] = {}) {
  current = await setup(b(), options)
  return current
}
afterEach(() => {
  current?.close()
  current = undefined
})

/** An account with nothing on chain: calls to it succeed and do nothing. */
const target = '0x00000000000000000000000000000000000000AA' as Address
const chainId = 13473

/** Deploys the player's wallet and sets its nonce of space 0. */
async function deployed(harness: Harness, nonce: bigint) {
  await b().deploy(harness.player)
  await b().setNonce(harness.wallet, 0n, nonce)
}

/** The JSON-RPC calls of one request. */
function callsIn(exchange: Exchange): { method: string; id: unknown }[] {
  const body = jsonOf(exchange.body)
  return (Array.isArray(body) ? body : [body]) as {
    method: string
    id: unknown
  }[]
}

/**
 * A relayer status answer for the polled transaction (the relayer's own
 * answer at another time, or one it never gives).
 */
function status(
  value: RelayerTransaction['status'],
  extra: Partial<RelayerTransaction> = {},
): Reply {
  return (exchange) => {
    const { params } = jsonOf(exchange.body) as { params: [string] }
    return rpcResult({
      status: value,
      chainId: caip2(chainId),
      relayerId: params[0],
      ...extra,
    })
  }
}

/** Changes a relayer status answer to another status, keeping its hash. */
const restatus =
  (from: string, to: string) =>
  (answer: unknown): unknown => {
    const body = answer as { result?: RelayerTransaction }
    return body.result?.status === from
      ? { ...body, result: { ...body.result, status: to } }
      : body
  }

const feeOption = (option: Partial<FeeOption>): FeeOption => ({
  tokenPrice: '0',
  tokenSymbol: 'IMX',
  tokenDecimals: 18,
  tokenAddress: '0x0000000000000000000000000000000000000000',
  recipientAddress: '0x00000000000000000000000000000000000fee00',
  ...option,
})

describe('router', () => {
  test('error: unknown methods are 4200 Method not supported', async () => {
    const { provider } = await start()
    for (const method of [
      'eth_sign',
      'eth_signTransaction',
      'wallet_switchEthereumChain',
      'wallet_addEthereumChain',
      'toString',
    ])
      await expect(provider.request({ method } as never)).rejects.toMatchObject(
        { code: 4200, message: 'Method not supported' },
      )
  })

  test('error: wallet_sendTransaction is -32004 Method not supported, so viem keeps the eth_sendTransaction error it retried', async () => {
    const { provider } = await start()
    await expect(
      provider.request({
        method: 'wallet_sendTransaction',
        params: [{ to: target }],
      } as never),
    ).rejects.toMatchObject({
      name: 'RpcErrors.MethodNotSupportedError',
      code: -32004,
      message: 'Method not supported',
    })
  })

  test('error: account methods are 4100 until registered, and open no popup', async () => {
    const { provider, popup } = await start({ registered: false })
    for (const method of [
      'eth_sendTransaction',
      'personal_sign',
      'eth_signTypedData',
      'eth_signTypedData_v4',
      'im_signEjectionTransaction',
      'wallet_sendCalls',
    ])
      await expect(
        provider.request({ method, params: [] } as never),
      ).rejects.toMatchObject({
        code: 4100,
        message: 'Unauthorised - call eth_requestAccounts first',
      })
    expect(popup).toEqual([])
  })

  test('default: eth_chainId is the node’s, in hex', async () => {
    const { provider } = await start()
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x34a1')
  })

  test('behavior: read-only methods pass through with block tag latest, batched', async () => {
    const { provider, wallet } = await start({ signedIn: false })
    await b().fund(wallet, 1234n)
    const [balance, block] = await Promise.all([
      provider.request({ method: 'eth_getBalance', params: [wallet] } as never),
      provider.request({ method: 'eth_blockNumber' }),
    ])
    expect(balance).toBe('0x4d2')
    const calls = b().node.calls()
    const answered = calls.find((call) => call.method === 'eth_blockNumber')
    const answers = jsonOf(answered?.exchange.response) as
      | { id: unknown; result: string }[]
      | { id: unknown; result: string }
    expect(
      (Array.isArray(answers) ? answers : [answers]).find(
        (answer) => answer.id === answered?.id,
      )?.result,
    ).toBe(block)
    expect(
      calls.find((call) => call.method === 'eth_getBalance')?.params,
    ).toEqual([wallet, 'latest'])
    expect(calls.some((call) => call.batch >= 2)).toBe(true)
    await provider.request({
      method: 'eth_getStorageAt',
      params: [wallet, '0x0', '0x5'],
    } as never)
    expect(
      b()
        .node.calls()
        .find((call) => call.method === 'eth_getStorageAt')?.params,
    ).toEqual([wallet, '0x0', '0x5'])
  })

  test('behavior: identical reads made together share one node request', async () => {
    const { provider, wallet } = await start({ signedIn: false })
    await b().fund(wallet, 1234n)
    const read = () =>
      provider.request({
        method: 'eth_getBalance',
        params: [wallet, 'latest'],
      } as never)
    expect(await Promise.all([read(), read(), read()])).toEqual([
      '0x4d2',
      '0x4d2',
      '0x4d2',
    ])
    expect(
      b()
        .node.calls()
        .filter((call) => call.method === 'eth_getBalance'),
    ).toHaveLength(1)
  })

  test('error: a node error is mapped to its kind, the node code and message kept as the cause', async () => {
    const { provider } = await start({ signedIn: false })
    b().node.answer(
      { rpc: 'eth_getBlockByNumber' },
      rpcError({
        code: -32601,
        message:
          'the method eth_getBlockByNumber does not exist/is not available',
      }),
    )
    const error = await provider
      .request({ method: 'eth_getBlockByNumber', params: ['0x1', false] })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RpcErrors.MethodNotFoundError)
    expect(error).toMatchObject({
      code: -32601,
      message: 'unsupported operation',
      kind: 'UNSUPPORTED_OPERATION',
      cause: {
        code: -32601,
        shortMessage:
          'the method eth_getBlockByNumber does not exist/is not available',
      },
    })
  })

  test('error: a node error passes through with its code, message and data', async () => {
    const { provider } = await start({ signedIn: false })
    const reverting = privateKeyToAccount(generatePrivateKey()).address
    await b().setCode(reverting, revertingCode)
    await expect(
      provider.request({
        method: 'eth_call',
        params: [{ to: reverting, data: '0x' }],
      } as never),
    ).rejects.toMatchObject({
      name: 'RpcError',
      code: 3,
      message: 'execution reverted',
      data: '0x',
    })
  })
})

describe('errors', () => {
  test('behavior: each error is the core class of its code, with the published text, and a JsonRpcError', async () => {
    const { provider, wallet } = await start({ confirm: false })
    const fail = (args: { method: string; params?: unknown }) =>
      provider.request(args as never).catch((error: unknown) => error)
    const send = { method: 'eth_sendTransaction', params: [{ to: target }] }
    const outcomes: [
      unknown,
      new (...args: never[]) => Error,
      number,
      string,
    ][] = [
      [
        await fail({ method: 'eth_sign', params: [] }),
        RpcErrors.UnsupportedMethodError,
        4200,
        'Method not supported',
      ],
      [
        await fail({ method: 'wallet_sendTransaction', params: [] }),
        RpcErrors.MethodNotSupportedError,
        -32004,
        'Method not supported',
      ],
      [
        await fail({ method: 'personal_sign', params: ['0x68', target] }),
        RpcErrors.InvalidParamsError,
        -32602,
        'personal_sign requires the signer to be the from address',
      ],
    ]
    b().relayer.answer({ rpc: 'im_getFeeOptions' }, rpcResult([]))
    outcomes.push([
      await fail(send),
      RpcErrors.InternalError,
      -32603,
      'Failed to retrieve fees for IMX token',
    ])
    b().relayerControls.next('fail', 1, 'gave up', wallet)
    outcomes.push([
      await fail(send),
      RpcErrors.InvalidInputError,
      -32000,
      'Transaction failed to submit with status FAILED. Error message: gave up',
    ])
    b().guardian.setWalletRules(wallet, { confirmUnknownContracts: true })
    outcomes.push([
      await fail({
        method: 'eth_sendTransaction',
        params: [{ to: target, data: '0x01' }],
      }),
      RpcErrors.TransactionRejectedError,
      -32003,
      'Transaction rejected by user',
    ])
    current?.setUser(null)
    outcomes.push([
      await fail(send),
      RpcErrors.UnauthorizedError,
      4100,
      'Unauthorised - call eth_requestAccounts first',
    ])
    for (const [error, type, code, message] of outcomes) {
      expect(error).toBeInstanceOf(type)
      expect(error).toBeInstanceOf(JsonRpcError)
      expect(error).toMatchObject({ code, message })
    }
  })

  test('default: new JsonRpcError(code, message) still works', () => {
    const error = new JsonRpcError(RpcErrorCode.INVALID_PARAMS, 'bad')
    expect(error).toBeInstanceOf(JsonRpcError)
    expect(error).toBeInstanceOf(RpcErrors.RpcError)
    expect({ code: error.code, message: error.message }).toEqual({
      code: -32602,
      message: 'bad',
    })
  })
})

describe('errors of the published catalogue', () => {
  test("error: the relayer and the guardian act for a registered player only: 'Failed to obtain a User with the required ZkEvm attributes'", async () => {
    const { provider, sessionCalls, setUser, player, relayerCalls } =
      await start()
    // The player is registered when the request starts, then the session
    // holds a player without the wallet (another sign-in in another tab).
    const push = sessionCalls.push.bind(sessionCalls)
    let reads = 0
    sessionCalls.push = (...items) => {
      if (++reads > 1)
        setUser({
          accessToken: player.accessToken,
          profile: { sub: player.sub },
        })
      return push(...items)
    }
    const error = await provider
      .request({ method: 'eth_sendTransaction', params: [{ to: target }] })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RpcErrors.InternalError)
    expect(error).toMatchObject({
      code: -32603,
      message: 'Failed to obtain a User with the required ZkEvm attributes',
    })
    expect(relayerCalls()).toEqual([])
  })

  test('error: the custody key not reached is -32603 WALLET_CONNECTION_ERROR with its text', async () => {
    const cause = new Error('ProviderProxy: login failed')
    const { provider, sent } = await start({
      signer: {
        getAddress: async () => {
          throw cause
        },
        signMessage: async () => '0x',
      },
    })
    const error = await provider
      .request({ method: 'eth_sendTransaction', params: [{ to: target }] })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RpcErrors.InternalError)
    expect(error).toMatchObject({
      code: -32603,
      message: 'ProviderProxy: login failed',
      type: 'WALLET_CONNECTION_ERROR',
      cause,
    })
    expect(sent()).toEqual([])
  })
})

describe('accounts', () => {
  test('default: eth_accounts is silent: [] without a wallet, no login', async () => {
    const { provider, sessionCalls } = await start({ registered: false })
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([])
    expect(sessionCalls).not.toContain('login')
  })

  test('default: eth_accounts gives the registered wallet', async () => {
    const { provider, wallet } = await start()
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([wallet])
  })

  test('behavior: eth_requestAccounts registers a new player, refreshes, emits and starts session activity', async () => {
    const started: string[] = []
    const { provider, custody, wallet, sessionCalls, apiRequests, player } =
      await start({
        registered: false,
        signedIn: false,
        sessionActivity: ({ wallet, clientId }) =>
          started.push(`${wallet}:${clientId}`),
      })
    const events: unknown[] = []
    provider.on('accountsChanged', (accounts) => events.push(accounts))
    expect(await provider.request({ method: 'eth_requestAccounts' })).toEqual([
      wallet,
    ])
    expect(events).toEqual([[wallet]])
    expect(started).toEqual([`${wallet}:client-1`])
    expect(sessionCalls).toContain('login')
    expect(sessionCalls).toContain('forceRefresh')
    const post = apiRequests().find(
      (r) => r.path === counterfactualAddressPath(b().chainName),
    )!
    expect(post.path).toBe(
      '/v2/chains/imtbl-zkevm-local-13473/passport/counterfactual-address',
    )
    expect(post.status).toBe(200)
    const body = post.body as {
      ethereum_address: string
      ethereum_signature: Hex
    }
    expect(body.ethereum_address).toBe(custody.address)
    expect(['0x00', '0x01']).toContain(slice(body.ethereum_signature, 64, 65))
    const v = Number(slice(body.ethereum_signature, 64, 65)) + 27
    expect(
      await recoverMessageAddress({
        message: 'Only sign this message from Immutable Passport',
        signature:
          `${slice(body.ethereum_signature, 0, 64)}${v.toString(16)}` as Hex,
      }),
    ).toBe(custody.address)
    expect(apiRequests().map((r) => r.path)).toContain('/v1/chains')
    // The API registered the wallet for the player.
    expect(b().registry.get(player.sub)?.passport.zkevmEthAddress).toBe(wallet)
  })

  test('behavior: parallel eth_requestAccounts share one sign-in and one registration', async () => {
    const { provider, wallet, apiRequests } = await start({
      registered: false,
    })
    const results = await Promise.all([
      provider.request({ method: 'eth_requestAccounts' }),
      provider.request({ method: 'eth_requestAccounts' }),
    ])
    expect(results).toEqual([[wallet], [wallet]])
    expect(
      apiRequests().filter((r) =>
        r.path.endsWith('/passport/counterfactual-address'),
      ),
    ).toHaveLength(1)
  })

  test('error: a failed registration is -32603 Failed to create counterfactual address', async () => {
    const { provider } = await start({ registered: false })
    b().api.answer(
      { path: counterfactualAddressPath(b().chainName) },
      {
        status: 500,
        body: { code: 'INTERNAL_SERVER_ERROR', message: 'boom' },
      },
    )
    await expect(
      provider.request({ method: 'eth_requestAccounts' }),
    ).rejects.toMatchObject({
      code: -32603,
      message: 'Failed to create counterfactual address: boom',
    })
  })

  test('behavior: a throttled registration (429) is sent again through the fetch helper after Retry-After; every platform call names the SDK version', async () => {
    const { provider, wallet, player } = await start({ registered: false })
    const path = counterfactualAddressPath(b().chainName)
    b().api.answer(
      { path },
      {
        status: 429,
        headers: { 'retry-after': '0' },
        body: { code: 'TOO_MANY_REQUESTS_ERROR', message: 'Slow down.' },
      },
    )
    expect(await provider.request({ method: 'eth_requestAccounts' })).toEqual([
      wallet,
    ])
    const posts = b().api.to(path)
    expect(posts.map((r) => [r.status, r.scripted])).toEqual([
      [429, true],
      [200, false],
    ])
    expect(posts[1]?.body).toBe(posts[0]?.body)
    for (const post of posts)
      expect(post.headers.authorization).toBe(`Bearer ${player.accessToken}`)
    expect(b().api.requests.map((r) => r.headers['x-sdk-version'])).toEqual(
      b().api.requests.map(() => 'ts-immutable-sdk-2.2.0'),
    )
  })

  test('error: a registration refused with 409 is -32603 Failed to create counterfactual address with the API message', async () => {
    const { provider } = await start({ registered: false })
    b().api.answer(
      { path: counterfactualAddressPath(b().chainName) },
      {
        status: 409,
        body: { code: 'CONFLICT_ERROR', message: 'Already registered.' },
      },
    )
    await expect(
      provider.request({ method: 'eth_requestAccounts' }),
    ).rejects.toMatchObject({
      code: -32603,
      message: 'Failed to create counterfactual address: Already registered.',
    })
  })

  test('error: a refresh without the zkEVM claims', async () => {
    const { provider } = await start({
      registered: false,
      refreshAddsClaims: false,
    })
    await expect(
      provider.request({ method: 'eth_requestAccounts' }),
    ).rejects.toMatchObject({
      code: -32603,
      message: 'Failed to obtain a User with the required ZkEvm attributes',
    })
  })

  test('error: no user after the login prompt is 4100', async () => {
    const { provider } = await start({ signedIn: false, loginSucceeds: false })
    await expect(
      provider.request({ method: 'eth_requestAccounts' }),
    ).rejects.toMatchObject({
      code: 4100,
      message: 'User not authenticated. Please log in first.',
    })
  })
})

describe('eth_sendTransaction', () => {
  test('default: signs execute with the wallet nonce, relays, polls and returns the hash', async () => {
    const harness = await start()
    const { provider, wallet, custody, popup, sent, relayerCalls } = harness
    await deployed(harness, 5n)
    await b().fund(wallet, parseEther('1'))
    // The relayer answers the first poll before it submitted.
    b().relayer.answer({ rpc: 'im_getTransactionByHash' }, status('PENDING'))
    const hash = await provider.request({
      method: 'eth_sendTransaction',
      params: [{ to: target, value: '0x10', data: '0x1234' }],
    } as never)
    const [one] = sent()
    expect(hash).toBe(one!.hash)
    expect(
      (await b().publicClient.waitForTransactionReceipt({ hash: hash as Hex }))
        .status,
    ).toBe('success')
    expect(one!.to).toBe(wallet)
    expect(one!.nonce).toBe(5n)
    expect(one!.transactions).toEqual([
      {
        delegateCall: false,
        revertOnError: true,
        gasLimit: 0n,
        target,
        value: 16n,
        data: '0x1234',
      },
    ])
    const sub = subDigest({
      chainId,
      wallet,
      digest: transactionsDigest(5n, one!.transactions),
    })
    expect(slice(one!.signature, 0, 4)).toBe('0x00010001')
    expect(slice(one!.signature, 69)).toBe('0x02')
    expect(
      await recoverMessageAddress({
        message: { raw: sub },
        signature: slice(one!.signature, 4, 69),
      }),
    ).toBe(custody.address)
    expect(
      harness
        .apiRequests()
        .find((r) => r.path === '/guardian/v1/transactions/evm/evaluate')?.body,
    ).toEqual({
      chainType: 'evm',
      chainId: 'eip155:13473',
      transactionData: {
        nonce: '5',
        userAddress: wallet,
        metaTransactions: [
          {
            delegateCall: false,
            revertOnError: true,
            gasLimit: '0',
            target,
            value: '16',
            data: '0x1234',
          },
        ],
      },
    })
    expect(relayerCalls().map((r) => r.method)).toEqual([
      'im_getFeeOptions',
      'eth_sendTransaction',
      'im_getTransactionByHash',
      'im_getTransactionByHash',
    ])
    expect(popup).toEqual(['open', 'close', 'close'])
  })

  test('behavior: an undeployed wallet uses nonce 0 whatever the node answers', async () => {
    const { provider, sent, wallet } = await start()
    // A node answering a nonce for an account without code (a real one
    // answers 0x): the wallet has used none.
    b().node.answer(
      (exchange) =>
        callsIn(exchange).some((call) => call.method === 'eth_getCode'),
      (exchange) => ({
        status: 200,
        body: callsIn(exchange).map((call) => ({
          jsonrpc: '2.0',
          id: call.id,
          result:
            call.method === 'eth_getCode'
              ? '0x'
              : encodeFunctionResult({
                  abi: walletAbi,
                  functionName: 'readNonce',
                  result: 7n,
                }),
        })),
      }),
    )
    await provider.request({
      method: 'eth_sendTransaction',
      params: [{ to: target }],
    } as never)
    expect(sent()[0]!.nonce).toBe(0n)
    expect(b().node.requests[0]?.scripted).toBe(true)
    // The relayer deployed the wallet with that first transaction.
    expect(await b().publicClient.getCode({ address: wallet })).toMatch(/^0x./)
  })

  test("behavior: a deployed wallet's code and nonce are read in one batch, and its nonce is signed", async () => {
    const harness = await start()
    await deployed(harness, 7n)
    await harness.provider.request({
      method: 'eth_sendTransaction',
      params: [{ to: target }],
    } as never)
    expect(harness.sent()[0]!.nonce).toBe(7n)
    expect(
      b()
        .node.requests.map((request) =>
          callsIn(request).map((call) => call.method),
        )
        .filter((methods) => methods.includes('eth_getCode')),
    ).toEqual([['eth_getCode', 'eth_call']])
  })

  test('behavior: a wallet whose readNonce reverts reads nonce 0', async () => {
    const harness = await start()
    const { provider, sent, wallet } = harness
    await b().deploy(harness.player)
    const code = await b().publicClient.getCode({ address: wallet })
    // The node answers the wallet's code and a revert of its readNonce.
    b().node.answer(
      (exchange) =>
        callsIn(exchange).some((call) => call.method === 'eth_getCode'),
      (exchange) => ({
        status: 200,
        body: callsIn(exchange).map((call) =>
          call.method === 'eth_getCode'
            ? { jsonrpc: '2.0', id: call.id, result: code }
            : {
                jsonrpc: '2.0',
                id: call.id,
                error: { code: 3, message: 'execution reverted', data: '0x' },
              },
        ),
      }),
    )
    await provider.request({
      method: 'eth_sendTransaction',
      params: [{ to: target }],
    } as never)
    expect(sent()[0]!.nonce).toBe(0n)
  })

  test('behavior: a non-zero IMX fee appends a transfer to the recipient', async () => {
    const { provider, sent, wallet } = await start()
    await b().fund(wallet, parseEther('1'))
    b().relayer.answer(
      { rpc: 'im_getFeeOptions' },
      rpcResult([
        feeOption({
          tokenSymbol: 'ETH',
          recipientAddress: '0x00000000000000000000000000000000000000ee',
        }),
        feeOption({
          tokenPrice: '1000',
          recipientAddress: '0x00000000000000000000000000000000000000fe',
        }),
      ]),
    )
    await provider.request({
      method: 'eth_sendTransaction',
      params: [{ to: target }],
    } as never)
    expect(sent()[0]!.transactions.map((t) => [t.target, t.value])).toEqual([
      [target, 0n],
      ['0x00000000000000000000000000000000000000fe', 1000n],
    ])
  })

  test("behavior: the relayer's own fee is paid, and the transaction runs", async () => {
    const { provider, sent, wallet } = await start()
    await b().fund(wallet, parseEther('1'))
    b().relayerControls.setFee(1000n)
    const hash = (await provider.request({
      method: 'eth_sendTransaction',
      params: [{ to: target }],
    } as never)) as Hex
    const [, fee] = sent()[0]!.transactions
    expect(fee?.value).toBe(1000n)
    expect(
      (await b().publicClient.waitForTransactionReceipt({ hash })).status,
    ).toBe('success')
  })

  test('error: no IMX fee option', async () => {
    const { provider } = await start()
    b().relayer.answer({ rpc: 'im_getFeeOptions' }, rpcResult([]))
    await expect(
      provider.request({
        method: 'eth_sendTransaction',
        params: [{ to: target }],
      } as never),
    ).rejects.toMatchObject({
      code: -32603,
      message: 'Failed to retrieve fees for IMX token',
    })
  })

  test('error: to is required: -32602 with the published text', async () => {
    const { provider, sent } = await start()
    for (const params of [[{ value: '0x1' }], [], [null], [{ to: '' }]]) {
      const error = await provider
        .request({ method: 'eth_sendTransaction', params } as never)
        .catch((e: unknown) => e)
      expect(error).toBeInstanceOf(RpcErrors.InvalidParamsError)
      expect(error).toMatchObject({
        code: -32602,
        message: 'eth_sendTransaction requires a "to" field',
      })
    }
    await expect(
      provider.request({
        method: 'wallet_sendCalls',
        params: [{ version: '2.0.0', calls: [{ value: '0x1' }] }],
      } as never),
    ).rejects.toMatchObject({
      code: -32602,
      message: 'wallet_sendCalls requires a "to" field',
    })
    expect(sent()).toEqual([])
  })

  test("error: a reverted relayed transaction is -32000 with its status and message, its hash and the relayer's message kept in data", async () => {
    const { provider, sent, wallet } = await start()
    b().relayerControls.next('revert', 1, undefined, wallet)
    // A token transfer the wallet has no balance for.
    const error = await provider
      .request({
        method: 'eth_sendTransaction',
        params: [
          {
            to: b().contracts.erc20,
            data: encodeFunctionData({
              abi: TestERC20.abi,
              functionName: 'transfer',
              args: [target, 1n],
            }),
          },
        ],
      } as never)
      .catch((e: unknown) => e)
    const [one] = sent()
    expect(error).toBeInstanceOf(RpcErrors.InvalidInputError)
    const statusMessage = `The transaction reverted on chain: ERC20InsufficientBalance(${wallet}, 0, 1).`
    expect(error).toMatchObject({
      code: -32000,
      message: `Transaction failed to submit with status REVERTED. Error message: ${statusMessage}`,
      data: {
        status: 'REVERTED',
        relayerId: one?.relayerId,
        chainId: `eip155:${chainId}`,
        hash: one?.hash,
        statusMessage,
      },
    })
    const { hash } = (error as { data: { hash: Hex } }).data
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(
      (await b().publicClient.getTransactionReceipt({ hash })).status,
    ).toBe('reverted')
  })

  test('error: a status without a message says so without an empty "Error message:"', async () => {
    const { provider, sent } = await start()
    b().relayer.answer({ rpc: 'im_getTransactionByHash' }, status('CANCELLED'))
    const error = await provider
      .request({
        method: 'eth_sendTransaction',
        params: [{ to: target }],
      } as never)
      .catch((e: unknown) => e)
    expect(error).toMatchObject({
      code: -32000,
      message: 'Transaction failed to submit with status CANCELLED.',
      data: { status: 'CANCELLED', relayerId: sent()[0]?.relayerId },
    })
    expect(sent()[0]?.relayerId).toMatch(/\S/)
  })

  test('behavior: a send the relayer gave up on (FAILED) gives its nonce back to the next send', async () => {
    const harness = await start()
    const { provider, sent, wallet } = harness
    await deployed(harness, 7n)
    b().relayerControls.next('fail', 1, 'gave up', wallet)
    await expect(
      provider.request({
        method: 'eth_sendTransaction',
        params: [{ to: target }],
      } as never),
    ).rejects.toMatchObject({
      code: -32000,
      message:
        'Transaction failed to submit with status FAILED. Error message: gave up',
    })
    await provider.request({
      method: 'eth_sendTransaction',
      params: [{ to: target }],
    } as never)
    expect(sent().map((one) => one.nonce)).toEqual([7n, 7n])
  })

  test('behavior: after a send mined as reverted, the next send signs the nonce the chain still expects', async () => {
    const harness = await start()
    const { provider, sent, wallet } = harness
    await deployed(harness, 4n)
    const send = () =>
      provider.request({
        method: 'eth_sendTransaction',
        params: [{ to: target }],
      } as never) as Promise<Hex>
    await send()
    // The second reverts on chain, but the relayer says SUBMITTED first
    // (it has a hash): the chain may just lag behind.
    b().relayerControls.next('revert', 1, undefined, wallet)
    b().relayer.rewrite(
      { rpc: 'im_getTransactionByHash' },
      ...Array(31).fill(restatus('REVERTED', 'SUBMITTED')),
    )
    const reverted = await send()
    expect(
      (await b().publicClient.waitForTransactionReceipt({ hash: reverted }))
        .status,
    ).toBe('reverted')
    expect(sent().map((one) => one.nonce)).toEqual([4n, 5n])
    b().relayer.clear()
    await send()
    expect(sent().map((one) => one.nonce)).toEqual([5n])
  })

  test('error: still pending after one poll and 30 retries', async () => {
    const { provider, sent, polls, wallet } = await start()
    b().relayerControls.next('stall', 1, undefined, wallet)
    await expect(
      provider.request({
        method: 'eth_sendTransaction',
        params: [{ to: target }],
      } as never),
    ).rejects.toMatchObject({
      code: -32000,
      message: 'transaction hash not generated in time',
    })
    expect(polls(sent()[0]!.relayerId)).toBe(31)
  })

  test('behavior: a send still pending after the last poll gives its nonce back: the next send signs the same nonce, so at most one of them runs', async () => {
    const harness = await start()
    const { provider, sent, wallet } = harness
    await deployed(harness, 7n)
    const send = () =>
      provider.request({
        method: 'eth_sendTransaction',
        params: [{ to: target }],
      } as never) as Promise<Hex>
    b().relayerControls.next('stall', 1, undefined, wallet)
    await expect(send()).rejects.toMatchObject({
      code: -32000,
      message: 'transaction hash not generated in time',
    })
    await send()
    await send()
    expect(sent().map((one) => one.nonce)).toEqual([7n, 7n, 8n])
  })

  test('behavior: a failed status poll is retried like a pending one; a send whose polling kept failing gives its nonce back too', async () => {
    const harness = await start()
    const { provider, sent, wallet, relayerCalls } = harness
    await deployed(harness, 7n)
    b().relayerControls.next('stall', 1, undefined, wallet)
    b().relayer.answer(
      { rpc: 'im_getTransactionByHash' },
      ...Array(31).fill(rpcError({ code: -32000, message: 'Relayer busy' })),
    )
    const error = await provider
      .request({
        method: 'eth_sendTransaction',
        params: [{ to: target }],
      } as never)
      .catch((e: unknown) => e)
    expect(error).toMatchObject({
      code: -32000,
      message: 'transaction hash not generated in time',
      cause: { code: -32000, message: 'Relayer busy' },
    })
    expect(
      relayerCalls().filter((r) => r.method === 'im_getTransactionByHash'),
    ).toHaveLength(31)
    await provider.request({
      method: 'eth_sendTransaction',
      params: [{ to: target }],
    } as never)
    expect(sent().map((one) => one.nonce)).toEqual([7n, 7n])
  })

  test('behavior: when a timed-out send landed after all, the next send takes the nonce after it', async () => {
    const harness = await start()
    const { provider, sent, wallet } = harness
    await deployed(harness, 7n)
    b().relayerControls.next('stall', 1, undefined, wallet)
    await expect(
      provider.request({
        method: 'eth_sendTransaction',
        params: [{ to: target }],
      } as never),
    ).rejects.toMatchObject({
      code: -32000,
      message: 'transaction hash not generated in time',
    })
    // It landed late after all: the wallet used nonce 7.
    await b().setNonce(wallet, 0n, 8n)
    await provider.request({
      method: 'eth_sendTransaction',
      params: [{ to: target }],
    } as never)
    expect(sent().map((one) => one.nonce)).toEqual([7n, 8n])
  })

  test('behavior: SUBMITTED returns the hash', async () => {
    const { provider, sent } = await start()
    b().relayer.rewrite(
      { rpc: 'im_getTransactionByHash' },
      restatus('SUCCESSFUL', 'SUBMITTED'),
    )
    const hash = await provider.request({
      method: 'eth_sendTransaction',
      params: [{ to: target }],
    } as never)
    const [poll] = b()
      .relayer.calls()
      .filter((call) => call.method === 'im_getTransactionByHash')
    expect(
      (jsonOf(poll?.exchange.response) as { result: RelayerTransaction }).result
        .status,
    ).toBe('SUBMITTED')
    expect(hash).toBe(sent()[0]!.hash)
  })

  test('behavior: 20 parallel sends get consecutive distinct nonces', async () => {
    const harness = await start()
    const { provider, sent } = harness
    await deployed(harness, 3n)
    await Promise.all(
      Array.from({ length: 20 }, () =>
        provider.request({
          method: 'eth_sendTransaction',
          params: [{ to: target }],
        } as never),
      ),
    )
    expect(
      sent()
        .map((one) => one.nonce)
        .sort((a, b) => Number(a - b)),
    ).toEqual(Array.from({ length: 20 }, (_, i) => BigInt(i + 3)))
  })

  test('behavior: background transactions use nonce space 1 and open no popup', async () => {
    let send: ((call: { to: Address }) => Promise<Hex>) | undefined
    const harness = await start({
      sessionActivity: ({ sendTransaction }) => {
        send = sendTransaction
      },
    })
    const { provider, sent, wallet, popup } = harness
    await b().deploy(harness.player)
    await b().setNonce(wallet, 1n, 2n)
    expect(
      await provider.request({ method: 'im_addSessionActivity' } as never),
    ).toBeNull()
    await send!({ to: target })
    expect(sent()[0]!.nonce).toBe((1n << 96n) + 2n)
    expect(popup).toEqual([])
  })
})

describe('guardian', () => {
  test('behavior: the popup opens synchronously when a known wallet starts a request', async () => {
    const { provider, popup } = await start()
    await provider.request({ method: 'eth_accounts' })
    const pending = provider.request({
      method: 'eth_sendTransaction',
      params: [{ to: target }],
    } as never)
    expect(popup).toEqual(['open'])
    await pending
  })

  test('error: another evaluation failure is -32603 with the API message', async () => {
    const { provider } = await start()
    b().api.answer(
      { path: paths.evaluateTransaction },
      {
        status: 500,
        body: { code: 'INTERNAL_SERVER_ERROR', message: 'db down' },
      },
    )
    await expect(
      provider.request({
        method: 'eth_sendTransaction',
        params: [{ to: target }],
      } as never),
    ).rejects.toMatchObject({
      code: -32603,
      message: 'Transaction failed to validate with error: db down',
    })
  })

  test('behavior: a throttled evaluation (429) is sent again through the fetch helper, then the transaction is relayed', async () => {
    const { provider, sent, player } = await start()
    b().api.answer(
      { path: paths.evaluateTransaction },
      {
        status: 429,
        headers: { 'retry-after': '0' },
        body: { code: 'TOO_MANY_REQUESTS_ERROR', message: 'Slow down.' },
      },
    )
    await provider.request({
      method: 'eth_sendTransaction',
      params: [{ to: target }],
    } as never)
    const evaluations = b().api.to(paths.evaluateTransaction)
    expect(evaluations.map((r) => [r.status, r.headers.authorization])).toEqual(
      [
        [429, `Bearer ${player.accessToken}`],
        [200, `Bearer ${player.accessToken}`],
      ],
    )
    expect(sent()).toHaveLength(1)
  })

  test('error: an evaluation still throttled after 12 attempts is -32603 with the API message, nothing relayed', async () => {
    const { provider, sent } = await start()
    b().api.always(
      { path: paths.evaluateTransaction },
      {
        status: 429,
        headers: { 'retry-after': '0' },
        body: { code: 'TOO_MANY_REQUESTS_ERROR', message: 'Slow down.' },
      },
    )
    await expect(
      provider.request({
        method: 'eth_sendTransaction',
        params: [{ to: target }],
      } as never),
    ).rejects.toMatchObject({
      code: -32603,
      message: 'Transaction failed to validate with error: Slow down.',
    })
    expect(b().api.to(paths.evaluateTransaction)).toHaveLength(12)
    expect(sent()).toEqual([])
  })

  test('error: an evaluation answer without a verdict is -32603, never a pass: nothing relayed', async () => {
    const { provider, sent } = await start()
    b().api.answer({ path: paths.evaluateTransaction }, { status: 200 })
    await expect(
      provider.request({
        method: 'eth_sendTransaction',
        params: [{ to: target }],
      } as never),
    ).rejects.toMatchObject({
      code: -32603,
      message:
        'Transaction failed to validate with error: The guardian answered no evaluation.',
    })
    expect(sent()).toEqual([])
  })

  test('error: a 422 in bridge mode is -32015 Transaction will revert', async () => {
    const { provider } = await start({
      config: { crossSdkBridgeEnabled: true },
    })
    b().api.answer(
      { path: paths.evaluateTransaction },
      {
        status: 422,
        body: { code: 'VALIDATION_ERROR', message: 'execution reverted' },
      },
    )
    await expect(
      provider.request({
        method: 'eth_sendTransaction',
        params: [{ to: target }],
      } as never),
    ).rejects.toMatchObject({
      code: -32015,
      message: 'Transaction will revert: execution reverted',
    })
  })

  test('behavior: a required confirmation navigates the popup', async () => {
    const { provider, popup, wallet } = await start()
    b().guardian.setWalletRules(wallet, { confirmUnknownContracts: true })
    await provider.request({
      method: 'eth_sendTransaction',
      params: [{ to: target, data: '0x01' }],
    } as never)
    const id = verdictOf(paths.evaluateTransaction, 'transactionId')
    expect(popup).toEqual([
      'open',
      `transaction:${id}:${wallet}:${chainId}`,
      'close',
    ])
  })

  test('error: rejected in the popup is -32003', async () => {
    const { provider, sent, wallet } = await start({ confirm: false })
    b().guardian.setWalletRules(wallet, { confirmUnknownContracts: true })
    await expect(
      provider.request({
        method: 'eth_sendTransaction',
        params: [{ to: target, data: '0x01' }],
      } as never),
    ).rejects.toMatchObject({
      code: -32003,
      message: 'Transaction rejected by user',
    })
    expect(sent()).toEqual([])
  })

  test('error: a 403 shows the unavailable page, then Service unavailable with its own type, the API body never in its text', async () => {
    const { provider, popup, wallet } = await start()
    b().guardian.setWalletRules(wallet, { unavailable: true })
    const sent = await provider
      .request({
        method: 'eth_sendTransaction',
        params: [{ to: target }],
      } as never)
      .catch((e: unknown) => e)
    const signed = await provider
      .request({
        method: 'personal_sign',
        params: ['0x6869', wallet],
      } as never)
      .catch((e: unknown) => e)
    expect(b().api.requests.map((r) => [r.status, jsonOf(r.response)])).toEqual(
      Array(2).fill([
        403,
        {
          code: 'AUTHENTICATION_ERROR',
          message: 'The guardian is unavailable.',
          details: null,
        },
      ]),
    )
    for (const error of [sent, signed]) {
      expect(error).toBeInstanceOf(RpcErrors.InvalidInputError)
      expect(error).toMatchObject({
        code: -32000,
        message: 'Service unavailable',
        shortMessage: 'Service unavailable',
        details: 'The guardian is unavailable.',
        type: 'SERVICE_UNAVAILABLE_ERROR',
      })
      expect(String((error as Error).stack)).not.toContain(
        'AUTHENTICATION_ERROR',
      )
    }
    expect(popup).toEqual([
      'open',
      'unavailable',
      'close',
      'open',
      'unavailable',
      'close',
    ])
  })

  test('error: bridge mode refuses a required confirmation without a popup', async () => {
    const { provider, popup, wallet } = await start({
      config: { crossSdkBridgeEnabled: true },
    })
    b().guardian.setWalletRules(wallet, { confirmUnknownContracts: true })
    await expect(
      provider.request({
        method: 'eth_sendTransaction',
        params: [{ to: target, data: '0x01' }],
      } as never),
    ).rejects.toMatchObject({ code: -32003 })
    expect(popup).toEqual([])
  })

  test('error: a rejected message is -32003 Signature rejected by user', async () => {
    const { provider, wallet } = await start({ confirm: false })
    b().guardian.setWalletRules(wallet, { confirmErc191: true })
    await expect(
      provider.request({
        method: 'personal_sign',
        params: ['0x68656c6c6f', wallet],
      } as never),
    ).rejects.toMatchObject({
      code: -32003,
      message: 'Signature rejected by user',
    })
  })
})

describe('personal_sign', () => {
  test('default: the 2-of-2 signature over the wallet’s sub-digest of the decoded text', async () => {
    const harness = await start()
    const { provider, wallet, custody, popup, relayerCalls } = harness
    b().guardian.setWalletRules(wallet, { confirmErc191: true })
    const signature = (await provider.request({
      method: 'personal_sign',
      params: [stringToHex('hello'), wallet.toLowerCase()],
    } as never)) as Hex
    const digest = subDigest({ chainId, wallet, digest: hashMessage('hello') })
    const decoded = await signersOf(signature, digest)
    expect(decoded.threshold).toBe(2)
    expect([...decoded.signers].sort()).toEqual(
      [custody.address, b().contracts.coSigner].sort(),
    )
    expect(BigInt(decoded.signers[0]!) < BigInt(decoded.signers[1]!)).toBe(true)
    expect(
      harness
        .apiRequests()
        .find((r) => r.path === '/guardian/v1/erc191-messages/evaluate')?.body,
    ).toEqual({
      chainID: 'eip155:13473',
      payload: 'hello',
    })
    expect(relayerCalls().find((r) => r.method === 'im_sign')?.params).toEqual([
      { chainId: 'eip155:13473', address: wallet, message: 'hello' },
    ])
    const id = verdictOf(paths.evaluateErc191Message, 'messageId')
    expect(popup).toEqual(['open', `message:${id}:${wallet}:erc191`, 'close'])
  })

  test('error: the address must be the wallet', async () => {
    const { provider } = await start()
    await expect(
      provider.request({
        method: 'personal_sign',
        params: ['0x01', target],
      } as never),
    ).rejects.toMatchObject({ code: -32602 })
  })

  test('behavior: an undeployed wallet’s signature is ERC-6492 wrapped when the contracts are configured', async () => {
    const { factory, mainModule, coSigner } = b().contracts
    const { provider, wallet } = await start({
      config: { walletContracts: { factory, mainModule, coSigner } },
    })
    const signature = (await provider.request({
      method: 'personal_sign',
      params: ['hi', wallet],
    } as never)) as Hex
    expect(slice(signature, -32)).toBe(`0x${'6492'.repeat(16)}`)
    expect(
      await b().publicClient.verifyMessage({
        address: wallet,
        message: 'hi',
        signature,
      }),
    ).toBe(true)
  })

  test('behavior: forceScwDeployBeforeMessageSignature deploys first', async () => {
    const { provider, sent, wallet } = await start({
      config: { forceScwDeployBeforeMessageSignature: true },
    })
    const signature = (await provider.request({
      method: 'personal_sign',
      params: ['hi', wallet],
    } as never)) as Hex
    expect(sent()[0]!.transactions).toEqual([
      {
        delegateCall: false,
        revertOnError: true,
        gasLimit: 0n,
        target: wallet,
        value: 0n,
        data: '0x',
      },
    ])
    expect(await b().publicClient.getCode({ address: wallet })).toMatch(/^0x./)
    expect(slice(signature, 0, 2)).toBe('0x0002')
  })
})

/** The id the guardian gave the first evaluation at `path`. */
function verdictOf(
  path: string,
  key: 'transactionId' | 'messageId',
): string | undefined {
  return (
    jsonOf(b().api.to(path)[0]?.response) as
      | Record<string, string | undefined>
      | undefined
  )?.[key]
}

describe('eth_signTypedData_v4', () => {
  const typedData = (chain: unknown) => ({
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'chainId', type: 'uint256' },
      ],
      Mail: [{ name: 'contents', type: 'string' }],
    },
    domain: { name: 'Game', chainId: chain },
    primaryType: 'Mail',
    message: { contents: 'hi' },
  })

  test('default: JSON text with a hex chain id; guardian gets the decimal chain id', async () => {
    const harness = await start()
    const { provider, wallet, custody } = harness
    const signature = (await provider.request({
      method: 'eth_signTypedData_v4',
      params: [wallet, JSON.stringify(typedData('0x34a1'))],
    } as never)) as Hex
    const hash = hashTypedData({
      types: { Mail: [{ name: 'contents', type: 'string' }] },
      domain: { name: 'Game', chainId: 13473 },
      primaryType: 'Mail',
      message: { contents: 'hi' },
    })
    const decoded = await signersOf(
      signature,
      subDigest({ chainId, wallet, digest: hash }),
    )
    expect([...decoded.signers].sort()).toEqual(
      [custody.address, b().contracts.coSigner].sort(),
    )
    const evaluation = harness
      .apiRequests()
      .find((r) => r.path === '/guardian/v1/messages/evaluate')?.body as {
      chainID: string
      payload: { domain: { chainId: number } }
    }
    expect(evaluation.chainID).toBe('13473')
    expect(evaluation.payload.domain.chainId).toBe(13473)
  })

  test('error: another chain is -32602 Invalid chainId', async () => {
    const { provider, wallet } = await start()
    await expect(
      provider.request({
        method: 'eth_signTypedData_v4',
        params: [wallet, typedData('1')],
      } as never),
    ).rejects.toMatchObject({
      code: -32602,
      message: 'Invalid chainId, expected 13473',
    })
  })

  test('error: missing fields are -32602', async () => {
    const { provider, wallet } = await start()
    await expect(
      provider.request({
        method: 'eth_signTypedData',
        params: [wallet, { types: {}, domain: {} }],
      } as never),
    ).rejects.toMatchObject({ code: -32602 })
  })
})

describe('im_signEjectionTransaction', () => {
  test('error: exactly one parameter', async () => {
    const { provider } = await start()
    for (const params of [[], [{}, {}]])
      await expect(
        provider.request({
          method: 'im_signEjectionTransaction',
          params,
        } as never),
      ).rejects.toMatchObject({
        code: -32602,
        message: 'im_signEjectionTransaction requires a singular param (hash)',
      })
  })

  test('error: to, nonce and chainId are required', async () => {
    const { provider } = await start()
    await expect(
      provider.request({
        method: 'im_signEjectionTransaction',
        params: [{ to: target, chainId: 1 }],
      } as never),
    ).rejects.toMatchObject({ code: -32602 })
  })

  test('default: the signed execute calldata for the given nonce and chain', async () => {
    const { provider, wallet, custody, relayerCalls } = await start()
    const result = (await provider.request({
      method: 'im_signEjectionTransaction',
      params: [{ to: target, value: '5', nonce: 4, chainId: 'eip155:1' }],
    } as never)) as { to: Address; data: Hex; chainId: string }
    expect(result.to).toBe(wallet)
    expect(result.chainId).toBe('eip155:1')
    const { transactions, nonce, signature } = decodeExecute(result.data)
    expect(nonce).toBe(4n)
    const sub = subDigest({
      chainId: 1,
      wallet,
      digest: transactionsDigest(4n, transactions),
    })
    expect(
      await recoverMessageAddress({
        message: { raw: sub },
        signature: slice(signature, 4, 69),
      }),
    ).toBe(custody.address)
    expect(relayerCalls()).toEqual([])
  })
})

describe('EIP-5792', () => {
  test('behavior: wallet_sendCalls sends one meta-transaction of all calls; status and capabilities', async () => {
    const { provider, sent, wallet } = await start()
    await b().fund(wallet, parseEther('1'))
    // Until the relayer has a hash, the batch is pending.
    const stopPending = b().relayer.always(
      { rpc: 'im_getTransactionByHash' },
      status('PENDING'),
    )
    const { id } = (await provider.request({
      method: 'wallet_sendCalls',
      params: [
        {
          version: '2.0.0',
          chainId: '0x34a1',
          from: wallet,
          atomicRequired: true,
          calls: [
            { to: target, data: '0x01' },
            { to: wallet, value: '0x2' },
          ],
        },
      ],
    } as never)) as { id: string }
    expect(sent()).toHaveLength(1)
    expect(
      sent()[0]!.transactions.map((t) => [t.target, t.value, t.data]),
    ).toEqual([
      [target, 0n, '0x01'],
      [wallet, 2n, '0x'],
    ])
    expect(id).toBe(sent()[0]!.relayerId)
    const pending = (await provider.request({
      method: 'wallet_getCallsStatus',
      params: [id],
    } as never)) as { status: number }
    expect(pending).toEqual({
      version: '2.0.0',
      id,
      chainId: '0x34a1',
      atomic: true,
      status: 100,
    })
    stopPending()
    const confirmed = (await provider.request({
      method: 'wallet_getCallsStatus',
      params: [id],
    } as never)) as { receipts: { transactionHash: Hex }[] }
    const receipt = await b().publicClient.getTransactionReceipt({
      hash: confirmed.receipts[0]!.transactionHash,
    })
    expect(confirmed).toEqual({
      version: '2.0.0',
      id,
      chainId: '0x34a1',
      atomic: true,
      status: 200,
      receipts: [
        {
          logs: receipt.logs.map(({ address, data, topics }) => ({
            address,
            data,
            topics,
          })),
          status: '0x1',
          blockHash: receipt.blockHash,
          blockNumber: toHex(receipt.blockNumber),
          gasUsed: toHex(receipt.gasUsed),
          transactionHash: receipt.transactionHash,
        },
      ],
    })
    expect(
      await provider.request({
        method: 'wallet_getCapabilities',
        params: [wallet],
      } as never),
    ).toEqual({
      '0x34a1': { atomic: { status: 'supported' } },
    })
  })

  test('behavior: an off-chain failure is 400', async () => {
    const { provider, wallet } = await start()
    b().relayerControls.next('fail', 1, undefined, wallet)
    const { id } = (await provider.request({
      method: 'wallet_sendCalls',
      params: [
        {
          version: '2.0.0',
          chainId: '0x34a1',
          from: wallet,
          calls: [{ to: target }],
        },
      ],
    } as never)) as { id: string }
    expect(
      await provider.request({
        method: 'wallet_getCallsStatus',
        params: [id],
      } as never),
    ).toMatchObject({ status: 400 })
  })

  test('behavior: a batch the relayer gave up on gives its nonce back, whether or not the dapp asks its status', async () => {
    const harness = await start()
    const { provider, sent, polls, wallet } = harness
    await deployed(harness, 7n)
    b().relayerControls.next('fail', 1, undefined, wallet)
    const { id } = (await provider.request({
      method: 'wallet_sendCalls',
      params: [{ version: '2.0.0', from: wallet, calls: [{ to: target }] }],
    } as never)) as { id: string }
    // The provider's own status poll (answered FAILED) gives the nonce back.
    await vi.waitFor(() => expect(polls(id)).toBe(1))
    await provider.request({
      method: 'eth_sendTransaction',
      params: [{ to: target }],
    } as never)
    expect(sent().map((one) => one.nonce)).toEqual([7n, 7n])
  })

  test('error: another chain is 5710', async () => {
    const { provider, wallet } = await start()
    await expect(
      provider.request({
        method: 'wallet_sendCalls',
        params: [
          {
            version: '2.0.0',
            chainId: '0x1',
            from: wallet,
            calls: [{ to: target }],
          },
        ],
      } as never),
    ).rejects.toMatchObject({ code: 5710 })
  })
})

describe('relayer', () => {
  test('error: an HTTP failure of the relayer is -32603 with its status and content', async () => {
    const { provider } = await start()
    b().relayer.answer(
      { path: '/v1/transactions' },
      { status: 503, body: { message: 'overloaded' } },
    )
    await expect(
      provider.request({
        method: 'eth_sendTransaction',
        params: [{ to: target }],
      } as never),
    ).rejects.toMatchObject({
      code: -32603,
      message: 'Relayer HTTP error: 503. Content: {"message":"overloaded"}',
    })
    // Any failure but a 429 is one attempt, as published.
    expect(
      b().relayer.requests.filter((r) => r.path === '/v1/transactions'),
    ).toHaveLength(1)
  })

  test('behavior: a throttled relayer send (429) is sent again through the fetch helper after Retry-After, and relayed once', async () => {
    const { provider, sent } = await start()
    b().relayer.answer(
      { rpc: 'eth_sendTransaction' },
      {
        status: 429,
        headers: { 'retry-after': '0' },
        body: { message: 'slow down' },
      },
    )
    const hash = await provider.request({
      method: 'eth_sendTransaction',
      params: [{ to: target }],
    } as never)
    const sends = b()
      .relayer.calls()
      .filter((call) => call.method === 'eth_sendTransaction')
    expect(
      sends.map((call) => [call.exchange.status, call.exchange.scripted]),
    ).toEqual([
      [429, true],
      [200, false],
    ])
    expect(sends[1]?.exchange.body).toBe(sends[0]?.exchange.body)
    // The 429 was the tap's: only the second send reached the relayer.
    expect(hash).toBe(sent()[1]?.hash)
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
  })

  test('behavior: a throttled status poll (429) is sent again through the fetch helper, not counted as a failed poll', async () => {
    const { provider, sent } = await start()
    b().relayer.answer(
      { rpc: 'im_getTransactionByHash' },
      { status: 429, headers: { 'retry-after': '0' }, body: {} },
    )
    const hash = await provider.request({
      method: 'eth_sendTransaction',
      params: [{ to: target }],
    } as never)
    const polls = b()
      .relayer.calls()
      .filter((call) => call.method === 'im_getTransactionByHash')
    expect(polls.map((call) => call.exchange.status)).toEqual([429, 200])
    expect(polls[1]?.exchange.body).toBe(polls[0]?.exchange.body)
    expect(hash).toBe(sent()[0]?.hash)
  })

  test('error: a relayer still throttled after 12 attempts is -32603 with the 429 and its content; nothing relayed', async () => {
    const { provider } = await start()
    b().relayer.always(
      { rpc: 'eth_sendTransaction' },
      {
        status: 429,
        headers: { 'retry-after': '0' },
        body: { message: 'slow down' },
      },
    )
    await expect(
      provider.request({
        method: 'eth_sendTransaction',
        params: [{ to: target }],
      } as never),
    ).rejects.toMatchObject({
      code: -32603,
      message: 'Relayer HTTP error: 429. Content: {"message":"slow down"}',
    })
    const calls = b().relayer.calls()
    // Twelve sends, each refused at the tap: none reached the relayer, and
    // nothing was polled.
    expect(
      calls
        .filter((call) => call.method === 'eth_sendTransaction')
        .map((call) => call.exchange.scripted),
    ).toEqual(Array(12).fill(true))
    expect(
      calls.filter((call) => call.method === 'im_getTransactionByHash'),
    ).toEqual([])
  })
})

describe('events', () => {
  test('behavior: accountsChanged fires once per real change of the accounts, never for a repeat', async () => {
    const { provider, sessionEvents, wallet, custody, setUser, player } =
      await start()
    const events: unknown[] = []
    provider.on('accountsChanged', (accounts) => events.push(accounts))
    const registered = {
      accessToken: player.accessToken,
      profile: { sub: player.sub },
      zkEvm: { ethAddress: wallet, userAdminAddress: custody.address },
    }
    // Known from the start: asking again is no change.
    await provider.request({ method: 'eth_requestAccounts' })
    await provider.request({ method: 'eth_requestAccounts' })
    await provider.request({ method: 'eth_accounts' })
    sessionEvents.emit('loggedIn', registered)
    expect(events).toEqual([])
    // Logout: [] once, however often the session says so.
    sessionEvents.emit('loggedOut')
    sessionEvents.emit('loggedOut')
    expect(events).toEqual([[]])
    // Back: the wallet once.
    setUser(registered)
    sessionEvents.emit('loggedIn', registered)
    await provider.request({ method: 'eth_requestAccounts' })
    expect(events).toEqual([[], [wallet]])
    // The session ended elsewhere (no event from it): the next read sees
    // the change.
    setUser(null)
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([])
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([])
    expect(events).toEqual([[], [wallet], []])
  })

  test('behavior: a new player registering emits the wallet once', async () => {
    const { provider, wallet, sessionEvents, player } = await start({
      registered: false,
      signedIn: false,
    })
    const events: unknown[] = []
    provider.on('accountsChanged', (accounts) => events.push(accounts))
    // Signed in without a wallet yet: no accounts, so no change.
    sessionEvents.emit('loggedIn', {
      accessToken: player.accessToken,
      profile: { sub: player.sub },
    })
    await provider.request({ method: 'eth_requestAccounts' })
    await provider.request({ method: 'eth_requestAccounts' })
    expect(events).toEqual([[wallet]])
  })

  test('behavior: chainChanged when the node reports another chain', async () => {
    const { provider } = await start()
    const changes: unknown[] = []
    provider.on('chainChanged', (id) => changes.push(id))
    await provider.request({ method: 'eth_chainId' })
    const setChainId = (id: number) =>
      b().testClient.request({
        method: 'anvil_setChainId',
        params: [id],
      } as never)
    await setChainId(1)
    try {
      expect(await provider.request({ method: 'eth_chainId' })).toBe('0x1')
      expect(changes).toEqual(['0x1'])
    } finally {
      await setChainId(chainId)
    }
  })

  test('behavior: connect once the chain is known; logout emits [] and disconnect; login of a registered player emits the wallet', async () => {
    const { provider, sessionEvents, wallet, custody, player } = await start()
    const events: unknown[] = []
    provider.on('connect', (info) => events.push(['connect', info]))
    provider.on('accountsChanged', (accounts) =>
      events.push(['accountsChanged', accounts]),
    )
    provider.on('disconnect', (error) =>
      events.push(['disconnect', (error as unknown as { code: number }).code]),
    )
    await provider.request({ method: 'eth_chainId' })
    sessionEvents.emit('loggedOut')
    sessionEvents.emit('loggedIn', {
      accessToken: player.accessToken,
      profile: { sub: player.sub },
      zkEvm: { ethAddress: wallet, userAdminAddress: custody.address },
    })
    // The first `connect` reaches a listener added after the provider was
    // made (as a dApp adds it after `await connectEvm()`).
    expect(events).toEqual([
      ['connect', { chainId: '0x34a1' }],
      ['accountsChanged', []],
      ['disconnect', 4900],
      ['connect', { chainId: '0x34a1' }],
      ['accountsChanged', [wallet]],
    ])
  })
})
