/**
 * The game wallet's passport domain, emulated: the guardian's confirmation
 * pages the wallet opens in its popup, on their own origin.
 *
 * Routes:
 * - `GET /transaction-confirmation/loading`, `…/unavailable`: static pages;
 * - `GET /transaction-confirmation/transaction?transactionId=&etherAddress=&chainType=starkex`:
 *   the StarkEx request the guardian asks the player to confirm (its
 *   pending verdict, by the payload hash), with Confirm and Reject;
 * - `GET /transaction-confirmation/zkevm/transaction?transactionID=&etherAddress=&chainType=evm&chainID=eip155:N`
 *   and `…/zkevm/message?messageID=&etherAddress=&messageType=`: what the
 *   guardian asks the player to confirm (the verdict of that id), with
 *   Approve and Reject; an unknown or mismatched request gets an error page
 *   that answers the wallet `*_error`;
 * - `POST /transaction-confirmation/api/settle` `{ id, secret, decision }`:
 *   the pages' own call to settle a verdict (same origin, with the page's
 *   secret);
 * - `POST /transaction-confirmation/api/state` `{ id, secret }`: the pages'
 *   own call to read their verdict's state, so that one settled elsewhere
 *   (the emulator's UI) ends their wait (same rules);
 * - `POST /dev/verdicts` `{ kind, chainId, wallet, payload, state? }` (or,
 *   for StarkEx, `{ kind: 'starkex', wallet, payloadHash, type, details?,
 *   state? }`: the request registered as the exchange does, and its
 *   verdict) and `GET /dev/verdicts/:id` (loopback pages only): tests
 *   record a verdict as the platform API would, and read its state;
 * - `GET /health`.
 *
 * Why the settle call cannot be forged: it needs the verdict's secret (the
 * guardian's HMAC of its id under a key made at start-up), which only the
 * page's HTML carries; another origin can open the page but not read it (no CORS), nor
 * frame it (`frame-ancestors 'none'`, so no clickjacking of Approve). The
 * call must also carry this origin as its `Origin` (browsers set it; pages
 * cannot), so even a form post from elsewhere is refused.
 */
import { randomBytes } from 'node:crypto'
import type { Context as HonoContext } from 'hono'
import { type Address, getAddress, type Hex, isAddress, isHex } from 'viem'
import * as Wire from '../../../passport/wire/confirmation.js'
import {
  type MetaTransaction,
  transactionsDigest,
  typedDataDigest,
} from '../../../passport/wire/sequence.js'
import { chainType as starkExChainType } from '../../../passport/wire/starkex.js'
import {
  erc191Digest,
  type Guardian,
  type Kind,
  type StarkExTransaction,
  type State,
  starkExChainId,
  starkExDigest,
  starkExTypes,
  type Verdict,
} from '../../guardian.js'
import { createApp, startServer } from '../../server.js'
import { defineService } from '../../service.js'
import {
  decisionScript,
  errorBody,
  loadingBody,
  messageBody,
  type PageState,
  renderPage,
  settlePath,
  starkExBody,
  statePath,
  transactionBody,
  unavailableBody,
  unavailableScript,
} from './pages.js'

/** The largest settle body, bytes (an id, a secret and a word). */
export const maxSettleBody = 1024
/** The largest payload a test may record, bytes of JSON. */
export const maxDevPayload = 64 * 1024
/** The most meta-transactions in a recorded transaction. */
export const maxDevCalls = 100

/**
 * The passport domain's app, for `startServer` (and tests, which start it
 * alone with a guardian of their own).
 *
 * @example
 * ```ts
 * const guardian = createGuardian()
 * const app = createConfirmationApp({ origin: 'http://127.0.0.1:4406', guardian })
 * await startServer({ fetch: app.fetch, port: 4406, localOnly: ['/dev/'] })
 * ```
 */
export function createConfirmationApp(options: {
  /** This service's origin (the settle call must come from it). */
  origin: string
  guardian: Guardian
}) {
  const { origin, guardian } = options
  const secretOf = (id: string) => guardian.secretOf(id)

  const app = createApp()
  app.get('/health', (c) => c.json({ ok: true }))
  app.get(Wire.paths.loading, (c) => page(c, loadingBody()))
  app.get(Wire.paths.unavailable, (c) =>
    page(c, unavailableBody(), unavailableScript),
  )

  app.get(Wire.paths.zkEvmTransaction, (c) => {
    const id = c.req.query('transactionID') ?? ''
    const found = lookup(guardian, id, ['transaction'], {
      wallet: c.req.query('etherAddress'),
      chainId: c.req.query('chainID'),
    })
    if (typeof found === 'string')
      return decisionPage(c, errorBody(found), {
        prefix: 'transaction',
        error: found,
      })
    return decisionPage(c, transactionBody(found.payload), {
      prefix: 'transaction',
      id: found.id,
      secret: secretOf(found.id),
    })
  })

  app.get(Wire.paths.transaction, (c) => {
    const found = lookupStarkEx(guardian, {
      payloadHash: c.req.query('transactionId') ?? '',
      wallet: c.req.query('etherAddress'),
      chainType: c.req.query('chainType'),
    })
    if (typeof found === 'string')
      return decisionPage(c, errorBody(found), {
        prefix: 'transaction',
        error: found,
      })
    return decisionPage(c, starkExBody(found.transaction), {
      prefix: 'transaction',
      id: found.verdict.id,
      secret: secretOf(found.verdict.id),
    })
  })

  app.get(Wire.paths.zkEvmMessage, (c) => {
    const id = c.req.query('messageID') ?? ''
    const messageType = c.req.query('messageType')
    const kinds: Kind[] =
      messageType === Wire.messageTypes.eip712
        ? ['message']
        : messageType === Wire.messageTypes.erc191
          ? ['erc191']
          : ['message', 'erc191']
    const found = lookup(guardian, id, kinds, {
      wallet: c.req.query('etherAddress'),
    })
    if (typeof found === 'string')
      return decisionPage(c, errorBody(found), {
        prefix: 'message',
        error: found,
      })
    return decisionPage(
      c,
      messageBody(
        found.kind === 'erc191' ? 'erc191' : 'message',
        found.payload,
      ),
      { prefix: 'message', id: found.id, secret: secretOf(found.id) },
    )
  })

  app.post(settlePath, async (c) => {
    // Same origin only: browsers send Origin with every POST and pages
    // cannot change it; Sec-Fetch-Site, when sent, must agree.
    const fetchSite = c.req.header('sec-fetch-site')
    if (
      c.req.header('origin') !== origin ||
      (fetchSite !== undefined && fetchSite !== 'same-origin')
    )
      return c.json({ error: 'Only the confirmation pages may settle.' }, 403)
    if (!/^application\/json\s*(;|$)/i.test(c.req.header('content-type') ?? ''))
      return c.json({ error: 'Send the decision as application/json.' }, 415)
    const text = await c.req.text()
    if (text.length > maxSettleBody)
      return c.json({ error: 'The decision is too large.' }, 413)
    const body = parseJson(text)
    const { id, secret, decision } = (body ?? {}) as Record<string, unknown>
    if (
      typeof id !== 'string' ||
      id.length > 64 ||
      typeof secret !== 'string' ||
      !/^[0-9a-f]{64}$/.test(secret) ||
      (decision !== 'approve' && decision !== 'reject')
    )
      return c.json(
        { error: 'Send { id, secret, decision: "approve" | "reject" }.' },
        400,
      )
    if (!guardian.isSecretOf(id, secret))
      return c.json({ error: 'This page may not settle that request.' }, 403)
    const verdict = guardian.get(id)
    if (!verdict) return c.json({ error: 'No such request.' }, 404)
    const settled = guardian.settle(
      id,
      decision === 'approve' ? 'allowed' : 'rejected',
    )
    if (!settled)
      return c.json(
        {
          error: `The request is already ${verdict.state}.`,
          state: verdict.state,
        },
        409,
      )
    return c.json({ id, state: verdict.state })
  })

  app.post(statePath, async (c) => {
    // As the settle call: the page's own origin, with its secret.
    const fetchSite = c.req.header('sec-fetch-site')
    if (
      c.req.header('origin') !== origin ||
      (fetchSite !== undefined && fetchSite !== 'same-origin')
    )
      return c.json({ error: 'Only the confirmation pages may ask.' }, 403)
    const text = await c.req.text()
    if (text.length > maxSettleBody)
      return c.json({ error: 'The request is too large.' }, 413)
    const { id, secret } = (parseJson(text) ?? {}) as Record<string, unknown>
    if (typeof id !== 'string' || id.length > 64 || typeof secret !== 'string')
      return c.json({ error: 'Send { id, secret }.' }, 400)
    if (!guardian.isSecretOf(id, secret))
      return c.json({ error: 'This page may not read that request.' }, 403)
    const verdict = guardian.get(id)
    if (!verdict) return c.json({ error: 'No such request.' }, 404)
    return c.json({ id, state: verdict.state })
  })

  app.post('/dev/verdicts', async (c) => {
    const text = await c.req.text()
    if (text.length > maxDevPayload)
      return c.json({ error: 'The verdict is too large.' }, 413)
    const body = parseJson(text)
    if ((body as { kind?: unknown } | null)?.kind === 'starkex') {
      const entry = readDevStarkEx(body as Record<string, unknown>)
      if (typeof entry === 'string') return c.json({ error: entry }, 400)
      guardian.registerStarkEx(entry.transaction)
      const transaction = guardian.starkExTransaction(
        entry.transaction.payloadHash,
      ) as StarkExTransaction
      const verdict = guardian.record({
        kind: 'starkex',
        chainId: starkExChainId,
        wallet: transaction.wallet,
        digest: starkExDigest(transaction.payloadHash),
        payload: transaction,
        state: entry.state,
      })
      return c.json(describe(verdict), 201)
    }
    const entry = readDevVerdict(body)
    if (typeof entry === 'string') return c.json({ error: entry }, 400)
    return c.json(describe(guardian.record(entry)), 201)
  })

  app.get('/dev/verdicts/:id', (c) => {
    const verdict = guardian.get(c.req.param('id'))
    if (!verdict) return c.json({ error: 'No such verdict.' }, 404)
    return c.json(describe(verdict))
  })

  return app
}

/** The service in the emulator's list (slot `passport`). */
export const service = defineService({
  name: 'passport',
  async start(context) {
    const app = createConfirmationApp({
      origin: context.origin,
      guardian: context.passport.guardian,
    })
    const server = await startServer({
      fetch: app.fetch,
      ...context.listen,
      localOnly: ['/dev/'],
    })
    return {
      ...server,
      info: {
        passport: {
          /** The passport domain (`overrides.passportDomain`). */
          passportDomain: server.url,
        },
      },
    }
  },
})

/** A page with its security headers: only its own nonce'd style and script. */
function page(c: HonoContext, body: string, script?: string): Response {
  const nonce = randomBytes(16).toString('base64')
  return c.html(renderPage({ nonce, body, script }), 200, headers(nonce))
}

function decisionPage(c: HonoContext, body: string, state: PageState) {
  const nonce = randomBytes(16).toString('base64')
  return c.html(
    renderPage({ nonce, body, script: decisionScript, state }),
    200,
    headers(nonce),
  )
}

function headers(nonce: string): Record<string, string> {
  return {
    'content-security-policy': [
      "default-src 'none'",
      `script-src 'nonce-${nonce}'`,
      `style-src 'nonce-${nonce}'`,
      "connect-src 'self'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    // The secret is in the page: never keep it in a cache.
    'cache-control': 'no-store',
  }
}

/**
 * The pending verdict a page asks for, or why it cannot be shown: an
 * unknown id, another kind of request, another wallet or chain than the
 * URL says, or one already settled.
 */
function lookup(
  guardian: Guardian,
  id: string,
  kinds: readonly Kind[],
  expect: { wallet?: string | undefined; chainId?: string | undefined },
): Verdict | string {
  const verdict = id.length <= 64 ? guardian.get(id) : undefined
  if (!verdict || !kinds.includes(verdict.kind))
    return 'This request is unknown or has expired.'
  if (
    expect.wallet === undefined ||
    expect.wallet.toLowerCase() !== verdict.wallet.toLowerCase()
  )
    return 'This request is for another wallet.'
  if (
    expect.chainId !== undefined &&
    expect.chainId !== `eip155:${verdict.chainId}`
  )
    return 'This request is for another chain.'
  if (verdict.state !== 'pending')
    return `This request was already ${verdict.state === 'allowed' ? 'approved' : 'rejected'}.`
  return verdict
}

/**
 * The StarkEx request a page asks for and its pending verdict, or why it
 * cannot be shown: not a StarkEx page, an unknown or unevaluated payload
 * hash, another wallet than the URL says, or a request already settled.
 */
function lookupStarkEx(
  guardian: Guardian,
  query: {
    payloadHash: string
    wallet: string | undefined
    chainType: string | undefined
  },
): { transaction: StarkExTransaction; verdict: Verdict } | string {
  if (query.chainType !== starkExChainType)
    return 'This page confirms StarkEx requests only (chainType=starkex).'
  const transaction = /^(0x)?[0-9a-fA-F]{1,64}$/.test(query.payloadHash)
    ? guardian.starkExTransaction(query.payloadHash)
    : undefined
  const verdict =
    transaction &&
    guardian.find({
      wallet: transaction.wallet,
      digest: starkExDigest(transaction.payloadHash),
      kinds: ['starkex'],
      chainId: starkExChainId,
    })
  if (!transaction || !verdict) return 'This request is unknown or has expired.'
  if (
    query.wallet === undefined ||
    query.wallet.toLowerCase() !== transaction.wallet.toLowerCase()
  )
    return 'This request is for another wallet.'
  if (verdict.state !== 'pending')
    return `This request was already ${verdict.state === 'allowed' ? 'approved' : 'rejected'}.`
  return { transaction, verdict }
}

/** A verdict as the dev routes answer it. */
function describe(verdict: Verdict) {
  const { id, kind, chainId, wallet, digest, state } = verdict
  return { id, kind, chainId, wallet, digest, state }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/**
 * A verdict to record from a dev request, its digest computed from the
 * payload as the platform API computes it, or why the request is refused.
 */
function readDevVerdict(
  body: unknown,
): (Omit<Verdict, 'id' | 'state'> & { state: State }) | string {
  const usage =
    'Send { kind: "transaction" | "message" | "erc191", chainId, wallet, payload, state? } or { kind: "starkex", wallet, payloadHash, type, details?, state? }.'
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return usage
  const {
    kind,
    chainId,
    wallet,
    payload,
    state = 'pending',
  } = body as Record<string, unknown>
  if (kind !== 'transaction' && kind !== 'message' && kind !== 'erc191')
    return usage
  if (
    typeof chainId !== 'number' ||
    !Number.isSafeInteger(chainId) ||
    chainId <= 0
  )
    return 'chainId must be a positive integer.'
  if (typeof wallet !== 'string' || !isAddress(wallet, { strict: false }))
    return 'wallet must be an address.'
  if (state !== 'pending' && state !== 'allowed' && state !== 'rejected')
    return 'state must be pending, allowed or rejected.'
  let digest: Hex
  if (kind === 'erc191') {
    if (typeof payload !== 'string') return 'An erc191 payload is its text.'
    digest = erc191Digest(payload)
  } else if (kind === 'message') {
    try {
      digest = typedDataDigest(payload as Parameters<typeof typedDataDigest>[0])
    } catch {
      return 'A message payload is EIP-712 typed data.'
    }
  } else {
    const transaction = readTransaction(payload)
    if (typeof transaction === 'string') return transaction
    try {
      digest = transactionsDigest(transaction.nonce, transaction.calls)
    } catch {
      // Out of uint256, or bytes of odd length: ABI encoding refuses them.
      return 'The transaction cannot be ABI-encoded.'
    }
  }
  return {
    kind,
    chainId,
    wallet: getAddress(wallet) as Address,
    digest,
    state,
    payload,
  }
}

/** A StarkEx request and its verdict's state from a dev request. */
function readDevStarkEx(
  body: Record<string, unknown>,
): { transaction: StarkExTransaction; state: State } | string {
  const { wallet, payloadHash, type, details, state = 'pending' } = body
  if (typeof wallet !== 'string' || !isAddress(wallet, { strict: false }))
    return 'wallet must be an address.'
  if (
    typeof payloadHash !== 'string' ||
    !/^(0x)?[0-9a-fA-F]{1,64}$/.test(payloadHash)
  )
    return 'payloadHash must be hex of at most 64 digits.'
  if (!starkExTypes.includes(type as never))
    return `type must be one of ${starkExTypes.join(', ')}.`
  if (state !== 'pending' && state !== 'allowed' && state !== 'rejected')
    return 'state must be pending, allowed or rejected.'
  return {
    transaction: {
      payloadHash,
      wallet: getAddress(wallet),
      type: type as StarkExTransaction['type'],
      details,
    },
    state,
  }
}

/** The nonce and calls of a guardian evaluation body. */
function readTransaction(
  payload: unknown,
): { nonce: bigint; calls: MetaTransaction[] } | string {
  const usage =
    'A transaction payload is the evaluation body: { transactionData: { nonce, metaTransactions: [{ delegateCall, revertOnError, gasLimit, target, value, data }] } }.'
  const data = (payload as { transactionData?: unknown } | null)
    ?.transactionData as Record<string, unknown> | undefined
  const list = data?.metaTransactions
  if (
    typeof data?.nonce !== 'string' ||
    !/^\d{1,78}$/.test(data.nonce) ||
    !Array.isArray(list) ||
    list.length === 0 ||
    list.length > maxDevCalls
  )
    return usage
  const calls: MetaTransaction[] = []
  for (const entry of list as unknown[]) {
    const call = (entry ?? {}) as Record<string, unknown>
    const { delegateCall, revertOnError, gasLimit, target, value } = call
    const callData = call.data
    if (
      typeof delegateCall !== 'boolean' ||
      typeof revertOnError !== 'boolean' ||
      typeof gasLimit !== 'string' ||
      !/^\d{1,78}$/.test(gasLimit) ||
      typeof target !== 'string' ||
      !isAddress(target, { strict: false }) ||
      typeof value !== 'string' ||
      !/^\d{1,78}$/.test(value) ||
      typeof callData !== 'string' ||
      !isHex(callData, { strict: true }) ||
      // Calldata is whole bytes: viem would pad half a byte silently, and
      // the digest would be of other calldata than the page shows.
      callData.length % 2 !== 0
    )
      return usage
    calls.push({
      delegateCall,
      revertOnError,
      gasLimit: BigInt(gasLimit),
      target: getAddress(target),
      value: BigInt(value),
      data: callData,
    })
  }
  return { nonce: BigInt(data.nonce), calls }
}
