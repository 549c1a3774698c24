/**
 * The guardian's routes on the platform API (bearer):
 *
 * - `POST /guardian/v1/transactions/evm/evaluate`,
 *   `POST /guardian/v1/messages/evaluate` (EIP-712, `chainID` decimal),
 *   `POST /guardian/v1/erc191-messages/evaluate` (`chainID` `eip155:N`):
 *   the digest of what is evaluated is computed, the rules in force decide
 *   whether the player must confirm, and the verdict ('allowed' or
 *   'pending') is recorded for the relayer; the answer is
 *   `{ confirmationRequired, confirmationMethod: 'web', transactionId |
 *   messageId }`. With the `unavailable` rule every evaluation is 403; a
 *   body over {@link maxEvaluationBytes} is 413.
 * - `POST /guardian/v1/transactions/{id}/approve` (body
 *   `{ chainType: 'evm', chainID?, otp? }`),
 *   `POST /guardian/v1/messages/{id}/approve`,
 *   `POST /guardian/v1/erc191-messages/{id}/approve`: the player whose
 *   wallet the verdict is about settles it allowed (204); `{id}` is the
 *   verdict's id or its payload hash (the digest the relayer co-signs,
 *   looked up among the player's own verdicts, on `chainID`'s chain when
 *   given). Another player gets 403, an unknown id 404, a rejected
 *   verdict 409.
 *   A verdict that waits for the player's confirmation is settled only by
 *   the confirmation page's own flow (a request from the passport domain
 *   with the verdict's secret `{ secret }`, which only that page holds) or
 *   by a program on this machine (no `Origin`, no `Sec-Fetch-Site`: not a
 *   browser); any other caller gets 403 and it stays pending. The dApp's
 *   page holds the player's access token, so the token alone must not
 *   stand for the player's click.
 * - `GET /guardian/v1/transactions/{id}?chainType=evm[&chainID]`,
 *   `GET /guardian/v1/messages/{id}`,
 *   `GET /guardian/v1/erc191-messages/{id}` (by id or payload hash): the
 *   player's own verdict, `{ id, eth_address, status, version, … }` with
 *   the status `allowed`, `pending` or `rejected` and what was evaluated
 *   (`transaction_metadata`, `data`); with `includeSimulation=true` a
 *   transaction or typed data also carries `validation`, simulated on the
 *   chain (see simulation.ts).
 * - StarkEx (`chainType: 'starkex'`), by the payload hash the exchange
 *   registered when it answered the player's signable request (any case,
 *   `0x` or not): `GET /guardian/v1/transactions/{payloadHash}?chainType=starkex`
 *   answers the request as a `Transaction` (see {@link StarkExRecord});
 *   `POST …/{payloadHash}/evaluate` `{ chainType: 'starkex' }` records a
 *   verdict (kind `'starkex'`, chain `starkExChainId`, digest
 *   `starkExDigest(payloadHash)`) by the `confirmStarkEx` and `unavailable`
 *   rules and answers as the zkEVM evaluation does, with the payload hash
 *   as `transactionId`; `POST …/{payloadHash}/approve`
 *   `{ chainType: 'starkex' }` settles it as a zkEVM verdict is settled.
 *   The player is their `imx_eth_address` (registry
 *   `passport.imxEthAddress`): another player's request is 403, an unknown
 *   one 404.
 * - `GET|PUT /dev/guardian/rules` (loopback only): the rules, bigints as
 *   decimal strings (see {@link RulesBody}).
 *
 * @packageDocumentation
 */

import type { Hono, Context as HonoContext } from 'hono'
import type { Address, Hex, TypedDataDefinition } from 'viem'
import type { components } from '../../../api/wire/mr/schema.generated.js'
import {
  type EvaluateMessageResponse,
  type EvaluateTransactionResponse,
  paths,
} from '../../../passport/wire/api.js'
import {
  type MetaTransaction,
  transactionsDigest,
  typedDataDigest,
} from '../../../passport/wire/sequence.js'
import { chainType as starkExChainType } from '../../../passport/wire/starkex.js'
import {
  erc191Digest,
  type Kind,
  type Rules,
  type StarkExTransaction,
  type StarkExType,
  starkExChainId,
  starkExDigest,
  starkExTypes,
  type Verdict,
} from '../../guardian.js'
import {
  type ApiChain,
  type ApiEnv,
  addressOf,
  bytesOf,
  caip2ChainOf,
  chainById,
  type Deps,
  errorBody,
  fail,
  isRecord,
  playerOf,
  readJson,
  requireBearer,
  uint256Of,
} from './http.js'
import { chainIdOf, describerOf, typedDataOf } from './metadata.js'
import type {
  Erc191MessageResponse,
  EvmMessage,
  Transaction,
  ValidationResult,
} from './schemas.js'
import { simulateTransactions, simulateTypedData } from './simulation.js'

/** The most meta-transactions one evaluation may hold. */
export const maxMetaTransactions = 100

/**
 * The largest evaluation body: 64 KiB. A verdict keeps what was evaluated
 * for the confirmation page, and the guardian keeps thousands of verdicts;
 * a transaction batch or a typed-data order is a few KiB.
 */
export const maxEvaluationBytes = 64 * 1024

/** The most `knownContracts` the rules may list. */
export const maxKnownContracts = 1_000

/** The control route of the rules. */
export const rulesPath = '/dev/guardian/rules'

/**
 * The rules as JSON (`GET` answers it, `PUT` takes it): the guardian's
 * {@link Rules} with `confirmAboveValue` a decimal string of wei. A `PUT`
 * replaces every rule; a field left out (or `null`) is off.
 */
export type RulesBody = {
  confirmAboveValue: string | null
  confirmUnknownContracts: boolean
  knownContracts: string[]
  confirmTypedData: boolean
  confirmErc191: boolean
  /** The StarkEx request types that ask the player to confirm. */
  confirmStarkEx: StarkExType[]
  unavailable: boolean
}

/** Adds the guardian's routes to `app`. */
export function guardianRoutes(app: Hono<ApiEnv>, deps: Deps): void {
  const bearer = requireBearer(deps.verifier)

  app.post(paths.evaluateTransaction, bearer, async (c) => {
    const wallet = walletOf(c, deps)
    if (typeof wallet !== 'string') return wallet
    const rules = deps.guardian.rulesFor(wallet)
    if (deps.guardian.unavailableFor(wallet)) return unavailable(c)
    if (Number(c.req.header('content-length') ?? 0) > maxEvaluationBytes)
      return tooLarge(c)
    const body = await readJson(c)
    const request = transactionRequestOf(deps, body)
    if (typeof request === 'string') return fail(c, 'validation', request)
    if (request.userAddress !== wallet)
      return fail(
        c,
        'authentication',
        "userAddress is not the player's wallet.",
      )
    const verdict = deps.guardian.record({
      kind: 'transaction',
      chainId: request.chainId,
      wallet,
      digest: transactionsDigest(request.nonce, request.metaTransactions),
      state: mustConfirm(rules, request.metaTransactions)
        ? 'pending'
        : 'allowed',
      payload: body,
    })
    return c.json({
      confirmationRequired: verdict.state === 'pending',
      confirmationMethod: 'web',
      transactionId: verdict.id,
    } satisfies EvaluateTransactionResponse &
      components['schemas']['TransactionEvaluationResponse'])
  })

  // After the zkEVM route: `/transactions/evm/evaluate` is answered there.
  app.post(guardianPaths.evaluateStarkEx, bearer, async (c) => {
    const wallet = starkExWalletOf(c, deps)
    if (typeof wallet !== 'string') return wallet
    const rules = deps.guardian.rulesFor(wallet)
    if (deps.guardian.unavailableFor(wallet)) return unavailable(c)
    if (Number(c.req.header('content-length') ?? 0) > maxEvaluationBytes)
      return tooLarge(c)
    const body = await readJson(c)
    if (
      !isRecord(body) ||
      body.chainType !== starkExChainType ||
      (body.chainId !== undefined && typeof body.chainId !== 'string')
    )
      return fail(
        c,
        'validation',
        `Expected { chainType: 'starkex', chainId? } (zkEVM transactions are evaluated at ${paths.evaluateTransaction}).`,
      )
    const transaction = ownStarkEx(c, deps, wallet)
    if (transaction instanceof Response) return transaction
    const verdict = deps.guardian.record({
      kind: 'starkex',
      chainId: starkExChainId,
      wallet,
      digest: starkExDigest(transaction.payloadHash),
      state: rules.confirmStarkEx?.includes(transaction.type)
        ? 'pending'
        : 'allowed',
      payload: transaction,
    })
    return c.json({
      confirmationRequired: verdict.state === 'pending',
      confirmationMethod: 'web',
      // The published SDK opens the confirmation page with the payload
      // hash; the verdict's own id never leaves the emulator.
      transactionId: transaction.payloadHash,
    } satisfies EvaluateTransactionResponse &
      components['schemas']['TransactionEvaluationResponse'])
  })

  app.post(paths.evaluateMessage, bearer, async (c) => {
    const wallet = walletOf(c, deps)
    if (typeof wallet !== 'string') return wallet
    const rules = deps.guardian.rulesFor(wallet)
    if (deps.guardian.unavailableFor(wallet)) return unavailable(c)
    if (Number(c.req.header('content-length') ?? 0) > maxEvaluationBytes)
      return tooLarge(c)
    const body = await readJson(c)
    const chainId = isRecord(body) ? decimalChainOf(deps, body.chainID) : 0
    if (!isRecord(body) || chainId === undefined)
      return fail(
        c,
        'validation',
        'Expected { chainID, payload } with chainID the decimal id of a chain of the emulator.',
      )
    const digest = typedDigestOf(body.payload, chainId)
    if (typeof digest !== 'string' || !digest.startsWith('0x'))
      return fail(c, 'validation', digest)
    return evaluated(c, deps, {
      kind: 'message',
      chainId,
      wallet,
      digest: digest as Hex,
      confirm: rules.confirmTypedData === true,
      // What is signed, as the dev route records it: the page shows the
      // message, not the evaluation request around it.
      payload: body.payload,
    })
  })

  app.post(paths.evaluateErc191Message, bearer, async (c) => {
    const wallet = walletOf(c, deps)
    if (typeof wallet !== 'string') return wallet
    const rules = deps.guardian.rulesFor(wallet)
    if (deps.guardian.unavailableFor(wallet)) return unavailable(c)
    if (Number(c.req.header('content-length') ?? 0) > maxEvaluationBytes)
      return tooLarge(c)
    const body = await readJson(c)
    const chain = isRecord(body) ? caip2ChainOf(deps, body.chainID) : undefined
    if (!isRecord(body) || !chain || typeof body.payload !== 'string')
      return fail(
        c,
        'validation',
        'Expected { chainID, payload } with chainID eip155:<id of a chain of the emulator> and payload a string.',
      )
    return evaluated(c, deps, {
      kind: 'erc191',
      chainId: chain.chainId,
      wallet,
      digest: erc191Digest(body.payload),
      confirm: rules.confirmErc191 === true,
      payload: body.payload,
    })
  })

  /**
   * An approval: settles the verdict `id` (or the player's newest verdict
   * on the payload hash `id`) allowed, answering 204. `body` checks the
   * request body first (`undefined`: fine; a string: why it is refused).
   */
  const approve =
    (
      kinds: readonly Kind[],
      body: (value: unknown) => { chainId?: number } | string = () => ({}),
    ) =>
    async (c: HonoContext<ApiEnv>) => {
      const player = playerOf(deps, c.var.bearer)
      if (!player) return fail(c, 'unauthorised', 'The player is unknown.')
      const text = await c.req.text()
      const request = body(text.trim() === '' ? {} : parseJson(text))
      if (typeof request === 'string') return fail(c, 'validation', request)
      const found = findVerdict(deps, {
        id: c.req.param('id') ?? '',
        kinds,
        wallet: player.passport.zkevmEthAddress,
        chainId: request.chainId,
      })
      if (typeof found === 'string') return fail(c, 'notFound', found)
      const verdict = found
      if (verdict.wallet !== player.passport.zkevmEthAddress)
        return fail(
          c,
          'authentication',
          "The evaluation is about another player's wallet.",
        )
      if (verdict.state === 'rejected')
        return fail(c, 'conflict', 'The evaluation was rejected already.')
      if (
        verdict.state === 'pending' &&
        !(await confirmedByPage(c, deps, verdict.id))
      )
        return fail(
          c,
          'authentication',
          'Only the confirmation page, or a program on this machine, may approve what the player must confirm.',
        )
      deps.guardian.settle(verdict.id, 'allowed')
      return c.body(null, 204)
    }
  const approveEvm = approve(['transaction'], (value) =>
    approvalRequestOf(deps, value),
  )
  app.post(guardianPaths.approveTransaction, bearer, async (c) => {
    const text = await c.req.text()
    const body = text.trim() === '' ? {} : parseJson(text)
    return isRecord(body) && body.chainType === starkExChainType
      ? approveStarkEx(c, deps, body)
      : approveEvm(c)
  })
  app.post(
    guardianPaths.approveMessage,
    bearer,
    approve(['message', 'erc191'], objectBody),
  )
  app.post(
    guardianPaths.approveErc191Message,
    bearer,
    approve(['erc191'], objectBody),
  )

  app.get(guardianPaths.transaction, bearer, async (c) => {
    if (c.req.query('chainType') === starkExChainType)
      return starkExRecord(c, deps)
    const wallet = walletOf(c, deps)
    if (typeof wallet !== 'string') return wallet
    if (c.req.query('chainType') !== 'evm')
      return fail(c, 'validation', "chainType must be 'evm' or 'starkex'.")
    const chainQuery = c.req.query('chainID')
    const chain =
      chainQuery === undefined ? undefined : anyChainIdOf(deps, chainQuery)
    if (chainQuery !== undefined && !chain)
      return fail(
        c,
        'validation',
        'chainID must be the id of a chain of the emulator (eip155:<id> or <id>).',
      )
    const simulate = includeSimulationOf(c)
    if (simulate === null) return fail(c, 'validation', includeSimulationError)
    const verdict = ownVerdict(c, deps, wallet, ['transaction'], chain?.chainId)
    if (verdict instanceof Response) return verdict
    return c.json({
      id: verdict.id,
      eth_address: verdict.wallet,
      status: verdict.state,
      transaction_type: 'evm',
      version: recordVersion,
      transaction_metadata: isRecord(verdict.payload) ? verdict.payload : {},
      ...(simulate
        ? { validation: await transactionValidation(deps, verdict) }
        : {}),
    } satisfies Transaction)
  })

  app.get(guardianPaths.message, bearer, async (c) => {
    const wallet = walletOf(c, deps)
    if (typeof wallet !== 'string') return wallet
    const simulate = includeSimulationOf(c)
    if (simulate === null) return fail(c, 'validation', includeSimulationError)
    const verdict = ownVerdict(c, deps, wallet, ['message'])
    if (verdict instanceof Response) return verdict
    const payload = typedDataOf(verdict.payload)
    const chain = chainById(deps, verdict.chainId)
    return c.json({
      id: verdict.id,
      eth_address: verdict.wallet,
      status: verdict.state,
      version: recordVersion,
      data: isRecord(verdict.payload) ? verdict.payload : {},
      ...(simulate
        ? {
            validation:
              typeof payload === 'object' && chain
                ? await simulateTypedData(
                    describerOf(deps, chain),
                    verdict.wallet,
                    payload,
                  )
                : {
                    status: 'simulation_failed',
                    error:
                      'The evaluation holds no typed data of a chain of the emulator to simulate.',
                  },
          }
        : {}),
    } satisfies EvmMessage)
  })

  app.get(guardianPaths.erc191Message, bearer, (c) => {
    const wallet = walletOf(c, deps)
    if (typeof wallet !== 'string') return wallet
    const verdict = ownVerdict(c, deps, wallet, ['erc191'])
    if (verdict instanceof Response) return verdict
    return c.json({
      id: verdict.id,
      eth_address: verdict.wallet,
      status: verdict.state,
      version: recordVersion,
      data: typeof verdict.payload === 'string' ? verdict.payload : '',
    } satisfies Erc191MessageResponse)
  })

  // `?wallet=` reads or sets the rules of one wallet only (a `PUT` with
  // the body `null` removes them): they replace the global rules for it.
  app.get(rulesPath, (c) => {
    const wallet = walletQueryOf(c)
    if (wallet === null) return fail(c, 'validation', walletQueryError)
    return c.json(
      rulesBodyOf(
        wallet ? deps.guardian.rulesFor(wallet) : deps.guardian.rules,
      ),
    )
  })
  app.put(rulesPath, async (c) => {
    const wallet = walletQueryOf(c)
    if (wallet === null) return fail(c, 'validation', walletQueryError)
    const body = await readJson(c)
    if (wallet && body === null) {
      deps.guardian.setWalletRules(wallet, null)
      return c.json(rulesBodyOf(deps.guardian.rules))
    }
    const rules = rulesOf(body)
    if (typeof rules === 'string') return fail(c, 'validation', rules)
    if (wallet) deps.guardian.setWalletRules(wallet, rules)
    else deps.guardian.rules = rules
    return c.json(rulesBodyOf(rules))
  })
}

/** The guardian's routes beyond the evaluations, as Hono patterns. */
export const guardianPaths = {
  /** A StarkEx request's evaluation, by its payload hash. */
  evaluateStarkEx: '/guardian/v1/transactions/:id/evaluate',
  approveTransaction: '/guardian/v1/transactions/:id/approve',
  approveMessage: '/guardian/v1/messages/:id/approve',
  approveErc191Message: '/guardian/v1/erc191-messages/:id/approve',
  transaction: '/guardian/v1/transactions/:id',
  message: '/guardian/v1/messages/:id',
  erc191Message: '/guardian/v1/erc191-messages/:id',
} as const

/**
 * The `version` of the guardian's records: the shape they are served in
 * has one version here.
 */
export const recordVersion = '1'

const includeSimulationError = "includeSimulation must be 'true' or 'false'."

/** The `includeSimulation` query: absent is false; null when malformed. */
function includeSimulationOf(c: HonoContext<ApiEnv>): boolean | null {
  const value = c.req.query('includeSimulation')
  if (value === undefined || value === 'false') return false
  return value === 'true' ? true : null
}

/**
 * The verdict a route names: by its id, or by its payload hash (the
 * digest the relayer co-signs, `0x` and 64 hex digits), which the route
 * looks up among `wallet`'s verdicts (on `chainId` when given). Otherwise
 * why there is none.
 */
function findVerdict(
  deps: Deps,
  query: {
    id: string
    kinds: readonly Kind[]
    wallet: Address | undefined
    chainId?: number | undefined
  },
): Verdict | string {
  const { id, kinds, wallet, chainId } = query
  const verdict = /^0x[0-9a-fA-F]{64}$/.test(id)
    ? wallet &&
      deps.guardian.find({ wallet, digest: id as Hex, kinds, chainId })
    : deps.guardian.get(id)
  if (
    !verdict ||
    !kinds.includes(verdict.kind) ||
    (chainId !== undefined && verdict.chainId !== chainId)
  )
    return `There is no evaluation ${id.slice(0, 100)}.`
  return verdict
}

/** The verdict a GET route names, when it is about `wallet`. */
function ownVerdict(
  c: HonoContext<ApiEnv>,
  deps: Deps,
  wallet: Address,
  kinds: readonly Kind[],
  chainId?: number | undefined,
): Verdict | Response {
  const found = findVerdict(deps, {
    id: c.req.param('id') ?? '',
    kinds,
    wallet,
    chainId,
  })
  if (typeof found === 'string') return fail(c, 'notFound', found)
  if (found.wallet !== wallet)
    return fail(
      c,
      'authentication',
      "The evaluation is about another player's wallet.",
    )
  return found
}

/** The simulation of a transaction verdict's batch. */
async function transactionValidation(
  deps: Deps,
  verdict: Verdict,
): Promise<ValidationResult> {
  const chain = chainById(deps, verdict.chainId)
  const data = isRecord(verdict.payload)
    ? verdict.payload.transactionData
    : undefined
  const list = isRecord(data) ? data.metaTransactions : undefined
  const transactions = Array.isArray(list) ? list.map(metaTransactionOf) : []
  if (
    !chain ||
    transactions.length === 0 ||
    transactions.some((tx) => tx === undefined)
  )
    return {
      status: 'simulation_failed',
      error:
        'The evaluation holds no meta-transactions of a chain of the emulator to simulate.',
    }
  return simulateTransactions(
    describerOf(deps, chain),
    chain,
    verdict.wallet,
    transactions as MetaTransaction[],
  )
}

/**
 * The body of a transaction approval (`TransactionApprovalRequest`):
 * `chainType: 'evm'`, and an optional `chainID` (`eip155:N` or `N`) that
 * narrows a payload hash to one chain; `otp` is read as nothing (the
 * emulator confirms on the web page); `secret` is the confirmation page's.
 */
function approvalRequestOf(
  deps: Deps,
  body: unknown,
): { chainId?: number } | string {
  const shape =
    "Expected { chainType: 'evm', chainID?, otp? } (chainID eip155:<id> or <id> of a chain of the emulator)."
  if (!isRecord(body) || body.chainType !== 'evm') return shape
  if (body.otp !== undefined && typeof body.otp !== 'string') return shape
  if (body.chainID === undefined) return {}
  const chain =
    typeof body.chainID === 'string'
      ? anyChainIdOf(deps, body.chainID)
      : undefined
  return chain ? { chainId: chain.chainId } : shape
}

/** A body that, when sent, must be a JSON object. */
function objectBody(body: unknown): { chainId?: number } | string {
  return isRecord(body) ? {} : 'The body, when sent, must be a JSON object.'
}

/** A chain id as `eip155:N` or `N`, of an emulator chain. */
function anyChainIdOf(deps: Deps, value: string): ApiChain | undefined {
  return (
    caip2ChainOf(deps, value) ??
    (/^[1-9][0-9]{0,15}$/.test(value)
      ? chainById(deps, Number(value))
      : undefined)
  )
}

/** `text` parsed as JSON; `undefined` when it is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

const walletQueryError = 'wallet must be an address.'

/**
 * Whether an approval of a verdict waiting for the player may settle it:
 * it comes from the confirmation page's own flow (the passport domain's
 * origin, which browsers set and pages cannot, and the verdict's secret,
 * which only that page's HTML holds), or from a program on this machine.
 * Browsers send `Origin` with every cross-origin or POST request and
 * `Sec-Fetch-Site` with every request; a program sends neither, and only a
 * program on this machine reaches the emulator's loopback address.
 */
async function confirmedByPage(
  c: HonoContext<ApiEnv>,
  deps: Deps,
  id: string,
): Promise<boolean> {
  const origin = c.req.header('origin')
  if (origin === undefined && c.req.header('sec-fetch-site') === undefined)
    return true
  if (deps.passportOrigin === undefined || origin !== deps.passportOrigin)
    return false
  const body = await readJson(c)
  return isRecord(body) && deps.guardian.isSecretOf(id, body.secret)
}

/** The `wallet` query: undefined when absent, null when not an address. */
function walletQueryOf(c: HonoContext<ApiEnv>): Address | undefined | null {
  const value = c.req.query('wallet')
  if (value === undefined) return undefined
  return addressOf(value) ?? null
}

/**
 * The player's zkEVM wallet, or the answer refusing the request: 401 for
 * an unknown player, 403 for one not registered yet.
 */
function walletOf(c: HonoContext<ApiEnv>, deps: Deps): Address | Response {
  const player = playerOf(deps, c.var.bearer)
  if (!player) return fail(c, 'unauthorised', 'The player is unknown.')
  const wallet = player.passport.zkevmEthAddress
  if (!wallet)
    return fail(
      c,
      'authentication',
      'The player has no zkEVM wallet yet: register it first.',
    )
  return wallet
}

/**
 * The player's StarkEx address (`imx_eth_address`), or the answer refusing
 * the request: 401 for an unknown player, 403 for one not registered with
 * the exchange yet.
 */
function starkExWalletOf(
  c: HonoContext<ApiEnv>,
  deps: Deps,
): Address | Response {
  const player = playerOf(deps, c.var.bearer)
  if (!player) return fail(c, 'unauthorised', 'The player is unknown.')
  const wallet = player.passport.imxEthAddress
  if (!wallet)
    return fail(
      c,
      'authentication',
      'The player is not registered with StarkEx yet: register first.',
    )
  return wallet
}

/** A StarkEx payload hash as a path may carry it: hex, `0x` or not. */
const payloadHashPattern = /^(0x)?[0-9a-fA-F]{1,64}$/

/**
 * The StarkEx request the route's `{id}` names, when it is `wallet`'s: 404
 * when the exchange registered none under that payload hash, 403 when it
 * is another player's.
 */
function ownStarkEx(
  c: HonoContext<ApiEnv>,
  deps: Deps,
  wallet: Address,
): StarkExTransaction | Response {
  const id = c.req.param('id') ?? ''
  const transaction = payloadHashPattern.test(id)
    ? deps.guardian.starkExTransaction(id)
    : undefined
  if (!transaction)
    return fail(
      c,
      'notFound',
      `There is no StarkEx request ${id.slice(0, 100)}.`,
    )
  if (transaction.wallet !== wallet)
    return fail(
      c,
      'authentication',
      "The StarkEx request is about another player's wallet.",
    )
  return transaction
}

/**
 * The guardian's record of a StarkEx request, as `GET
 * /guardian/v1/transactions/{payloadHash}?chainType=starkex` answers it:
 * `id` the payload hash as the exchange prints it (lowercase hex, no `0x`),
 * `eth_address` the player's `imx_eth_address`, `status` the newest
 * verdict's state or `'unevaluated'` before the first evaluation, and the
 * request the exchange registered as `transaction_metadata`.
 */
export type StarkExRecord = Transaction & {
  transaction_type: typeof starkExChainType
  status: Verdict['state'] | 'unevaluated'
  transaction_metadata: {
    type: StarkExType
    /** What the exchange described: tokens, amounts, parties. */
    details: unknown
  }
}

/** Answers the StarkEx record the route names. */
function starkExRecord(c: HonoContext<ApiEnv>, deps: Deps): Response {
  const wallet = starkExWalletOf(c, deps)
  if (typeof wallet !== 'string') return wallet
  const transaction = ownStarkEx(c, deps, wallet)
  if (transaction instanceof Response) return transaction
  const verdict = deps.guardian.find({
    wallet,
    digest: starkExDigest(transaction.payloadHash),
    kinds: ['starkex'],
    chainId: starkExChainId,
  })
  return c.json({
    id: transaction.payloadHash,
    eth_address: wallet,
    status: verdict?.state ?? 'unevaluated',
    transaction_type: starkExChainType,
    version: recordVersion,
    transaction_metadata: {
      type: transaction.type,
      details: transaction.details,
    },
  } satisfies StarkExRecord)
}

/**
 * Approves the player's newest verdict on the StarkEx payload hash `{id}`
 * (body `{ chainType: 'starkex', chainID?, otp? }`, as the published 2.14.0
 * client's `TransactionApprovalRequest` allows), settled as a zkEVM
 * verdict is: one waiting for the player only from the confirmation
 * page's flow or a program on this machine.
 */
async function approveStarkEx(
  c: HonoContext<ApiEnv>,
  deps: Deps,
  body: Record<string, unknown>,
): Promise<Response> {
  const wallet = starkExWalletOf(c, deps)
  if (typeof wallet !== 'string') return wallet
  if (
    (body.chainID !== undefined && typeof body.chainID !== 'string') ||
    (body.otp !== undefined && typeof body.otp !== 'string')
  )
    return fail(
      c,
      'validation',
      "Expected { chainType: 'starkex', chainID?, otp? } (strings).",
    )
  const id = c.req.param('id') ?? ''
  const verdict = payloadHashPattern.test(id)
    ? deps.guardian.find({
        wallet,
        digest: starkExDigest(id),
        kinds: ['starkex'],
        chainId: starkExChainId,
      })
    : undefined
  if (!verdict) {
    // Another player's request is refused as such, not hidden.
    const transaction = ownStarkEx(c, deps, wallet)
    if (transaction instanceof Response) return transaction
    return fail(
      c,
      'notFound',
      `The StarkEx request ${transaction.payloadHash} has not been evaluated.`,
    )
  }
  if (verdict.state === 'rejected')
    return fail(c, 'conflict', 'The evaluation was rejected already.')
  if (
    verdict.state === 'pending' &&
    !(await confirmedByPage(c, deps, verdict.id))
  )
    return fail(
      c,
      'authentication',
      'Only the confirmation page, or a program on this machine, may approve what the player must confirm.',
    )
  deps.guardian.settle(verdict.id, 'allowed')
  return c.body(null, 204)
}

function tooLarge(c: HonoContext) {
  return c.json(
    errorBody(
      'VALIDATION_ERROR',
      `An evaluation is at most ${maxEvaluationBytes} bytes.`,
    ),
    413,
  )
}

function unavailable(c: HonoContext) {
  return fail(c, 'authentication', 'The guardian is unavailable.')
}

/** Records a message verdict and answers the evaluation. */
function evaluated(
  c: HonoContext,
  deps: Deps,
  entry: {
    kind: 'message' | 'erc191'
    chainId: number
    wallet: Address
    digest: Hex
    confirm: boolean
    payload: unknown
  },
) {
  const { confirm, ...rest } = entry
  const verdict = deps.guardian.record({
    ...rest,
    state: confirm ? 'pending' : 'allowed',
  })
  return c.json({
    confirmationRequired: verdict.state === 'pending',
    confirmationMethod: 'web',
    messageId: verdict.id,
  } satisfies EvaluateMessageResponse &
    components['schemas']['MessageEvaluationResponse'])
}

/**
 * Whether the rules want the player to confirm these meta-transactions:
 * more value than `confirmAboveValue` in all, or (with
 * `confirmUnknownContracts`) a contract call to a contract outside
 * `knownContracts`. A contract call is a call with data, or any
 * delegateCall: that runs the target's code as the wallet itself (its
 * storage, its funds), data or not. A plain call without data only moves
 * value, which the first rule covers.
 */
export function mustConfirm(
  rules: Rules,
  transactions: readonly MetaTransaction[],
): boolean {
  if (rules.confirmAboveValue !== undefined) {
    const total = transactions.reduce((sum, tx) => sum + tx.value, 0n)
    if (total > rules.confirmAboveValue) return true
  }
  if (rules.confirmUnknownContracts) {
    const known = new Set(
      (rules.knownContracts ?? []).map((address) => address.toLowerCase()),
    )
    if (
      transactions.some(
        (tx) =>
          (tx.delegateCall || tx.data !== '0x') &&
          !known.has(tx.target.toLowerCase()),
      )
    )
      return true
  }
  return false
}

/** A checked transaction evaluation, or why it is refused. */
function transactionRequestOf(
  deps: Deps,
  body: unknown,
):
  | {
      chainId: number
      nonce: bigint
      userAddress: Address
      metaTransactions: MetaTransaction[]
    }
  | string {
  const shape =
    "Expected { chainType: 'evm', chainId: 'eip155:<id>', transactionData: { nonce, userAddress, metaTransactions } }."
  if (!isRecord(body) || body.chainType !== 'evm') return shape
  const chain = caip2ChainOf(deps, body.chainId)
  if (!chain) return 'chainId must be eip155:<id of a chain of the emulator>.'
  const data = body.transactionData
  if (!isRecord(data)) return shape
  const nonce = uint256Of(data.nonce)
  if (nonce === undefined)
    return 'transactionData.nonce must be a decimal uint256.'
  const userAddress = addressOf(data.userAddress)
  if (!userAddress) return 'transactionData.userAddress must be an address.'
  const list = data.metaTransactions
  if (
    !Array.isArray(list) ||
    list.length === 0 ||
    list.length > maxMetaTransactions
  )
    return `transactionData.metaTransactions must hold 1 to ${maxMetaTransactions} meta-transactions.`
  const metaTransactions: MetaTransaction[] = []
  for (const [index, item] of list.entries()) {
    const tx = metaTransactionOf(item)
    if (!tx)
      return `transactionData.metaTransactions[${index}] must be { delegateCall, revertOnError, gasLimit, target, value, data } (booleans, decimal strings, an address, hex).`
    metaTransactions.push(tx)
  }
  return { chainId: chain.chainId, nonce, userAddress, metaTransactions }
}

export function metaTransactionOf(item: unknown): MetaTransaction | undefined {
  if (!isRecord(item)) return undefined
  const { delegateCall, revertOnError } = item
  const gasLimit = uint256Of(item.gasLimit)
  const value = uint256Of(item.value)
  const target = addressOf(item.target)
  const data = bytesOf(item.data)
  if (
    typeof delegateCall !== 'boolean' ||
    typeof revertOnError !== 'boolean' ||
    gasLimit === undefined ||
    value === undefined ||
    !target ||
    !data
  )
    return undefined
  return { delegateCall, revertOnError, gasLimit, target, value, data }
}

/** The chain of a plain decimal `chainID` (the typed-data evaluation's). */
function decimalChainOf(deps: Deps, value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^[1-9][0-9]{0,15}$/.test(value))
    return undefined
  return chainById(deps, Number(value))?.chainId
}

/**
 * The EIP-712 digest of a typed-data payload on `chainId`, or why it is
 * refused: it needs `types`, `domain`, `primaryType` and `message`, and a
 * domain `chainId` (a number, decimal or hex string) equal to the
 * evaluation's.
 */
function typedDigestOf(payload: unknown, chainId: number): Hex | string {
  if (
    !isRecord(payload) ||
    !isRecord(payload.types) ||
    !isRecord(payload.domain) ||
    typeof payload.primaryType !== 'string' ||
    !isRecord(payload.message)
  )
    return 'payload must be typed data: { types, domain, primaryType, message }.'
  const domainChain = payload.domain.chainId
  if (domainChain !== undefined && chainIdOf(domainChain) !== chainId)
    return `The typed data's domain.chainId is not ${chainId}.`
  try {
    return typedDataDigest(payload as unknown as TypedDataDefinition)
  } catch {
    return 'payload is not valid EIP-712 typed data.'
  }
}

/** The rules as JSON. */
function rulesBodyOf(rules: Rules): RulesBody {
  return {
    confirmAboveValue: rules.confirmAboveValue?.toString() ?? null,
    confirmUnknownContracts: rules.confirmUnknownContracts === true,
    knownContracts: [...(rules.knownContracts ?? [])],
    confirmTypedData: rules.confirmTypedData === true,
    confirmErc191: rules.confirmErc191 === true,
    confirmStarkEx: [...(rules.confirmStarkEx ?? [])],
    unavailable: rules.unavailable === true,
  }
}

const ruleNames = [
  'confirmAboveValue',
  'confirmUnknownContracts',
  'knownContracts',
  'confirmTypedData',
  'confirmErc191',
  'confirmStarkEx',
  'unavailable',
]

/** Rules from a `PUT` body, or why it is refused. */
function rulesOf(body: unknown): Rules | string {
  if (!isRecord(body)) return 'Expected a JSON object of rules.'
  const unknown = Object.keys(body).filter((key) => !ruleNames.includes(key))
  if (unknown.length > 0)
    return `Unknown rules: ${unknown.slice(0, 10).join(', ')}. Known: ${ruleNames.join(', ')}.`
  const rules: Rules = {}
  if (body.confirmAboveValue !== undefined && body.confirmAboveValue !== null) {
    const value = uint256Of(body.confirmAboveValue)
    if (value === undefined)
      return 'confirmAboveValue must be a decimal string of wei, or null.'
    rules.confirmAboveValue = value
  }
  for (const flag of [
    'confirmUnknownContracts',
    'confirmTypedData',
    'confirmErc191',
    'unavailable',
  ] as const) {
    const value = body[flag]
    if (value === undefined || value === null) continue
    if (typeof value !== 'boolean') return `${flag} must be a boolean.`
    rules[flag] = value
  }
  if (body.knownContracts !== undefined && body.knownContracts !== null) {
    const list = body.knownContracts
    if (!Array.isArray(list) || list.length > maxKnownContracts)
      return `knownContracts must be an array of at most ${maxKnownContracts} addresses.`
    const addresses = list.map(addressOf)
    if (addresses.some((address) => address === undefined))
      return 'knownContracts must hold addresses only.'
    rules.knownContracts = addresses as Address[]
  }
  if (body.confirmStarkEx !== undefined && body.confirmStarkEx !== null) {
    const list = body.confirmStarkEx
    if (
      !Array.isArray(list) ||
      list.length > starkExTypes.length ||
      !list.every((type) => starkExTypes.includes(type))
    )
      return `confirmStarkEx must be an array of StarkEx request types: ${starkExTypes.join(', ')}.`
    // In the canonical order, each once.
    rules.confirmStarkEx = starkExTypes.filter((type) => list.includes(type))
  }
  return rules
}
