/**
 * On- and off-ramps through a provider (MoonPay, Layerswap), as the legacy
 * exchange API served them:
 *
 * - `POST /v3/exchanges` `{ wallet_address, provider, type, widget? }` →
 *   an exchange with an id, status `created`; its provider's receiving
 *   wallet is `data.provider_wallet_address` of `GET /v3/exchanges/{id}`;
 * - `GET /v3/exchanges` (filters `id`, `wallet_address`, `status`,
 *   `provider`, `transfer_id`; `order_by`, `direction`, pages) and
 *   `GET /v3/exchanges/{id}`;
 * - `POST /v2/exchanges/{id}/signable-transfer-details` (no token, as the
 *   published SDK calls it) `{ sender, token, amount, receiver }`: the
 *   sender must be the exchange's wallet and the receiver its provider's;
 * - `POST /v2/exchanges/{id}/transfers` [Bearer or wallet headers, see
 *   credentials.ts]: the signed transfer
 *   applied (not guarded: the published SDK asks no guardian for it); the
 *   exchange becomes `completed`, with the transfer's id and amount.
 *
 * Each provider's receiving wallet is an account the emulator registers
 * itself at start: its Ethereum address and Stark key are derived from the
 * provider's name (see {@link providerAccountOf}), so they are the same on
 * every run.
 *
 * @packageDocumentation
 */
import { getStarkKey } from '@scure/starknet'
import type { Hono, Context as HonoContext } from 'hono'
import { type Address, keccak256, toBytes } from 'viem'
import { privateKeyToAddress } from 'viem/accounts'
import type { components } from '../../../api/wire/imx/schema.generated.js'
import {
  accountOfCredential,
  requireCredential,
  walletSignatureRefusal,
} from './credentials.js'
import {
  addressOf,
  baseUnits,
  type Deps,
  directionOf,
  fail,
  isRecord,
  pageAnswer,
  pageOf,
  readJson,
  type StarkExEnv,
  sortedBy,
} from './http.js'
import { normalizeStarkKey, payloadHashText, starkOrder } from './stark.js'
import {
  checkSignedTransfer,
  commitTransfers,
  issueTransfer,
  prepareTransfer,
} from './transfers.js'

type Schemas = components['schemas']

/** The providers of the exchanges. */
export const providers = ['moonpay', 'layerswap'] as const
/** A provider of the exchanges. */
export type Provider = (typeof providers)[number]

/** The exchange types. */
export const exchangeTypes = ['onramp', 'offramp'] as const

/** The most exchanges kept; the oldest are forgotten. */
export const maxExchanges = 100_000

/** An exchange. */
export type ExchangeRecord = {
  readonly id: number
  readonly provider: Provider
  readonly type: (typeof exchangeTypes)[number]
  readonly walletAddress: Address
  status: 'created' | 'completed'
  readonly createdAt: number
  updatedAt: number
  /** The transfer that settled it, once completed. */
  transfer?: { id: number; amount: string; currency: string } | undefined
}

/** The exchanges created, bounded by {@link maxExchanges}. */
export type ExchangeStore = {
  create(entry: Omit<ExchangeRecord, 'id'>): ExchangeRecord
  get(id: number): ExchangeRecord | undefined
  all(): readonly ExchangeRecord[]
}

/** Creates an empty {@link ExchangeStore}. */
export function createExchangeStore(): ExchangeStore {
  const records = new Map<number, ExchangeRecord>()
  let next = 1
  return {
    create(entry) {
      while (records.size >= maxExchanges)
        records.delete(records.keys().next().value as number)
      const record: ExchangeRecord = { ...entry, id: next++ }
      records.set(record.id, record)
      return record
    },
    get: (id) => records.get(id),
    all: () => [...records.values()],
  }
}

/**
 * A provider's receiving account: the Ethereum address of the key
 * `keccak256("embedded-wallets emulator exchange provider " + name + " eth")`
 * and the Stark key of the private key `keccak256(… + " stark") mod` the
 * curve order.
 */
export function providerAccountOf(provider: Provider): {
  ethAddress: Address
  starkKey: string
} {
  const seed = `embedded-wallets emulator exchange provider ${provider}`
  const ethKey = keccak256(toBytes(`${seed} eth`))
  const starkPrivate = BigInt(keccak256(toBytes(`${seed} stark`))) % starkOrder
  return {
    ethAddress: privateKeyToAddress(ethKey),
    starkKey: normalizeStarkKey(
      getStarkKey(`0x${starkPrivate.toString(16).padStart(64, '0')}`),
    )!,
  }
}

/** An exchange as the legacy API's `Exchange` describes it. */
function exchangeAnswer(
  record: ExchangeRecord,
  deps: Deps,
): Schemas['Exchange'] {
  const provider = deps.ledger.accountOf(
    providerAccountOf(record.provider).ethAddress,
  )
  return {
    id: record.id,
    provider: record.provider,
    type: record.type,
    status: record.status,
    wallet_address: record.walletAddress.toLowerCase(),
    created_at: new Date(record.createdAt).toISOString(),
    updated_at: new Date(record.updatedAt).toISOString(),
    data: {
      provider_wallet_address: provider?.ethAddress.toLowerCase() ?? '',
      ...(record.transfer
        ? {
            transfer_id: String(record.transfer.id),
            from_amount: Number(record.transfer.amount),
            from_currency: record.transfer.currency,
          }
        : {}),
    },
  }
}

/** Mounts the exchanges routes, registering the providers' accounts. */
export function exchangeRoutes(app: Hono<StarkExEnv>, deps: Deps) {
  const credential = requireCredential(deps)
  for (const provider of providers) {
    const account = providerAccountOf(provider)
    if (!deps.ledger.accountOf(account.ethAddress))
      deps.ledger.register({ ...account, sub: undefined })
  }

  const exchangeOf = (c: HonoContext) => {
    const text = c.req.param('id') ?? ''
    return /^[1-9][0-9]{0,14}$/.test(text)
      ? deps.exchanges.get(Number(text))
      : undefined
  }

  app.post('/v3/exchanges', async (c) => {
    const body = await readJson(c)
    if (!isRecord(body))
      return fail(
        c,
        'validation',
        'Expected a JSON body { wallet_address, provider, type }.',
      )
    const walletAddress = addressOf(body.wallet_address)
    if (!walletAddress)
      return fail(
        c,
        'validation',
        'wallet_address must be an Ethereum address.',
      )
    const provider = providers.find((p) => p === body.provider)
    if (!provider)
      return fail(
        c,
        'validation',
        `provider must be one of ${providers.join(', ')}.`,
      )
    const type = exchangeTypes.find((t) => t === body.type)
    if (!type)
      return fail(
        c,
        'validation',
        `type must be one of ${exchangeTypes.join(', ')}.`,
      )
    const time = deps.now()
    const record = deps.exchanges.create({
      provider,
      type,
      walletAddress,
      status: 'created',
      createdAt: time,
      updatedAt: time,
    })
    return c.json({
      id: record.id,
      provider,
      type,
      wallet_address: walletAddress.toLowerCase(),
      url: new URL(`/v3/exchanges/${record.id}`, c.req.url).href,
    } satisfies Schemas['exchange.CreateExchangeAndURLResponse'])
  })

  app.get('/v3/exchanges', (c) => {
    const page = pageOf(c)
    if (!page.ok) return fail(c, 'validation', page.message)
    const direction = directionOf(c)
    if (!direction.ok) return fail(c, 'validation', direction.message)
    const q = (name: string) => c.req.query(name) || undefined
    const tests: ((r: ExchangeRecord) => boolean)[] = []
    const id = q('id')
    if (id !== undefined) tests.push((r) => String(r.id) === id)
    const wallet = q('wallet_address')
    if (wallet !== undefined) {
      const address = addressOf(wallet)
      if (!address)
        return fail(
          c,
          'validation',
          'wallet_address must be an Ethereum address.',
        )
      tests.push((r) => r.walletAddress === address)
    }
    const status = q('status')
    if (status !== undefined) tests.push((r) => r.status === status)
    const provider = q('provider')
    if (provider !== undefined) tests.push((r) => r.provider === provider)
    const transferId = q('transfer_id')
    if (transferId !== undefined)
      tests.push((r) => String(r.transfer?.id) === transferId)
    const orderBy = q('order_by') ?? 'id'
    const keys: Record<string, (r: ExchangeRecord) => string | number> = {
      id: (r) => r.id,
      status: (r) => r.status,
      exchange: (r) => r.provider,
      amount: (r) => Number(r.transfer?.amount ?? 0),
      transfer_id: (r) => r.transfer?.id ?? 0,
    }
    const found = sortedBy(
      deps.exchanges.all().filter((r) => tests.every((t) => t(r))),
      keys,
      orderBy,
      direction.value,
      (r) => r.id,
    )
    if (!found.ok) return fail(c, 'validation', found.message)
    return c.json(
      pageAnswer(
        found.value.map((r) => exchangeAnswer(r, deps)),
        page.value,
      ) satisfies Schemas['GetTransactionsResponse'],
    )
  })

  app.get('/v3/exchanges/:id', (c) => {
    const record = exchangeOf(c)
    if (!record) return fail(c, 'notFound', `No exchange ${c.req.param('id')}.`)
    return c.json(exchangeAnswer(record, deps) satisfies Schemas['Exchange'])
  })

  app.post('/v2/exchanges/:id/signable-transfer-details', async (c) => {
    const record = exchangeOf(c)
    if (!record) return fail(c, 'notFound', `No exchange ${c.req.param('id')}.`)
    if (record.status !== 'created')
      return fail(
        c,
        'conflict',
        `Exchange ${record.id} is ${record.status} already.`,
      )
    const body = await readJson(c)
    if (!isRecord(body))
      return fail(
        c,
        'validation',
        'Expected a JSON body { sender, token, amount, receiver }.',
      )
    if (addressOf(body.sender) !== record.walletAddress)
      return fail(
        c,
        'validation',
        `The sender must be the exchange's wallet ${record.walletAddress}.`,
      )
    const sender = deps.ledger.accountOf(record.walletAddress)
    if (!sender)
      return fail(
        c,
        'validation',
        `${record.walletAddress} is not registered with StarkEx.`,
      )
    const provider = providerAccountOf(record.provider)
    if (addressOf(body.receiver) !== provider.ethAddress)
      return fail(
        c,
        'validation',
        `The receiver must be the provider's wallet ${provider.ethAddress.toLowerCase()}.`,
      )
    const prepared = prepareTransfer(deps, sender, body, {
      kind: 'exchangeTransfer',
    })
    if (!prepared.ok) return fail(c, prepared.kind, prepared.message)
    const payloadHash = payloadHashText(prepared.issue.hash)
    const { token: _, ...answer } = await issueTransfer(deps, {
      ...prepared.issue,
      details: { first: payloadHash, exchangeId: record.id },
    })
    return c.json({
      ...answer,
      sender_stark_key: sender.starkKey,
    } satisfies Schemas['GetSignableTransferResponseV1'])
  })

  app.post('/v2/exchanges/:id/transfers', credential, async (c) => {
    const record = exchangeOf(c)
    if (!record) return fail(c, 'notFound', `No exchange ${c.req.param('id')}.`)
    const body = await readJson(c)
    if (!isRecord(body))
      return fail(c, 'validation', 'Expected a JSON body of a signed transfer.')
    const sender = accountOfCredential(
      deps,
      c.var.credential,
      body.sender_stark_key,
      'sender_stark_key',
    )
    if (!sender.ok) return fail(c, sender.kind, sender.message)
    const { account } = sender
    const checked = checkSignedTransfer(deps, account, body, [
      'exchangeTransfer',
    ])
    if (!checked.ok) return fail(c, checked.kind, checked.message)
    const unsigned = await walletSignatureRefusal(
      c.var.credential,
      account,
      checked.pending,
    )
    if (unsigned) return fail(c, unsigned.kind, unsigned.message)
    if (checked.pending.details.exchangeId !== record.id)
      return fail(
        c,
        'validation',
        `payload_hash ${payloadHashText(checked.hash)} was issued for another exchange.`,
      )
    if (record.status !== 'created')
      return fail(
        c,
        'conflict',
        `Exchange ${record.id} is ${record.status} already.`,
      )
    const committed = commitTransfers(deps, account, [checked])
    if (!committed.ok) return fail(c, committed.kind, committed.message)
    const transfer = committed.records[0]!
    record.status = 'completed'
    record.updatedAt = transfer.time
    record.transfer = {
      id: transfer.id,
      amount: baseUnits(transfer.amount, transfer.asset),
      currency:
        transfer.asset.type === 'ETH'
          ? 'ETH'
          : transfer.asset.type === 'ERC20'
            ? transfer.asset.tokenAddress
            : `${transfer.asset.tokenAddress}:${transfer.asset.tokenId}`,
    }
    return c.json({
      sent_signature: checked.signature,
      status: transfer.status,
      time: Math.floor(transfer.time / 1000),
      transfer_id: transfer.id,
    } satisfies Schemas['CreateTransferResponseV1'])
  })
}
