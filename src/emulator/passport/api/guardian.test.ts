import {
  type Address,
  encodeFunctionData,
  getAddress,
  hashMessage,
  hashTypedData,
  parseAbi,
} from 'viem'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { transactionsDigest } from '../../../passport/wire/sequence.js'
import {
  type StarkExType,
  starkExChainId,
  starkExDigest,
} from '../../guardian.js'
import { findFreePort } from '../../net.js'
import { startServer } from '../../server.js'
import { settlePath } from '../confirmation/pages.js'
import { createConfirmationApp } from '../confirmation/service.js'
import { maxEvaluationBytes, mustConfirm } from './guardian.js'
import { type Player, startApi, type TestApi } from './testkit.js'

let api: TestApi
let player: Player
let wallet: Address

beforeAll(async () => {
  api = await startApi()
  player = await api.player()
  wallet = await api.register(player)
})
afterAll(() => api?.stop())
beforeEach(() => {
  api.guardian.rules = {}
  api.guardian.walletRules.clear()
})

const token = '0x00000000000000000000000000000000000070c0' as Address
const transfer = encodeFunctionData({
  abi: parseAbi(['function transfer(address,uint256)']),
  args: ['0x0000000000000000000000000000000000000001', 5n],
})

/** A transaction evaluation body as the published SDK sends it. */
function transactionBody(
  options: {
    userAddress?: string
    value?: string
    target?: string
    data?: string
    nonce?: string
    delegateCall?: boolean
  } = {},
) {
  return {
    chainType: 'evm',
    chainId: 'eip155:31337',
    transactionData: {
      nonce: options.nonce ?? '0',
      userAddress: options.userAddress ?? wallet,
      metaTransactions: [
        {
          delegateCall: options.delegateCall ?? false,
          revertOnError: true,
          gasLimit: '0',
          target: options.target ?? token,
          value: options.value ?? '0',
          data: options.data ?? transfer,
        },
      ],
    },
  }
}

const typedData = {
  types: { Mail: [{ name: 'contents', type: 'string' }] },
  domain: { name: 'Game', chainId: 31337 },
  primaryType: 'Mail',
  message: { contents: 'hello' },
} as const

const evaluate = {
  transaction: '/guardian/v1/transactions/evm/evaluate',
  message: '/guardian/v1/messages/evaluate',
  erc191: '/guardian/v1/erc191-messages/evaluate',
}

describe('POST /guardian/v1/transactions/evm/evaluate', () => {
  test('default: with no rules a transaction is allowed, and the verdict keyed by its Sequence digest', async () => {
    const body = transactionBody({ nonce: '79228162514264337593543950336' })
    const response = await api.post(
      evaluate.transaction,
      body,
      player.accessToken,
    )
    expect(response.status).toBe(200)
    const answer = response.body as { transactionId: string }
    expect(answer).toEqual({
      confirmationRequired: false,
      confirmationMethod: 'web',
      transactionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    })
    const digest = transactionsDigest(2n ** 96n, [
      {
        delegateCall: false,
        revertOnError: true,
        gasLimit: 0n,
        target: token,
        value: 0n,
        data: transfer,
      },
    ])
    expect(api.guardian.get(answer.transactionId)).toEqual({
      id: answer.transactionId,
      kind: 'transaction',
      chainId: 31337,
      wallet,
      digest,
      state: 'allowed',
      payload: body,
    })
    expect(api.guardian.isAllowed({ chainId: 31337, wallet, digest })).toBe(
      true,
    )
  })

  test('behavior: confirmAboveValue asks to confirm a batch moving more than the limit, not one moving exactly it', async () => {
    api.guardian.rules = { confirmAboveValue: 10n }
    const at = await api.post(
      evaluate.transaction,
      transactionBody({ value: '10' }),
      player.accessToken,
    )
    expect(at.body).toMatchObject({ confirmationRequired: false })
    const above = await api.post(
      evaluate.transaction,
      transactionBody({ value: '11' }),
      player.accessToken,
    )
    const { transactionId } = above.body as { transactionId: string }
    expect(above.body).toEqual({
      confirmationRequired: true,
      confirmationMethod: 'web',
      transactionId,
    })
    const verdict = api.guardian.get(transactionId)
    expect(verdict?.state).toBe('pending')
    expect(
      api.guardian.isAllowed({
        chainId: 31337,
        wallet,
        digest: verdict?.digest ?? '0x',
      }),
    ).toBe(false)
  })

  test('behavior: confirmUnknownContracts asks to confirm a call to a contract outside knownContracts only', async () => {
    api.guardian.rules = {
      confirmUnknownContracts: true,
      knownContracts: [token.toLowerCase() as Address],
    }
    const known = await api.post(
      evaluate.transaction,
      transactionBody(),
      player.accessToken,
    )
    expect(known.body).toMatchObject({ confirmationRequired: false })
    const plainTransfer = await api.post(
      evaluate.transaction,
      transactionBody({
        target: '0x0000000000000000000000000000000000000bad',
        data: '0x',
        value: '1',
      }),
      player.accessToken,
    )
    expect(plainTransfer.body).toMatchObject({ confirmationRequired: false })
    const unknown = await api.post(
      evaluate.transaction,
      transactionBody({ target: '0x0000000000000000000000000000000000000bad' }),
      player.accessToken,
    )
    expect(unknown.body).toMatchObject({ confirmationRequired: true })
  })

  test('behavior: with confirmUnknownContracts, a delegateCall is a contract call even with no data', async () => {
    // A delegateCall runs the target's code as the wallet itself, so that
    // code may spend anything the wallet holds: it is never a plain transfer.
    api.guardian.rules = {
      confirmUnknownContracts: true,
      knownContracts: [token],
    }
    const unknown = await api.post(
      evaluate.transaction,
      transactionBody({
        target: '0x0000000000000000000000000000000000000bad',
        data: '0x',
        delegateCall: true,
      }),
      player.accessToken,
    )
    expect(unknown.body).toMatchObject({ confirmationRequired: true })
    const known = await api.post(
      evaluate.transaction,
      transactionBody({ data: '0x', delegateCall: true }),
      player.accessToken,
    )
    expect(known.body).toMatchObject({ confirmationRequired: false })
  })

  test('error: unavailable makes every evaluation 403', async () => {
    api.guardian.rules = { unavailable: true }
    const bodies = {
      transaction: transactionBody(),
      message: { chainID: '31337', payload: typedData },
      erc191: { chainID: 'eip155:31337', payload: 'hi' },
    }
    for (const kind of ['transaction', 'message', 'erc191'] as const) {
      const response = await api.post(
        evaluate[kind],
        bodies[kind],
        player.accessToken,
      )
      expect(response.status).toBe(403)
      expect(response.body).toEqual({
        code: 'AUTHENTICATION_ERROR',
        message: 'The guardian is unavailable.',
        details: null,
      })
    }
  })

  test("error: another wallet than the player's is 403", async () => {
    const response = await api.post(
      evaluate.transaction,
      transactionBody({
        userAddress: '0x0000000000000000000000000000000000000bad',
      }),
      player.accessToken,
    )
    expect(response.status).toBe(403)
    expect(response.body).toEqual({
      code: 'AUTHENTICATION_ERROR',
      message: "userAddress is not the player's wallet.",
      details: null,
    })
  })

  test('error: a player without a wallet is 403, one without a token 401', async () => {
    const unregistered = await api.player()
    for (const path of Object.values(evaluate)) {
      const response = await api.post(
        path,
        transactionBody(),
        unregistered.accessToken,
      )
      expect(response.status).toBe(403)
      expect(response.body).toEqual({
        code: 'AUTHENTICATION_ERROR',
        message: 'The player has no zkEVM wallet yet: register it first.',
        details: null,
      })
      const anonymous = await api.post(path, transactionBody())
      expect(anonymous.status).toBe(401)
      expect(anonymous.body).toMatchObject({ code: 'UNAUTHORISED_REQUEST' })
    }
  })

  test('error: a malformed evaluation is 400 VALIDATION_ERROR, saying what is wrong', async () => {
    const base = transactionBody()
    const tx = base.transactionData.metaTransactions[0]
    const cases: [unknown, string][] = [
      [
        'x',
        "Expected { chainType: 'evm', chainId: 'eip155:<id>', transactionData: { nonce, userAddress, metaTransactions } }.",
      ],
      [
        { ...base, chainId: 'eip155:13473' },
        'chainId must be eip155:<id of a chain of the emulator>.',
      ],
      [
        { ...base, chainId: '31337' },
        'chainId must be eip155:<id of a chain of the emulator>.',
      ],
      [
        {
          ...base,
          transactionData: { ...base.transactionData, nonce: '-1' },
        },
        'transactionData.nonce must be a decimal uint256.',
      ],
      [
        {
          ...base,
          transactionData: {
            ...base.transactionData,
            nonce: (2n ** 256n).toString(),
          },
        },
        'transactionData.nonce must be a decimal uint256.',
      ],
      [
        {
          ...base,
          transactionData: { ...base.transactionData, metaTransactions: [] },
        },
        'transactionData.metaTransactions must hold 1 to 100 meta-transactions.',
      ],
      [
        {
          ...base,
          transactionData: {
            ...base.transactionData,
            metaTransactions: Array(101).fill(tx),
          },
        },
        'transactionData.metaTransactions must hold 1 to 100 meta-transactions.',
      ],
      [
        {
          ...base,
          transactionData: {
            ...base.transactionData,
            metaTransactions: [tx, { ...tx, data: '0x123' }],
          },
        },
        'transactionData.metaTransactions[1] must be { delegateCall, revertOnError, gasLimit, target, value, data } (booleans, decimal strings, an address, hex).',
      ],
      [
        {
          ...base,
          transactionData: {
            ...base.transactionData,
            metaTransactions: [{ ...tx, value: 5 }],
          },
        },
        'transactionData.metaTransactions[0] must be { delegateCall, revertOnError, gasLimit, target, value, data } (booleans, decimal strings, an address, hex).',
      ],
    ]
    for (const [body, message] of cases) {
      const response = await api.post(
        evaluate.transaction,
        body,
        player.accessToken,
      )
      expect(response.status).toBe(400)
      expect(response.body).toEqual({
        code: 'VALIDATION_ERROR',
        message,
        details: null,
      })
    }
  })
})

describe('evaluation size', () => {
  test('error: an evaluation body over 64 KiB is 413 and records nothing', async () => {
    const bodies = {
      transaction: transactionBody({ data: `0x${'00'.repeat(33_000)}` }),
      message: {
        chainID: '31337',
        payload: { ...typedData, message: { contents: 'x'.repeat(66_000) } },
      },
      erc191: { chainID: 'eip155:31337', payload: 'x'.repeat(66_000) },
    }
    for (const kind of ['transaction', 'message', 'erc191'] as const) {
      const response = await api.post(
        evaluate[kind],
        bodies[kind],
        player.accessToken,
      )
      expect(response.status).toBe(413)
      expect(response.body).toEqual({
        code: 'VALIDATION_ERROR',
        message: `An evaluation is at most ${maxEvaluationBytes} bytes.`,
        details: null,
      })
    }
  })
})

describe('POST /guardian/v1/messages/evaluate', () => {
  test("default: typed data is allowed and keyed by its EIP-712 hash, the caller's EIP712Domain rebuilt from the domain (kept as sent for the page)", async () => {
    const payload = {
      ...typedData,
      types: {
        ...typedData.types,
        // A caller's inconsistent domain type is dropped, as the SDK does.
        EIP712Domain: [{ name: 'name', type: 'string' }],
      },
    }
    const response = await api.post(
      evaluate.message,
      { chainID: '31337', payload },
      player.accessToken,
    )
    expect(response.status).toBe(200)
    const { messageId } = response.body as { messageId: string }
    expect(response.body).toEqual({
      confirmationRequired: false,
      confirmationMethod: 'web',
      messageId,
    })
    expect(api.guardian.get(messageId)).toMatchObject({
      kind: 'message',
      chainId: 31337,
      wallet,
      state: 'allowed',
      digest: hashTypedData(typedData),
      // What the confirmation page shows: the typed data as sent.
      payload,
    })
  })

  test('behavior: confirmTypedData asks to confirm', async () => {
    api.guardian.rules = { confirmTypedData: true }
    const response = await api.post(
      evaluate.message,
      { chainID: '31337', payload: typedData },
      player.accessToken,
    )
    const { messageId } = response.body as { messageId: string }
    expect(response.body).toEqual({
      confirmationRequired: true,
      confirmationMethod: 'web',
      messageId,
    })
    expect(api.guardian.get(messageId)?.state).toBe('pending')
  })

  test('error: an unknown or CAIP-2 chainID, another domain chain or malformed typed data is 400', async () => {
    const cases: [unknown, string][] = [
      [
        { chainID: 'eip155:31337', payload: typedData },
        'Expected { chainID, payload } with chainID the decimal id of a chain of the emulator.',
      ],
      [
        { chainID: '13473', payload: typedData },
        'Expected { chainID, payload } with chainID the decimal id of a chain of the emulator.',
      ],
      [
        { chainID: '1337', payload: typedData },
        "The typed data's domain.chainId is not 1337.",
      ],
      [
        { chainID: '31337', payload: { ...typedData, message: 'x' } },
        'payload must be typed data: { types, domain, primaryType, message }.',
      ],
      [
        { chainID: '31337', payload: { ...typedData, primaryType: 'Nope' } },
        'payload is not valid EIP-712 typed data.',
      ],
    ]
    for (const [body, message] of cases) {
      const response = await api.post(
        evaluate.message,
        body,
        player.accessToken,
      )
      expect(response.status).toBe(400)
      expect(response.body).toEqual({
        code: 'VALIDATION_ERROR',
        message,
        details: null,
      })
    }
    const hexChain = await api.post(
      evaluate.message,
      {
        chainID: '31337',
        payload: { ...typedData, domain: { name: 'Game', chainId: '0x7a69' } },
      },
      player.accessToken,
    )
    expect(hexChain.status).toBe(200)
  })

  test('a body nested too deep for JSON.stringify inside valid typed data is a 400, never a 500', async () => {
    // JSON.parse reads 20,000 levels; writing them back (to keep the
    // verdict's payload) overflows the stack, which the API's error
    // handler answers as a refused request.
    const deep = `${'['.repeat(20_000)}1${']'.repeat(20_000)}`
    const text = `{"chainID":"31337","payload":{"types":{"Mail":[{"name":"contents","type":"string"}]},"domain":{"name":"Game","chainId":31337},"primaryType":"Mail","message":{"contents":"hello","extra":${deep}}}}`
    const response = await api.request('POST', evaluate.message, {
      body: text,
      token: player.accessToken,
    })
    expect(response.status).toBe(400)
    expect(response.body).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'The request could not be handled.',
      details: null,
    })
  })
})

describe('POST /guardian/v1/erc191-messages/evaluate', () => {
  test('default: a message is allowed, keyed by its EIP-191 hash, its text kept for the page', async () => {
    const response = await api.post(
      evaluate.erc191,
      { chainID: 'eip155:31337', payload: 'Sign in to the game' },
      player.accessToken,
    )
    const { messageId } = response.body as { messageId: string }
    expect(response.body).toEqual({
      confirmationRequired: false,
      confirmationMethod: 'web',
      messageId,
    })
    expect(api.guardian.get(messageId)).toMatchObject({
      kind: 'erc191',
      chainId: 31337,
      wallet,
      state: 'allowed',
      digest: hashMessage('Sign in to the game'),
      // What the confirmation page shows: the text itself.
      payload: 'Sign in to the game',
    })
  })

  test('behavior: confirmErc191 asks to confirm', async () => {
    api.guardian.rules = { confirmErc191: true }
    const response = await api.post(
      evaluate.erc191,
      { chainID: 'eip155:31337', payload: 'x' },
      player.accessToken,
    )
    expect(response.body).toMatchObject({ confirmationRequired: true })
  })

  test('error: a decimal chainID or a payload that is not text is 400', async () => {
    for (const body of [
      { chainID: '31337', payload: 'x' },
      { chainID: 'eip155:31337', payload: { text: 'x' } },
    ]) {
      const response = await api.post(evaluate.erc191, body, player.accessToken)
      expect(response.status).toBe(400)
      expect(response.body).toEqual({
        code: 'VALIDATION_ERROR',
        message:
          'Expected { chainID, payload } with chainID eip155:<id of a chain of the emulator> and payload a string.',
        details: null,
      })
    }
  })
})

describe('approve', () => {
  async function pending(kind: 'transaction' | 'erc191' | 'message') {
    api.guardian.rules = {
      confirmAboveValue: 0n,
      confirmErc191: true,
      confirmTypedData: true,
    }
    const response =
      kind === 'transaction'
        ? await api.post(
            evaluate.transaction,
            transactionBody({ value: '1' }),
            player.accessToken,
          )
        : kind === 'erc191'
          ? await api.post(
              evaluate.erc191,
              { chainID: 'eip155:31337', payload: 'confirm me' },
              player.accessToken,
            )
          : await api.post(
              evaluate.message,
              { chainID: '31337', payload: typedData },
              player.accessToken,
            )
    const body = response.body as { transactionId?: string; messageId?: string }
    return (body.transactionId ?? body.messageId) as string
  }
  const evm = { chainType: 'evm' }

  test("default: the verdict's own player approves a transaction (204), which the relayer may then co-sign", async () => {
    const id = await pending('transaction')
    const response = await api.post(
      `/guardian/v1/transactions/${id}/approve`,
      evm,
      player.accessToken,
    )
    expect([response.status, response.text]).toEqual([204, ''])
    const verdict = api.guardian.get(id)
    expect(verdict?.state).toBe('allowed')
    expect(
      api.guardian.isAllowed({
        chainId: 31337,
        wallet,
        digest: verdict?.digest ?? '0x',
      }),
    ).toBe(true)
  })

  test('default: a transaction is approved by its payload hash too, on the chain chainID names', async () => {
    const id = await pending('transaction')
    const digest = api.guardian.get(id)?.digest as string
    const elsewhere = await api.post(
      `/guardian/v1/transactions/${digest}/approve`,
      { chainType: 'evm', chainID: 'eip155:1337' },
      player.accessToken,
    )
    expect([elsewhere.status, elsewhere.body]).toEqual([
      404,
      {
        code: 'RESOURCE_NOT_FOUND',
        message: `There is no evaluation ${digest}.`,
        details: null,
      },
    ])
    const response = await api.post(
      `/guardian/v1/transactions/${digest.toUpperCase().replace('0X', '0x')}/approve`,
      { chainType: 'evm', chainID: '31337' },
      player.accessToken,
    )
    expect(response.status).toBe(204)
    expect(api.guardian.get(id)?.state).toBe('allowed')
  })

  test('default: messages are approved on their routes: typed data and ERC-191 on /messages/, ERC-191 on /erc191-messages/ too', async () => {
    for (const [kind, route] of [
      ['message', 'messages'],
      ['erc191', 'messages'],
      ['erc191', 'erc191-messages'],
    ] as const) {
      const id = await pending(kind)
      const response = await api.post(
        `/guardian/v1/${route}/${id}/approve`,
        {},
        player.accessToken,
      )
      expect([kind, route, response.status]).toEqual([kind, route, 204])
      expect(api.guardian.get(id)?.state).toBe('allowed')
    }
    // With no body at all, too.
    const id = await pending('erc191')
    const bare = await api.request(
      'POST',
      `/guardian/v1/erc191-messages/${id}/approve`,
      { token: player.accessToken },
    )
    expect(bare.status).toBe(204)
  })

  test('error: a transaction approval without chainType evm, or with a chainID of no emulator chain, is 400; a message approval body must be an object', async () => {
    const id = await pending('transaction')
    const shape =
      "Expected { chainType: 'evm', chainID?, otp? } (chainID eip155:<id> or <id> of a chain of the emulator)."
    for (const body of [
      {},
      { chainType: 'evm', chainID: 'eip155:5' },
      { chainType: 'evm', chainID: 31337 },
      { chainType: 'evm', otp: 1 },
      [],
      'x',
    ]) {
      const response = await api.post(
        `/guardian/v1/transactions/${id}/approve`,
        body,
        player.accessToken,
      )
      expect([body, response.status, response.body]).toEqual([
        body,
        400,
        { code: 'VALIDATION_ERROR', message: shape, details: null },
      ])
    }
    const message = await pending('erc191')
    const notObject = await api.post(
      `/guardian/v1/messages/${message}/approve`,
      [1],
      player.accessToken,
    )
    expect([notObject.status, notObject.body]).toEqual([
      400,
      {
        code: 'VALIDATION_ERROR',
        message: 'The body, when sent, must be a JSON object.',
        details: null,
      },
    ])
    // A StarkEx approval names a payload hash: a zkEVM verdict's id is none.
    const starkEx = await api.post(
      `/guardian/v1/transactions/${id}/approve`,
      { chainType: 'starkex' },
      player.accessToken,
    )
    expect([starkEx.status, starkEx.body]).toEqual([
      403,
      {
        code: 'AUTHENTICATION_ERROR',
        message:
          'The player is not registered with StarkEx yet: register first.',
        details: null,
      },
    ])
    expect(api.guardian.get(id)?.state).toBe('pending')
    expect(api.guardian.get(message)?.state).toBe('pending')
  })

  const onlyThePage = {
    code: 'AUTHENTICATION_ERROR',
    message:
      'Only the confirmation page, or a program on this machine, may approve what the player must confirm.',
    details: null,
  }

  test("error: a page on another origin cannot skip the player's click: with the player's own token, its approval is refused and the verdict stays pending, by id or by payload hash", async () => {
    const transaction = await pending('transaction')
    const message = await pending('erc191')
    const digest = api.guardian.get(transaction)?.digest as string
    for (const headers of [
      { origin: 'https://evil.example' },
      // The dApp's own page, on a loopback origin, holds the token too.
      { origin: 'http://localhost:5173' },
      { origin: 'null' },
      // A browser that left Origin out still says where the call came from.
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      // The passport domain, but without the page's secret.
      { origin: api.passportOrigin },
    ])
      for (const path of [
        `/guardian/v1/transactions/${transaction}/approve`,
        `/guardian/v1/transactions/${digest}/approve`,
        `/guardian/v1/messages/${message}/approve`,
        `/guardian/v1/erc191-messages/${message}/approve`,
      ]) {
        const response = await api.request('POST', path, {
          body: evm,
          token: player.accessToken,
          headers,
        })
        expect({
          headers,
          path,
          status: response.status,
          body: response.body,
        }).toEqual({ headers, path, status: 403, body: onlyThePage })
      }
    expect(api.guardian.get(transaction)?.state).toBe('pending')
    expect(api.guardian.get(message)?.state).toBe('pending')
  })

  test("default: the confirmation page's own flow approves: the passport domain's origin with the verdict's secret", async () => {
    const id = await pending('transaction')
    const other = await pending('transaction')
    const approve = (secret: string) =>
      api.request('POST', `/guardian/v1/transactions/${id}/approve`, {
        body: { ...evm, secret },
        token: player.accessToken,
        headers: { origin: api.passportOrigin },
      })
    const wrong = await approve(api.guardian.secretOf(other))
    expect([wrong.status, wrong.body]).toEqual([403, onlyThePage])
    const fromElsewhere = await api.request(
      'POST',
      `/guardian/v1/transactions/${id}/approve`,
      {
        body: { ...evm, secret: api.guardian.secretOf(id) },
        token: player.accessToken,
        headers: { origin: 'https://evil.example' },
      },
    )
    expect([fromElsewhere.status, fromElsewhere.body]).toEqual([
      403,
      onlyThePage,
    ])
    expect(api.guardian.get(id)?.state).toBe('pending')
    const right = await approve(api.guardian.secretOf(id))
    expect(right.status).toBe(204)
    expect(api.guardian.get(id)?.state).toBe('allowed')
    expect(api.guardian.get(other)?.state).toBe('pending')
  })

  test('behavior: an evaluation that asked nothing has nothing to settle: any caller is answered 204', async () => {
    api.guardian.rules = {}
    const response = await api.post(
      evaluate.transaction,
      transactionBody(),
      player.accessToken,
    )
    const id = (response.body as { transactionId: string }).transactionId
    const approved = await api.request(
      'POST',
      `/guardian/v1/transactions/${id}/approve`,
      {
        body: evm,
        token: player.accessToken,
        headers: { origin: 'https://evil.example' },
      },
    )
    expect(approved.status).toBe(204)
    expect(api.guardian.get(id)?.state).toBe('allowed')
  })

  test("error: another player cannot approve (403), and the verdict stays pending; their payload-hash lookup finds none of another's", async () => {
    const id = await pending('transaction')
    const other = await api.player()
    await api.register(other)
    const response = await api.post(
      `/guardian/v1/transactions/${id}/approve`,
      evm,
      other.accessToken,
    )
    expect([response.status, response.body]).toEqual([
      403,
      {
        code: 'AUTHENTICATION_ERROR',
        message: "The evaluation is about another player's wallet.",
        details: null,
      },
    ])
    const digest = api.guardian.get(id)?.digest as string
    const byHash = await api.post(
      `/guardian/v1/transactions/${digest}/approve`,
      evm,
      other.accessToken,
    )
    expect(byHash.status).toBe(404)
    expect(api.guardian.get(id)?.state).toBe('pending')
  })

  test('error: an unknown id, or one of the other kind, is 404', async () => {
    const tx = await pending('transaction')
    const message = await pending('message')
    const erc191 = await pending('erc191')
    for (const path of [
      '/guardian/v1/transactions/nope/approve',
      `/guardian/v1/messages/${tx}/approve`,
      `/guardian/v1/transactions/${message}/approve`,
      `/guardian/v1/erc191-messages/${message}/approve`,
      `/guardian/v1/erc191-messages/${tx}/approve`,
      `/guardian/v1/transactions/${erc191}/approve`,
    ]) {
      const response = await api.post(path, evm, player.accessToken)
      expect([path, response.status]).toEqual([path, 404])
      expect(response.body).toMatchObject({ code: 'RESOURCE_NOT_FOUND' })
    }
  })

  test('error: a rejected verdict cannot be approved (409); without a token it is 401', async () => {
    const id = await pending('transaction')
    api.guardian.settle(id, 'rejected')
    const response = await api.post(
      `/guardian/v1/transactions/${id}/approve`,
      evm,
      player.accessToken,
    )
    expect([response.status, response.body]).toEqual([
      409,
      {
        code: 'CONFLICT_ERROR',
        message: 'The evaluation was rejected already.',
        details: null,
      },
    ])
    const anonymous = await api.post(
      `/guardian/v1/transactions/${id}/approve`,
      evm,
    )
    expect(anonymous.status).toBe(401)
  })
})

describe('GET the guardian records', () => {
  test('default: a transaction by id or by payload hash: its wallet, state and the evaluation as received', async () => {
    api.guardian.rules = { confirmAboveValue: 0n }
    const body = transactionBody({ value: '1' })
    const evaluated = await api.post(
      evaluate.transaction,
      body,
      player.accessToken,
    )
    const id = (evaluated.body as { transactionId: string }).transactionId
    const digest = api.guardian.get(id)?.digest as string
    const expected = {
      id,
      eth_address: wallet,
      status: 'pending',
      transaction_type: 'evm',
      version: '1',
      transaction_metadata: body,
    }
    for (const path of [
      `/guardian/v1/transactions/${id}?chainType=evm`,
      `/guardian/v1/transactions/${id}?chainType=evm&chainID=eip155:31337`,
      `/guardian/v1/transactions/${digest}?chainType=evm&chainID=31337`,
      `/guardian/v1/transactions/${digest}?chainType=evm`,
    ]) {
      const response = await api.get(path, player.accessToken)
      expect([path, response.status, response.body]).toEqual([
        path,
        200,
        expected,
      ])
    }
    api.guardian.settle(id, 'rejected')
    const after = await api.get(
      `/guardian/v1/transactions/${id}?chainType=evm`,
      player.accessToken,
    )
    expect(after.body).toEqual({ ...expected, status: 'rejected' })
  })

  test('default: typed data and ERC-191 messages by id, each on its own route', async () => {
    api.guardian.rules = {}
    const typed = await api.post(
      evaluate.message,
      { chainID: '31337', payload: typedData },
      player.accessToken,
    )
    const typedId = (typed.body as { messageId: string }).messageId
    const text = await api.post(
      evaluate.erc191,
      { chainID: 'eip155:31337', payload: 'hello there' },
      player.accessToken,
    )
    const textId = (text.body as { messageId: string }).messageId
    const message = await api.get(
      `/guardian/v1/messages/${typedId}`,
      player.accessToken,
    )
    expect([message.status, message.body]).toEqual([
      200,
      {
        id: typedId,
        eth_address: wallet,
        status: 'allowed',
        version: '1',
        data: typedData,
      },
    ])
    const erc191 = await api.get(
      `/guardian/v1/erc191-messages/${textId}`,
      player.accessToken,
    )
    expect([erc191.status, erc191.body]).toEqual([
      200,
      {
        id: textId,
        eth_address: wallet,
        status: 'allowed',
        version: '1',
        data: 'hello there',
      },
    ])
    // By payload hash: the EIP-191 hash of the text.
    const byHash = await api.get(
      `/guardian/v1/erc191-messages/${hashMessage('hello there')}`,
      player.accessToken,
    )
    expect(byHash.body).toMatchObject({ id: textId })
    for (const path of [
      `/guardian/v1/messages/${textId}`,
      `/guardian/v1/erc191-messages/${typedId}`,
      `/guardian/v1/transactions/${typedId}?chainType=evm`,
    ]) {
      const response = await api.get(path, player.accessToken)
      expect([path, response.status]).toEqual([path, 404])
    }
  })

  test("error: another player's record is 403; chainType must be evm, chainID a chain of the emulator and match", async () => {
    api.guardian.rules = {}
    const evaluated = await api.post(
      evaluate.transaction,
      transactionBody(),
      player.accessToken,
    )
    const id = (evaluated.body as { transactionId: string }).transactionId
    const other = await api.player()
    await api.register(other)
    const theirs = await api.get(
      `/guardian/v1/transactions/${id}?chainType=evm`,
      other.accessToken,
    )
    expect([theirs.status, theirs.body]).toEqual([
      403,
      {
        code: 'AUTHENTICATION_ERROR',
        message: "The evaluation is about another player's wallet.",
        details: null,
      },
    ])
    for (const [query, status, message] of [
      ['', 400, "chainType must be 'evm' or 'starkex'."],
      ['?chainType=solana', 400, "chainType must be 'evm' or 'starkex'."],
      [
        '?chainType=evm&chainID=5',
        400,
        'chainID must be the id of a chain of the emulator (eip155:<id> or <id>).',
      ],
      ['?chainType=evm&chainID=1337', 404, `There is no evaluation ${id}.`],
    ] as const) {
      const response = await api.get(
        `/guardian/v1/transactions/${id}${query}`,
        player.accessToken,
      )
      expect([query, response.status, response.body]).toEqual([
        query,
        status,
        {
          code: status === 400 ? 'VALIDATION_ERROR' : 'RESOURCE_NOT_FOUND',
          message,
          details: null,
        },
      ])
    }
    const anonymous = await api.get(
      `/guardian/v1/transactions/${id}?chainType=evm`,
    )
    expect(anonymous.status).toBe(401)
  })
})

describe('/dev/guardian/rules', () => {
  test('default: all rules off', async () => {
    const response = await api.get('/dev/guardian/rules')
    expect(response.body).toEqual({
      confirmAboveValue: null,
      confirmUnknownContracts: false,
      knownContracts: [],
      confirmTypedData: false,
      confirmErc191: false,
      confirmStarkEx: [],
      unavailable: false,
    })
  })

  test('behavior: PUT replaces the rules, values as decimal strings, and evaluations follow them', async () => {
    const put = await api.put('/dev/guardian/rules', {
      confirmAboveValue: '1000000000000000000000',
      knownContracts: [token.toLowerCase()],
      confirmUnknownContracts: true,
    })
    const expected = {
      confirmAboveValue: '1000000000000000000000',
      confirmUnknownContracts: true,
      knownContracts: [getAddress(token)],
      confirmTypedData: false,
      confirmErc191: false,
      confirmStarkEx: [],
      unavailable: false,
    }
    expect(put.body).toEqual(expected)
    expect((await api.get('/dev/guardian/rules')).body).toEqual(expected)
    expect(api.guardian.rules.confirmAboveValue).toBe(10n ** 21n)
    const evaluated = await api.post(
      evaluate.transaction,
      transactionBody({ value: '1000000000000000000001' }),
      player.accessToken,
    )
    expect(evaluated.body).toMatchObject({ confirmationRequired: true })
    await api.put('/dev/guardian/rules', {})
    expect(api.guardian.rules).toEqual({})
  })

  test("behavior: ?wallet= sets one wallet's rules, which replace the global ones for it only; a null body removes them", async () => {
    const other = await api.register(await api.player())
    const path = `/dev/guardian/rules?wallet=${wallet.toLowerCase()}`
    const put = await api.put(path, { unavailable: true })
    expect(put.status).toBe(200)
    expect((await api.get(path)).body).toMatchObject({ unavailable: true })
    expect((await api.get('/dev/guardian/rules')).body).toMatchObject({
      unavailable: false,
    })
    expect(api.guardian.rulesFor(other)).toEqual({})
    const erc191 = { chainID: 'eip155:31337', payload: 'hi' }
    expect(
      (await api.post(evaluate.erc191, erc191, player.accessToken)).status,
    ).toBe(403)
    // The global rules do not reach a wallet with rules of its own.
    api.guardian.rules = { confirmErc191: true }
    expect(api.guardian.rulesFor(wallet)).toEqual({ unavailable: true })
    expect(api.guardian.rulesFor(other)).toEqual({ confirmErc191: true })
    expect((await api.put(path, null)).status).toBe(200)
    expect(api.guardian.rulesFor(wallet)).toEqual({ confirmErc191: true })
    expect(
      (await api.post(evaluate.erc191, erc191, player.accessToken)).body,
    ).toMatchObject({ confirmationRequired: true })
    const bad = await api.put('/dev/guardian/rules?wallet=0x12', {})
    expect(bad).toMatchObject({
      status: 400,
      body: {
        code: 'VALIDATION_ERROR',
        message: 'wallet must be an address.',
        details: null,
      },
    })
  })

  test('error: an invalid or unknown rule is 400 and changes nothing', async () => {
    api.guardian.rules = { confirmErc191: true }
    for (const [body, message] of [
      [[], 'Expected a JSON object of rules.'],
      [
        { confirmAboveValue: 5 },
        'confirmAboveValue must be a decimal string of wei, or null.',
      ],
      [{ confirmTypedData: 'yes' }, 'confirmTypedData must be a boolean.'],
      [{ knownContracts: ['0x1'] }, 'knownContracts must hold addresses only.'],
      [
        { confirmAll: true },
        'Unknown rules: confirmAll. Known: confirmAboveValue, confirmUnknownContracts, knownContracts, confirmTypedData, confirmErc191, confirmStarkEx, unavailable.',
      ],
    ] as const) {
      const response = await api.put('/dev/guardian/rules', body)
      expect(response.status).toBe(400)
      expect(response.body).toEqual({
        code: 'VALIDATION_ERROR',
        message,
        details: null,
      })
    }
    expect(api.guardian.rules).toEqual({ confirmErc191: true })
  })

  test('error: a page on another origin, or a form post, cannot reach the rules', async () => {
    const evil = await api.request('PUT', '/dev/guardian/rules', {
      body: { unavailable: true },
      headers: { origin: 'https://evil.example' },
    })
    expect(evil.status).toBe(403)
    const read = await api.request('GET', '/dev/guardian/rules', {
      headers: { origin: 'https://evil.example' },
    })
    expect(read.status).toBe(403)
    const form = await api.request('PUT', '/dev/guardian/rules', {
      body: '{"unavailable":true}',
      headers: { 'content-type': 'text/plain' },
    })
    expect(form.status).toBe(415)
    expect(api.guardian.rules).toEqual({})
  })
})

describe('StarkEx', () => {
  /** A player registered with the exchange: their `imx_eth_address`. */
  async function starkExPlayer() {
    const starkEx = await api.player()
    const custody = await api.custody(starkEx)
    api.registry.setPassport(starkEx.user.id, {
      imxEthAddress: custody.address,
      imxUserAdminAddress: custody.address,
      imxStarkAddress: `0x${'5'.repeat(64)}`,
    })
    return { ...starkEx, imx: custody.address }
  }
  let alice: Player & { imx: Address }
  let bob: Player & { imx: Address }
  beforeAll(async () => {
    alice = await starkExPlayer()
    bob = await starkExPlayer()
  })

  const batchDetails = {
    sender_ether_key: '0x0000000000000000000000000000000000000abc',
    signable_requests: [
      {
        amount: '1',
        token: {
          type: 'ERC721',
          data: { token_id: '7', token_address: token },
        },
        receiver: '0x0000000000000000000000000000000000000def',
      },
    ],
  }
  let counter = 0
  /**
   * Registers a request as the exchange does when it answers a signable
   * request; returns its payload hash as the exchange prints it.
   */
  function register(
    wallet: Address,
    type: StarkExType = 'batchNftTransfer',
    details: unknown = batchDetails,
  ): string {
    const payloadHash = `${(++counter).toString(16)}${Date.now().toString(16)}a0b1c2d3e4f5061728394a5b6c7d8e9f`
    api.guardian.registerStarkEx({ payloadHash, wallet, type, details })
    return payloadHash
  }
  const starkex = { chainType: 'starkex' }
  const record = (hash: string) =>
    `/guardian/v1/transactions/${hash}?chainType=starkex`
  const evaluateStarkEx = (hash: string, token: string, body = starkex) =>
    api.post(`/guardian/v1/transactions/${hash}/evaluate`, body, token)
  const approveStarkEx = (
    hash: string,
    token: string,
    headers: Record<string, string> = {},
    body: unknown = starkex,
  ) =>
    api.request('POST', `/guardian/v1/transactions/${hash}/approve`, {
      body,
      token,
      headers,
    })

  test('default: GET answers the registered request by its payload hash, in any case and with 0x, as a Transaction of its own player', async () => {
    const hash = register(alice.imx, 'batchNftTransfer')
    const expected = {
      id: hash,
      eth_address: alice.imx,
      status: 'unevaluated',
      transaction_type: 'starkex',
      version: '1',
      transaction_metadata: { type: 'batchNftTransfer', details: batchDetails },
    }
    for (const id of [hash, `0x${hash.toUpperCase()}`, `0x000${hash}`]) {
      const response = await api.get(record(id), alice.accessToken)
      expect([id, response.status, response.body]).toEqual([id, 200, expected])
    }
    await evaluateStarkEx(hash, alice.accessToken)
    expect((await api.get(record(hash), alice.accessToken)).body).toEqual({
      ...expected,
      status: 'allowed',
    })
  })

  test('default: with no rule an evaluation is allowed, recorded under the payload hash on no chain, and the exchange may create it', async () => {
    const hash = register(alice.imx, 'transfer', { amount: '5' })
    const response = await evaluateStarkEx(
      `0x${hash.toUpperCase()}`,
      alice.accessToken,
    )
    expect([response.status, response.body]).toEqual([
      200,
      {
        confirmationRequired: false,
        confirmationMethod: 'web',
        transactionId: hash,
      },
    ])
    const verdict = api.guardian.find({
      wallet: alice.imx,
      digest: starkExDigest(hash),
      kinds: ['starkex'],
    })
    expect(verdict).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      kind: 'starkex',
      chainId: starkExChainId,
      wallet: alice.imx,
      digest: `0x${hash}`,
      state: 'allowed',
      payload: {
        payloadHash: hash,
        wallet: alice.imx,
        type: 'transfer',
        details: { amount: '5' },
      },
    })
    expect(
      api.guardian.isAllowed({
        chainId: starkExChainId,
        wallet: alice.imx,
        digest: starkExDigest(hash),
      }),
    ).toBe(true)
  })

  test('behavior: confirmStarkEx asks to confirm the types it lists only; the confirmation page approves a pending one, which the exchange may then create', async () => {
    api.guardian.rules = { confirmStarkEx: ['batchNftTransfer'] }
    const transfer = register(alice.imx, 'transfer', { amount: '5' })
    expect((await evaluateStarkEx(transfer, alice.accessToken)).body).toEqual({
      confirmationRequired: false,
      confirmationMethod: 'web',
      transactionId: transfer,
    })
    const hash = register(alice.imx, 'batchNftTransfer')
    const evaluated = await evaluateStarkEx(hash, alice.accessToken)
    expect(evaluated.body).toEqual({
      confirmationRequired: true,
      confirmationMethod: 'web',
      transactionId: hash,
    })
    const allowed = () =>
      api.guardian.isAllowed({
        chainId: starkExChainId,
        wallet: alice.imx,
        digest: starkExDigest(hash),
      })
    expect(allowed()).toBe(false)
    expect((await api.get(record(hash), alice.accessToken)).body).toMatchObject(
      { status: 'pending' },
    )
    const verdict = api.guardian.find({
      wallet: alice.imx,
      digest: starkExDigest(hash),
      kinds: ['starkex'],
    })
    if (!verdict) throw new Error('No verdict.')
    // The dApp's page holds the token too: neither it nor the passport
    // domain without the page's secret may stand for the player's click.
    for (const headers of [
      { origin: 'http://localhost:5173' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: api.passportOrigin },
    ]) {
      const refused = await approveStarkEx(hash, alice.accessToken, headers)
      expect([headers, refused.status, refused.body]).toEqual([
        headers,
        403,
        {
          code: 'AUTHENTICATION_ERROR',
          message:
            'Only the confirmation page, or a program on this machine, may approve what the player must confirm.',
          details: null,
        },
      ])
    }
    expect(verdict.state).toBe('pending')
    const approved = await approveStarkEx(
      `0x${hash}`,
      alice.accessToken,
      { origin: api.passportOrigin },
      { ...starkex, secret: api.guardian.secretOf(verdict.id) },
    )
    expect([approved.status, approved.text]).toEqual([204, ''])
    expect(verdict.state).toBe('allowed')
    expect(allowed()).toBe(true)
    expect((await api.get(record(hash), alice.accessToken)).body).toMatchObject(
      { status: 'allowed' },
    )
  })

  test('behavior: the confirmation page on the passport domain settles what the evaluation left pending', async () => {
    api.guardian.rules = { confirmStarkEx: ['batchNftTransfer'] }
    const port = await findFreePort()
    const origin = `http://127.0.0.1:${port}`
    const pages = createConfirmationApp({ origin, guardian: api.guardian })
    const server = await startServer({ fetch: pages.fetch, port })
    try {
      const hash = register(alice.imx)
      await evaluateStarkEx(hash, alice.accessToken)
      const html = await (
        await fetch(
          `${origin}/transaction-confirmation/transaction?transactionId=${hash}&etherAddress=${alice.imx}&chainType=starkex`,
        )
      ).text()
      const state = JSON.parse(
        /id="confirmation-state">(.*?)<\/script>/s.exec(html)?.[1] ?? '{}',
      ) as { id: string; secret: string }
      const settled = await fetch(`${origin}${settlePath}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify({ ...state, decision: 'approve' }),
      })
      expect(settled.status).toBe(200)
      expect(
        api.guardian.isAllowed({
          chainId: starkExChainId,
          wallet: alice.imx,
          digest: starkExDigest(hash),
        }),
      ).toBe(true)
      expect(
        (await api.get(record(hash), alice.accessToken)).body,
      ).toMatchObject({ status: 'allowed' })
    } finally {
      await server.stop()
    }
  })

  test("behavior: a wallet's own rules (by its imx_eth_address) decide for its requests; unavailable is 403", async () => {
    await api.put(`/dev/guardian/rules?wallet=${bob.imx}`, {
      confirmStarkEx: ['order', 'trade'],
    })
    const order = register(bob.imx, 'order', {})
    expect((await evaluateStarkEx(order, bob.accessToken)).body).toMatchObject({
      confirmationRequired: true,
    })
    const theirs = register(alice.imx, 'order', {})
    expect(
      (await evaluateStarkEx(theirs, alice.accessToken)).body,
    ).toMatchObject({ confirmationRequired: false })
    api.guardian.setWalletRules(bob.imx, { unavailable: true })
    const response = await evaluateStarkEx(order, bob.accessToken)
    expect([response.status, response.body]).toEqual([
      403,
      {
        code: 'AUTHENTICATION_ERROR',
        message: 'The guardian is unavailable.',
        details: null,
      },
    ])
  })

  test("error: another player's request is 403 on every route, and its verdict stays pending", async () => {
    api.guardian.rules = { confirmStarkEx: ['batchNftTransfer'] }
    const hash = register(alice.imx)
    await evaluateStarkEx(hash, alice.accessToken)
    const foreign = {
      code: 'AUTHENTICATION_ERROR',
      message: "The StarkEx request is about another player's wallet.",
      details: null,
    }
    for (const response of [
      await api.get(record(hash), bob.accessToken),
      await evaluateStarkEx(hash, bob.accessToken),
      await approveStarkEx(hash, bob.accessToken),
    ])
      expect([response.status, response.body]).toEqual([403, foreign])
    expect(
      api.guardian.find({
        wallet: alice.imx,
        digest: starkExDigest(hash),
        kinds: ['starkex'],
      })?.state,
    ).toBe('pending')
  })

  test('error: an unknown payload hash, or an id that is none, is 404 on every route; an unevaluated one cannot be approved', async () => {
    for (const id of ['abc123', 'not-a-hash', `0x${'f'.repeat(65)}`]) {
      const message = `There is no StarkEx request ${id}.`
      for (const response of [
        await api.get(record(id), alice.accessToken),
        await evaluateStarkEx(id, alice.accessToken),
        await approveStarkEx(id, alice.accessToken),
      ])
        expect([id, response.status, response.body]).toEqual([
          id,
          404,
          { code: 'RESOURCE_NOT_FOUND', message, details: null },
        ])
    }
    const hash = register(alice.imx)
    const response = await approveStarkEx(hash, alice.accessToken)
    expect([response.status, response.body]).toEqual([
      404,
      {
        code: 'RESOURCE_NOT_FOUND',
        message: `The StarkEx request ${hash} has not been evaluated.`,
        details: null,
      },
    ])
  })

  test('error: a rejected verdict cannot be approved (409); a malformed body is 400; a player not registered with StarkEx is 403, none 401', async () => {
    api.guardian.rules = { confirmStarkEx: ['cancelOrder'] }
    const hash = register(alice.imx, 'cancelOrder', { order_id: 5 })
    await evaluateStarkEx(hash, alice.accessToken)
    const verdict = api.guardian.find({
      wallet: alice.imx,
      digest: starkExDigest(hash),
      kinds: ['starkex'],
    })
    api.guardian.settle(verdict?.id ?? '', 'rejected')
    const rejected = await approveStarkEx(hash, alice.accessToken)
    expect([rejected.status, rejected.body]).toEqual([
      409,
      {
        code: 'CONFLICT_ERROR',
        message: 'The evaluation was rejected already.',
        details: null,
      },
    ])
    for (const body of [
      { chainType: 'starkex', chainId: 5 },
      { chainType: 'evm' },
      [],
    ]) {
      const response = await evaluateStarkEx(
        hash,
        alice.accessToken,
        body as typeof starkex,
      )
      expect([body, response.status, response.body]).toEqual([
        body,
        400,
        {
          code: 'VALIDATION_ERROR',
          message:
            "Expected { chainType: 'starkex', chainId? } (zkEVM transactions are evaluated at /guardian/v1/transactions/evm/evaluate).",
          details: null,
        },
      ])
    }
    const badApproval = await approveStarkEx(
      hash,
      alice.accessToken,
      {},
      {
        chainType: 'starkex',
        otp: 1,
      },
    )
    expect([badApproval.status, badApproval.body]).toEqual([
      400,
      {
        code: 'VALIDATION_ERROR',
        message: "Expected { chainType: 'starkex', chainID?, otp? } (strings).",
        details: null,
      },
    ])
    const unregistered = {
      code: 'AUTHENTICATION_ERROR',
      message: 'The player is not registered with StarkEx yet: register first.',
      details: null,
    }
    for (const response of [
      await api.get(record(hash), player.accessToken),
      await evaluateStarkEx(hash, player.accessToken),
      await approveStarkEx(hash, player.accessToken),
    ])
      expect([response.status, response.body]).toEqual([403, unregistered])
    for (const response of [
      await api.get(record(hash)),
      await api.post(`/guardian/v1/transactions/${hash}/evaluate`, starkex),
    ])
      expect(response.status).toBe(401)
  })

  test('behavior: the rules route takes confirmStarkEx (StarkEx types only, kept once each in order)', async () => {
    const put = await api.put('/dev/guardian/rules', {
      confirmStarkEx: ['trade', 'transfer', 'trade'],
    })
    expect([put.status, put.body]).toMatchObject([
      200,
      { confirmStarkEx: ['transfer', 'trade'] },
    ])
    expect(api.guardian.rules).toEqual({
      confirmStarkEx: ['transfer', 'trade'],
    })
    for (const confirmStarkEx of [
      'transfer',
      ['withdrawal'],
      [1],
      ['transfer', 'transfer', 'transfer', 'transfer', 'transfer', 'transfer'],
    ]) {
      const response = await api.put('/dev/guardian/rules', { confirmStarkEx })
      expect([confirmStarkEx, response.status, response.body]).toEqual([
        confirmStarkEx,
        400,
        {
          code: 'VALIDATION_ERROR',
          message:
            'confirmStarkEx must be an array of StarkEx request types: transfer, batchNftTransfer, order, cancelOrder, trade.',
          details: null,
        },
      ])
    }
    expect(api.guardian.rules).toEqual({
      confirmStarkEx: ['transfer', 'trade'],
    })
  })
})

describe('mustConfirm', () => {
  const tx = {
    delegateCall: false,
    revertOnError: true,
    gasLimit: 0n,
    target: token,
    value: 6n,
    data: '0x' as const,
  }

  test('behavior: values are summed over the batch', () => {
    expect(mustConfirm({ confirmAboveValue: 11n }, [tx, tx])).toBe(true)
    expect(mustConfirm({ confirmAboveValue: 12n }, [tx, tx])).toBe(false)
  })

  test('behavior: with no rules nothing needs confirming', () => {
    expect(mustConfirm({}, [{ ...tx, data: transfer }])).toBe(false)
    expect(mustConfirm({}, [{ ...tx, delegateCall: true }])).toBe(false)
  })

  test('behavior: a delegateCall to an unknown contract needs confirming, with data or without', () => {
    const rules = { confirmUnknownContracts: true }
    expect(mustConfirm(rules, [tx])).toBe(false)
    expect(mustConfirm(rules, [{ ...tx, delegateCall: true }])).toBe(true)
    expect(
      mustConfirm(rules, [{ ...tx, delegateCall: true, data: transfer }]),
    ).toBe(true)
    expect(
      mustConfirm({ ...rules, knownContracts: [token] }, [
        { ...tx, delegateCall: true },
      ]),
    ).toBe(false)
  })
})
