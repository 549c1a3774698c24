import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { transactionsDigest } from '../../../passport/wire/sequence.js'
import {
  createGuardian,
  erc191Digest,
  type Guardian,
  type StarkExType,
  starkExChainId,
  starkExDigest,
} from '../../guardian.js'
import { findFreePort } from '../../net.js'
import { startServer } from '../../server.js'
import { settlePath, statePath } from './pages.js'
import { createConfirmationApp } from './service.js'

const wallet = '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf'
const target = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
let guardian: Guardian
let origin: string
let stop: () => Promise<void>

beforeAll(async () => {
  guardian = createGuardian()
  const port = await findFreePort()
  origin = `http://127.0.0.1:${port}`
  const app = createConfirmationApp({ origin, guardian })
  const server = await startServer({
    fetch: app.fetch,
    port,
    localOnly: ['/dev/'],
  })
  stop = server.stop
})
afterAll(() => stop())

function pending(kind: 'erc191' | 'transaction' = 'erc191') {
  return guardian.record({
    kind,
    chainId: 31337,
    wallet,
    digest: erc191Digest('hello'),
    payload: 'hello',
    state: 'pending',
  })
}

function messagePage(id: string, messageType = 'erc191') {
  return `${origin}/transaction-confirmation/zkevm/message?messageID=${id}&etherAddress=${wallet}&messageType=${messageType}`
}

/** The page's state block (its JSON data) and its CSP nonce. */
async function openPage(url: string) {
  const response = await fetch(url)
  const html = await response.text()
  const state = JSON.parse(
    /<script type="application\/json" id="confirmation-state">(.*?)<\/script>/s.exec(
      html,
    )?.[1] ?? 'null',
  )
  const nonce = /<script nonce="([^"]+)">/.exec(html)?.[1]
  return { response, html, state, nonce }
}

function settle(body: unknown, headers: Record<string, string> = {}) {
  return fetch(origin + settlePath, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

describe('confirmation pages', () => {
  test('default: a pending message page carries its secret, a nonce CSP and no framing', async () => {
    const verdict = pending()
    const { response, html, state, nonce } = await openPage(
      messagePage(verdict.id),
    )
    expect(response.status).toBe(200)
    expect(html).toContain('<title>Confirm this transaction</title>')
    expect(html).toContain('data-testid="confirmation-message">hello</pre>')
    expect(state).toEqual({
      prefix: 'message',
      id: verdict.id,
      secret: expect.stringMatching(/^[0-9a-f]{64}$/),
    })
    expect(response.headers.get('content-security-policy')).toBe(
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    )
    expect(response.headers.get('x-frame-options')).toBe('DENY')
    expect(response.headers.get('cache-control')).toBe('no-store')
    // No CORS: another origin cannot read the page (and its secret).
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
  })

  test('behavior: an unknown id, another wallet or another kind get the error state, with no secret', async () => {
    const verdict = pending()
    const unknown = await openPage(messagePage(crypto.randomUUID()))
    const eip712 = await openPage(messagePage(verdict.id, 'eip712'))
    const transaction = await openPage(
      `${origin}/transaction-confirmation/zkevm/transaction?transactionID=${verdict.id}&etherAddress=${wallet}&chainType=evm&chainID=eip155:31337`,
    )
    expect([unknown.state, eip712.state, transaction.state]).toEqual([
      { prefix: 'message', error: 'This request is unknown or has expired.' },
      { prefix: 'message', error: 'This request is unknown or has expired.' },
      {
        prefix: 'transaction',
        error: 'This request is unknown or has expired.',
      },
    ])
    const other = await openPage(
      messagePage(verdict.id).replace(wallet, target),
    )
    expect(other.state.error).toBe('This request is for another wallet.')
    expect(other.html).not.toMatch(/[0-9a-f]{64}/)
  })

  test('behavior: the transaction page says plainly which call is a delegateCall', async () => {
    const call = {
      revertOnError: true,
      gasLimit: '0',
      target,
      value: '0',
      data: '0x',
    }
    const verdict = guardian.record({
      kind: 'transaction',
      chainId: 31337,
      wallet,
      digest: erc191Digest('delegate'),
      payload: {
        transactionData: {
          nonce: '0',
          metaTransactions: [
            { ...call, delegateCall: false },
            { ...call, delegateCall: true },
          ],
        },
      },
      state: 'pending',
    })
    const { html } = await openPage(
      `${origin}/transaction-confirmation/zkevm/transaction?transactionID=${verdict.id}&etherAddress=${wallet}&chainType=evm&chainID=eip155:31337`,
    )
    const kinds = [
      ...html.matchAll(/data-testid="confirmation-call-kind"[^>]*>([^<]*)</g),
    ].map((match) => match[1])
    expect(kinds).toEqual([
      'Call',
      "delegateCall: this contract's code runs as your wallet, with everything it holds",
    ])
    expect(html).toContain(
      'data-testid="confirmation-delegate-call">This transaction makes a delegateCall.',
    )
    const plain = guardian.record({
      kind: 'transaction',
      chainId: 31337,
      wallet,
      digest: erc191Digest('plain'),
      payload: {
        transactionData: {
          nonce: '0',
          metaTransactions: [{ ...call, delegateCall: false }],
        },
      },
      state: 'pending',
    })
    const page = await openPage(
      `${origin}/transaction-confirmation/zkevm/transaction?transactionID=${plain.id}&etherAddress=${wallet}&chainType=evm&chainID=eip155:31337`,
    )
    expect(page.html).not.toContain('delegateCall')
  })

  test('behavior: text is escaped in the page', async () => {
    const verdict = guardian.record({
      kind: 'erc191',
      chainId: 31337,
      wallet,
      digest: erc191Digest('x'),
      payload: '</script><script>alert(1)</script>',
      state: 'pending',
    })
    const { html } = await openPage(messagePage(verdict.id))
    expect(html).toContain(
      '&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;',
    )
    expect(html).not.toContain('<script>alert(1)')
  })
})

describe('the StarkEx confirmation page', () => {
  let count = 0
  /** A StarkEx request registered and evaluated pending, as the services do. */
  function pendingStarkEx(type: StarkExType, details: unknown) {
    const payloadHash = `${(++count).toString(16)}f00d${Date.now().toString(16)}`
    guardian.registerStarkEx({ payloadHash, wallet, type, details })
    const verdict = guardian.record({
      kind: 'starkex',
      chainId: starkExChainId,
      wallet,
      digest: starkExDigest(payloadHash),
      payload: guardian.starkExTransaction(payloadHash),
      state: 'pending',
    })
    return { payloadHash, verdict }
  }
  const starkExPage = (hash: string, query = '&chainType=starkex') =>
    `${origin}/transaction-confirmation/transaction?transactionId=${hash}&etherAddress=${wallet}${query}`
  const erc721 = (id: string) => ({
    type: 'ERC721',
    data: { token_id: id, token_address: target },
  })
  /** The page's rows as [label, value] pairs, tags dropped. */
  const rowsOf = (html: string) =>
    [...html.matchAll(/<dt>(.*?)<\/dt><dd[^>]*>(.*?)<\/dd>/g)].map((m) => [
      m[1],
      m[2],
    ])

  test('default: a batch NFT transfer in words, with its secret, a nonce CSP and no framing', async () => {
    const { payloadHash, verdict } = pendingStarkEx('batchNftTransfer', {
      sender_ether_key: wallet,
      signable_requests: [
        { amount: '1', token: erc721('7'), receiver: target },
        { amount: '1', token: erc721('8'), receiver: wallet },
      ],
    })
    const { response, html, state, nonce } = await openPage(
      starkExPage(`0x${payloadHash.toUpperCase()}`),
    )
    expect(response.status).toBe(200)
    expect(html).toContain('<title>Confirm this transaction</title>')
    expect(html).toContain('<p>Transfer of NFTs: confirm this transaction?</p>')
    expect(rowsOf(html)).toEqual([
      ['Request', 'Transfer of NFTs'],
      ['From', wallet],
      ['NFT 1 of 2', `NFT #7 of collection ${target}`],
      ['To', target],
      ['NFT 2 of 2', `NFT #8 of collection ${target}`],
      ['To', wallet],
    ])
    expect(html).toMatch(/data-testid="confirmation-approve" disabled>Confirm</)
    expect(state).toEqual({
      prefix: 'transaction',
      id: verdict.id,
      secret: guardian.secretOf(verdict.id),
    })
    expect(response.headers.get('content-security-policy')).toBe(
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    )
    expect(response.headers.get('x-frame-options')).toBe('DENY')
    expect(response.headers.get('cache-control')).toBe('no-store')
  })

  test('behavior: transfers, orders, cancels and trades show their tokens, amounts in base units, parties and fees', async () => {
    const eth = { type: 'ETH', data: { decimals: 18 } }
    const usdc = { type: 'ERC20', data: { token_address: target, decimals: 6 } }
    for (const [type, details, rows] of [
      [
        'transfer',
        {
          sender: wallet,
          token: eth,
          amount: '1500000000000000000',
          receiver: target,
        },
        [
          ['Request', 'Transfer'],
          ['From', wallet],
          ['To', target],
          ['Amount', '1500000000000000000 wei (1.5 ETH)'],
        ],
      ],
      [
        'order',
        {
          user: wallet,
          amount_sell: '1',
          token_sell: erc721('3'),
          amount_buy: '2500000',
          token_buy: usdc,
          fees: [{ address: target, fee_percentage: 2.5 }],
          expiration_timestamp: '2026-12-01T00:00:00Z',
        },
        [
          ['Request', 'Create an order'],
          ['From', wallet],
          ['You sell', `NFT #3 of collection ${target}`],
          ['You buy', `2500000 base units of ERC-20 ${target} (2.5 tokens)`],
          ['Fees', `2.5% to ${target}`],
          ['Expires', '2026-12-01T00:00:00Z'],
        ],
      ],
      [
        'cancelOrder',
        { order_id: 42 },
        [
          ['Request', 'Cancel an order'],
          ['Order', '#42'],
        ],
      ],
      [
        'trade',
        { order_id: 42, user: wallet, fees: [], min_price: 'x' },
        [
          ['Request', 'Trade: fill an order'],
          ['From', wallet],
          ['Order', '#42'],
          ['Fees', 'None'],
          ['Min price', 'x'],
        ],
      ],
    ] as const) {
      const { payloadHash } = pendingStarkEx(type, details)
      const { html } = await openPage(starkExPage(payloadHash))
      expect([type, rowsOf(html)]).toEqual([type, rows])
    }
  })

  test('behavior: an unknown, unevaluated, settled or foreign request, or another chainType, gets the error state with no secret', async () => {
    const { payloadHash, verdict } = pendingStarkEx('transfer', {})
    const unevaluated = `${payloadHash}0`
    guardian.registerStarkEx({
      payloadHash: unevaluated,
      wallet,
      type: 'transfer',
      details: {},
    })
    const settled = pendingStarkEx('transfer', {})
    guardian.settle(settled.verdict.id, 'rejected')
    for (const [url, message] of [
      [starkExPage('abc'), 'This request is unknown or has expired.'],
      [starkExPage('not-hex'), 'This request is unknown or has expired.'],
      [starkExPage(unevaluated), 'This request is unknown or has expired.'],
      [
        starkExPage(payloadHash, ''),
        'This page confirms StarkEx requests only (chainType=starkex).',
      ],
      [
        starkExPage(payloadHash, '&chainType=evm'),
        'This page confirms StarkEx requests only (chainType=starkex).',
      ],
      [
        starkExPage(payloadHash).replace(wallet, target),
        'This request is for another wallet.',
      ],
      [starkExPage(settled.payloadHash), 'This request was already rejected.'],
    ] as const) {
      const { response, html, state } = await openPage(url)
      expect([url, response.status, state]).toEqual([
        url,
        200,
        { prefix: 'transaction', error: message },
      ])
      expect(html).not.toContain(guardian.secretOf(verdict.id))
    }
  })

  test('behavior: the page settles its verdict, which the exchange may then create', async () => {
    const { payloadHash, verdict } = pendingStarkEx('transfer', {})
    const { state } = await openPage(starkExPage(payloadHash))
    const response = await settle({ ...state, decision: 'approve' })
    expect(response.status).toBe(200)
    expect(verdict.state).toBe('allowed')
    expect(
      guardian.isAllowed({
        chainId: starkExChainId,
        wallet,
        digest: starkExDigest(payloadHash),
      }),
    ).toBe(true)
  })

  test('default: /dev/verdicts registers a StarkEx request and records its verdict; bad ones are 400', async () => {
    const post = (body: unknown) =>
      fetch(`${origin}/dev/verdicts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    const response = await post({
      kind: 'starkex',
      wallet: wallet.toLowerCase(),
      payloadHash: '0x0ABCDEF',
      type: 'trade',
      details: { order_id: 1 },
    })
    const verdict = (await response.json()) as { id: string }
    expect([response.status, verdict]).toEqual([
      201,
      {
        id: verdict.id,
        kind: 'starkex',
        chainId: starkExChainId,
        wallet,
        digest: '0xabcdef',
        state: 'pending',
      },
    ])
    expect(guardian.starkExTransaction('abcdef')).toEqual({
      payloadHash: 'abcdef',
      wallet,
      type: 'trade',
      details: { order_id: 1 },
    })
    for (const [body, error] of [
      [
        { kind: 'starkex', wallet: '0x1', payloadHash: 'a', type: 'trade' },
        'wallet must be an address.',
      ],
      [
        { kind: 'starkex', wallet, payloadHash: 'xyz', type: 'trade' },
        'payloadHash must be hex of at most 64 digits.',
      ],
      [
        { kind: 'starkex', wallet, payloadHash: 'a', type: 'deposit' },
        'type must be one of transfer, batchNftTransfer, order, cancelOrder, trade.',
      ],
      [
        {
          kind: 'starkex',
          wallet,
          payloadHash: 'a',
          type: 'trade',
          state: 'done',
        },
        'state must be pending, allowed or rejected.',
      ],
    ] as const) {
      const refused = await post(body)
      expect([refused.status, await refused.json()]).toEqual([400, { error }])
    }
  })

  test('behavior: details are escaped', async () => {
    const { payloadHash } = pendingStarkEx('transfer', {
      receiver: '</dd><script>alert(1)</script>',
    })
    const { html } = await openPage(starkExPage(payloadHash))
    expect(html).toContain('&lt;/dd&gt;&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(html).not.toContain('<script>alert(1)')
  })
})

describe('POST /transaction-confirmation/api/state', () => {
  const read = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(origin + statePath, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin, ...headers },
      body: JSON.stringify(body),
    })

  test("behavior: the page reads its verdict's state, settled elsewhere too", async () => {
    const verdict = pending()
    const { state } = await openPage(messagePage(verdict.id))
    const body = { id: verdict.id, secret: state.secret }
    const before = await read(body)
    expect([before.status, await before.json()]).toEqual([
      200,
      { id: verdict.id, state: 'pending' },
    ])
    // As the emulator's UI settles it, through the guardian.
    guardian.settle(verdict.id, 'rejected')
    expect(await (await read(body)).json()).toEqual({
      id: verdict.id,
      state: 'rejected',
    })
  })

  test("error: another origin, a cross-site fetch, no origin or another verdict's secret learn nothing", async () => {
    const verdict = pending()
    const other = pending()
    const { state } = await openPage(messagePage(other.id))
    const own = { id: other.id, secret: state.secret }
    const answers = [
      await read(own, { origin: 'http://127.0.0.1:1' }),
      await read(own, { 'sec-fetch-site': 'cross-site' }),
      await fetch(origin + statePath, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(own),
      }),
      await read({ id: verdict.id, secret: state.secret }),
      await read({ id: verdict.id }),
    ]
    expect(
      await Promise.all(
        answers.map(async (answer) => [answer.status, await answer.json()]),
      ),
    ).toEqual([
      [403, { error: 'Only the confirmation pages may ask.' }],
      [403, { error: 'Only the confirmation pages may ask.' }],
      [403, { error: 'Only the confirmation pages may ask.' }],
      [403, { error: 'This page may not read that request.' }],
      [400, { error: 'Send { id, secret }.' }],
    ])
  })
})

describe('POST /transaction-confirmation/api/settle', () => {
  test('default: the page secret from this origin settles the verdict once', async () => {
    const verdict = pending()
    const { state } = await openPage(messagePage(verdict.id))
    const body = { id: verdict.id, secret: state.secret, decision: 'approve' }
    const first = await settle(body)
    expect([first.status, await first.json()]).toEqual([
      200,
      { id: verdict.id, state: 'allowed' },
    ])
    expect(
      guardian.isAllowed({ chainId: 31337, wallet, digest: verdict.digest }),
    ).toBe(true)
    const again = await settle({ ...body, decision: 'reject' })
    expect([again.status, await again.json()]).toEqual([
      409,
      { error: 'The request is already allowed.', state: 'allowed' },
    ])
  })

  test('error: another origin, no origin, a cross-site fetch or a form type are refused', async () => {
    const verdict = pending()
    const { state } = await openPage(messagePage(verdict.id))
    const body = { id: verdict.id, secret: state.secret, decision: 'approve' }
    const statuses = [
      (await settle(body, { origin: 'http://127.0.0.1:1' })).status,
      (await settle(body, { origin: 'https://evil.example' })).status,
      (await settle(body, { 'sec-fetch-site': 'cross-site' })).status,
      (
        await fetch(origin + settlePath, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).status,
      (await settle(body, { 'content-type': 'text/plain' })).status,
    ]
    expect(statuses).toEqual([403, 403, 403, 403, 415])
    expect(guardian.get(verdict.id)?.state).toBe('pending')
  })

  test('error: another verdict secret is refused; malformed and oversized bodies too', async () => {
    const verdict = pending()
    const other = pending()
    const { state } = await openPage(messagePage(other.id))
    const statuses = [
      (
        await settle({
          id: verdict.id,
          secret: state.secret,
          decision: 'approve',
        })
      ).status,
      (await settle({ id: verdict.id, secret: 'ab', decision: 'approve' }))
        .status,
      (await settle({ id: verdict.id, secret: state.secret, decision: 'yes' }))
        .status,
      (await settle('not json')).status,
      (await settle({ id: 'x'.repeat(2000) })).status,
    ]
    expect(statuses).toEqual([403, 400, 400, 400, 413])
    expect(guardian.get(verdict.id)?.state).toBe('pending')
  })
})

describe('/dev/verdicts', () => {
  test('default: records a pending transaction verdict with its Sequence digest and reads it back', async () => {
    const payload = {
      transactionData: {
        nonce: '7',
        metaTransactions: [
          {
            delegateCall: false,
            revertOnError: true,
            gasLimit: '0',
            target,
            value: '1',
            data: '0x1234',
          },
        ],
      },
    }
    const created = await fetch(`${origin}/dev/verdicts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        kind: 'transaction',
        chainId: 31337,
        wallet: wallet.toLowerCase(),
        payload,
      }),
    })
    const verdict = await created.json()
    expect([created.status, verdict]).toEqual([
      201,
      {
        id: expect.any(String),
        kind: 'transaction',
        chainId: 31337,
        wallet,
        digest: transactionsDigest(7n, [
          {
            delegateCall: false,
            revertOnError: true,
            gasLimit: 0n,
            target,
            value: 1n,
            data: '0x1234',
          },
        ]),
        state: 'pending',
      },
    ])
    const read = await fetch(`${origin}/dev/verdicts/${verdict.id}`)
    expect(await read.json()).toEqual(verdict)
  })

  test('error: bad bodies answer 400, unknown ids 404, other origins 403', async () => {
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${origin}/dev/verdicts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      }).then((response) => response.status)
    expect([
      await post({ kind: 'nope', chainId: 1, wallet, payload: 'x' }),
      await post({ kind: 'erc191', chainId: -1, wallet, payload: 'x' }),
      await post({ kind: 'erc191', chainId: 1, wallet: '0x12', payload: 'x' }),
      await post({ kind: 'message', chainId: 1, wallet, payload: {} }),
      await post({
        kind: 'transaction',
        chainId: 1,
        wallet,
        payload: { transactionData: { nonce: '0', metaTransactions: [] } },
      }),
      await post(
        { kind: 'erc191', chainId: 1, wallet, payload: 'x' },
        { origin: 'https://evil.example' },
      ),
      (await fetch(`${origin}/dev/verdicts/${crypto.randomUUID()}`)).status,
    ]).toEqual([400, 400, 400, 400, 400, 403, 404])
  })

  test('error: calldata of odd length (half a byte) is refused', async () => {
    for (const data of ['0x123', '0x1', '0xabcde']) {
      const response = await fetch(`${origin}/dev/verdicts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          kind: 'transaction',
          chainId: 31337,
          wallet,
          payload: {
            transactionData: {
              nonce: '0',
              metaTransactions: [
                {
                  delegateCall: false,
                  revertOnError: true,
                  gasLimit: '0',
                  target,
                  value: '0',
                  data,
                },
              ],
            },
          },
        }),
      })
      expect({ data, status: response.status }).toEqual({ data, status: 400 })
      expect(await response.json()).toEqual({
        error: expect.stringMatching(
          /^A transaction payload is the evaluation body: /,
        ),
      })
    }
  })
})
