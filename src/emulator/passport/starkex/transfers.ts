/**
 * Transfers between registered StarkEx accounts:
 *
 * - `POST /v1/signable-transfer-details` [Bearer] `{ sender, token, amount,
 *   receiver }` → the vaults, quantized amount, a fresh nonce, the
 *   expiration and the `payload_hash` to sign (StarkEx's transfer hash);
 *   registered with the guardian (type `transfer`);
 * - `POST /v1/transfers` [Bearer or wallet headers, see credentials.ts] →
 *   the transfer applied once its Stark signature, nonce, expiry, vaults,
 *   balance and the guardian's approval check out; status `success`;
 * - `POST /v2/signable-transfer-details` [Bearer] `{ sender_ether_key,
 *   signable_requests }` → one payload hash and nonce per request, the
 *   batch registered with the guardian once, under the first hash (type
 *   `batchNftTransfer`);
 * - `POST /v2/transfers` [Bearer or wallet headers] `{ sender_stark_key,
 *   requests }` → all of the batch's transfers applied, or none (the
 *   headers sign the batch's one `signable_message`);
 * - `GET /v1/transfers/{id}` and `GET /v1/transfers` with the legacy API's
 *   filters (`metadata` is not supported: 400).
 *
 * The signable answer is what the create must be sent back: the create
 * recomputes the hash from the fields it receives and finds the request
 * issued under it, so no field can differ from what was issued.
 *
 * @packageDocumentation
 */
import type { Hono, Context as HonoContext } from 'hono'
import type { Address } from 'viem'
import type { components } from '../../../api/wire/imx/schema.generated.js'
import { starkExChainId, starkExDigest } from '../../guardian.js'
import {
  accountOfCredential,
  requireCredential,
  walletSignatureRefusal,
} from './credentials.js'
import {
  accountOfPlayer,
  addressOf,
  assetIdOf,
  baseUnits,
  type Deps,
  decimalOf,
  directionOf,
  expirationOf,
  fail,
  isExpired,
  isRecord,
  knownTokenOf,
  notRegistered,
  pageAnswer,
  pageOf,
  quantize,
  readJson,
  requirePlayer,
  type StarkExEnv,
  sortedBy,
  starkKeyOf,
  timeOf,
  tokenFiltersOf,
  uint31Of,
} from './http.js'
import {
  type Account,
  type AssetInfo,
  InvalidMovementError,
  LedgerError,
  LedgerFullError,
  type Movement,
  type Pending,
} from './ledger.js'
import {
  assetIdText,
  parseStarkSignature,
  payloadHashText,
  StarkRangeError,
  transferHash,
  verifyStarkSignature,
} from './stark.js'

type Schemas = components['schemas']

/** The most transfers kept for the lists; the oldest are forgotten. */
export const maxTransfers = 100_000

/** The most requests of one batch transfer. */
export const maxBatch = 100

/** A transfer the exchange applied. */
export type TransferRecord = {
  readonly id: number
  /** The sender's Ethereum address. */
  readonly user: Address
  readonly receiver: Address
  readonly asset: AssetInfo
  /** Quantized. */
  readonly amount: bigint
  /** ms since the epoch. */
  readonly time: number
  readonly status: 'success'
}

/** The transfers made, newest last, bounded by {@link maxTransfers}. */
export type TransferStore = {
  add(record: TransferRecord): void
  get(id: number): TransferRecord | undefined
  all(): readonly TransferRecord[]
}

/** Creates an empty {@link TransferStore}. */
export function createTransferStore(): TransferStore {
  const records = new Map<number, TransferRecord>()
  return {
    add(record) {
      while (records.size >= maxTransfers)
        records.delete(records.keys().next().value as number)
      records.set(record.id, record)
    },
    get: (id) => records.get(id),
    all: () => [...records.values()],
  }
}

/** A transfer as the legacy API's `Transfer` describes it. */
export function transferAnswer(record: TransferRecord): Schemas['Transfer'] {
  return {
    transaction_id: record.id,
    status: record.status,
    user: record.user.toLowerCase(),
    receiver: record.receiver.toLowerCase(),
    timestamp: new Date(record.time).toISOString(),
    token: tokenAnswer(record.asset, baseUnits(record.amount, record.asset)),
  }
}

/** A token and quantity as the legacy API's `Token` describes it. */
export function tokenAnswer(
  asset: AssetInfo,
  quantity: string,
): Schemas['Token'] {
  return {
    type: asset.type,
    data: {
      ...(asset.type === 'ERC721'
        ? {
            token_id: asset.tokenId.toString(),
            token_address: asset.tokenAddress,
          }
        : { decimals: asset.decimals }),
      ...(asset.type === 'ERC20' ? { token_address: asset.tokenAddress } : {}),
      ...(asset.type === 'ETH' ? { symbol: 'ETH' } : {}),
      id: assetIdText(asset.id),
      quantity,
      quantity_with_fees: quantity,
    },
  }
}

/** A token descriptor (`SignableToken`) of an asset. */
export function signableToken(asset: AssetInfo): Schemas['SignableToken'] {
  if (asset.type === 'ETH') return { type: 'ETH', data: { decimals: 18 } }
  if (asset.type === 'ERC20')
    return {
      type: 'ERC20',
      data: { token_address: asset.tokenAddress, decimals: asset.decimals },
    }
  return {
    type: 'ERC721',
    data: {
      token_address: asset.tokenAddress,
      token_id: asset.tokenId.toString(),
    },
  }
}

/**
 * The `signable_message` of a transfer: what the sender's Ethereum key
 * signs in the `x-imx-eth-signature` header of its create.
 */
export function transferMessage(
  amount: string,
  asset: AssetInfo,
  receiver: Address,
  payloadHash: string,
): string {
  const token =
    asset.type === 'ERC721'
      ? `ERC721 ${asset.tokenAddress} #${asset.tokenId}`
      : asset.type === 'ERC20'
        ? `ERC20 ${asset.tokenAddress}`
        : 'ETH'
  return [
    'Only sign this request if you\u2019ve initiated an action with Immutable X.',
    '',
    `Transfer ${amount} base units of ${token} to ${receiver.toLowerCase()}.`,
    `Payload hash: ${payloadHash}`,
  ].join('\n')
}

/** What the signable of one transfer stands for. */
export type TransferIssue = {
  readonly kind: string
  readonly asset: AssetInfo
  readonly quantized: bigint
  readonly sender: Account
  readonly receiver: Account
  readonly senderVault: number
  readonly receiverVault: number
  readonly nonce: number
  readonly expiration: number
  readonly hash: bigint
  /** What the pending entry carries back to the create. */
  readonly details: TransferDetails
}

/** The `details` of a transfer's pending signable. */
export type TransferDetails = {
  /** The first payload hash of its batch (its own for a single transfer). */
  readonly first: string
  /** An exchange transfer's exchange id. */
  readonly exchangeId?: number | undefined
}

type Refusal = {
  kind: 'validation' | 'conflict' | 'notFound' | 'authentication'
  message: string
}

/**
 * Prepares one signable transfer of `sender`: reads the token, amount and
 * receiver, checks the sender's balance covers `alreadySent` plus this
 * amount, opens the receiver's vault and computes the hash. Records
 * nothing but the receiver's vault.
 */
export function prepareTransfer(
  deps: Deps,
  sender: Account,
  request: Record<string, unknown>,
  options: {
    kind: string
    field?: string
    alreadySent?: Map<number, bigint>
    nonces?: Set<number>
  },
):
  | { ok: true; issue: Omit<TransferIssue, 'details'> }
  | ({ ok: false } & Refusal) {
  const field = options.field ?? ''
  const token = knownTokenOf(deps, request.token)
  if (!token.ok)
    return { ok: false, kind: 'validation', message: field + token.message }
  const asset = token.value
  const quantized = quantize(`${field}amount`, request.amount, asset)
  if (!quantized.ok)
    return { ok: false, kind: 'validation', message: quantized.message }
  const receiverAddress = addressOf(request.receiver)
  if (!receiverAddress)
    return {
      ok: false,
      kind: 'validation',
      message: `${field}receiver must be an Ethereum address.`,
    }
  const receiver = deps.ledger.accountOf(receiverAddress)
  if (!receiver)
    return {
      ok: false,
      kind: 'validation',
      message: `The receiver ${receiverAddress} is not registered with StarkEx.`,
    }
  const vault = deps.ledger.vaultOf(sender.starkKey, asset.id)
  const sent = (vault && options.alreadySent?.get(vault.id)) ?? 0n
  if (!vault || vault.balance < sent + quantized.value)
    return {
      ok: false,
      kind: 'validation',
      message: `${sender.ethAddress} holds ${vault ? baseUnits(vault.balance - sent, asset) : '0'} base units of that token, less than the ${baseUnits(quantized.value, asset)} to transfer.`,
    }
  let receiverVault: number
  try {
    receiverVault = deps.ledger.openVault(receiver.starkKey, asset.id).id
  } catch (error) {
    if (error instanceof LedgerFullError)
      return { ok: false, kind: 'conflict', message: error.shortMessage }
    throw error
  }
  options.alreadySent?.set(vault.id, sent + quantized.value)
  let nonce = deps.ledger.freshNonce(sender.starkKey)
  while (options.nonces?.has(nonce))
    nonce = deps.ledger.freshNonce(sender.starkKey)
  options.nonces?.add(nonce)
  const expiration = expirationOf(deps, undefined)
  if (!expiration.ok)
    return { ok: false, kind: 'validation', message: expiration.message }
  const hash = transferHash({
    amount: quantized.value,
    nonce: BigInt(nonce),
    senderVaultId: BigInt(vault.id),
    assetId: asset.id,
    receiverVaultId: BigInt(receiverVault),
    receiverKey: BigInt(receiver.starkKey),
    expiration: BigInt(expiration.value),
  })
  return {
    ok: true,
    issue: {
      kind: options.kind,
      asset,
      quantized: quantized.value,
      sender,
      receiver,
      senderVault: vault.id,
      receiverVault,
      nonce,
      expiration: expiration.value,
      hash,
    },
  }
}

/**
 * Records a prepared transfer's signable and answers its fields. Its
 * `signable_message` is the transfer's own ({@link transferMessage}) unless
 * `message` is given (a batch's one message for all of its transfers).
 */
export async function issueTransfer(
  deps: Deps,
  issue: TransferIssue,
  message?: string,
): Promise<
  Schemas['SignableTransferResponseDetails'] & { signable_message: string }
> {
  const payloadHash = payloadHashText(issue.hash)
  const amount = baseUnits(issue.quantized, issue.asset)
  const signableMessage =
    message ??
    transferMessage(amount, issue.asset, issue.receiver.ethAddress, payloadHash)
  deps.ledger.issue({
    hash: payloadHash,
    kind: issue.kind,
    starkKey: issue.sender.starkKey,
    nonce: issue.nonce,
    expiration: issue.expiration,
    message: signableMessage,
    details: issue.details,
  })
  const readable = JSON.stringify({
    type: 'TransferRequest',
    sender_stark_key: issue.sender.starkKey,
    sender_vault_id: issue.senderVault,
    receiver_stark_key: issue.receiver.starkKey,
    receiver_vault_id: issue.receiverVault,
    asset_id: assetIdText(issue.asset.id),
    amount: issue.quantized.toString(),
    nonce: issue.nonce,
    expiration_timestamp: issue.expiration,
  })
  return {
    amount: issue.quantized.toString(),
    asset_id: assetIdText(issue.asset.id),
    expiration_timestamp: issue.expiration,
    nonce: issue.nonce,
    payload_hash: payloadHash,
    readable_transaction: readable,
    receiver_stark_key: issue.receiver.starkKey,
    receiver_vault_id: issue.receiverVault,
    sender_vault_id: issue.senderVault,
    token: signableToken(issue.asset),
    verification_signature: await deps.verificationSignature(
      readable,
      payloadHash,
    ),
    signable_message: signableMessage,
  }
}

/** A signed transfer as a create request carries it, checked. */
export type SignedTransfer = {
  readonly hash: bigint
  readonly pending: Pending & { details: TransferDetails }
  readonly movement: Movement
  readonly nonce: number
  readonly asset: AssetInfo
  readonly amount: bigint
  readonly receiver: Account
  readonly signature: string
}

/**
 * Checks one signed transfer of `sender` (v1's body, or one of v2's
 * `requests`): its fields, the hash they make, the Stark signature, the
 * signable issued under that hash (of one of `kinds`), its expiry and its
 * vaults. Changes nothing.
 */
export function checkSignedTransfer(
  deps: Deps,
  sender: Account,
  request: Record<string, unknown>,
  kinds: readonly string[],
  field = '',
): ({ ok: true } & SignedTransfer) | ({ ok: false } & Refusal) {
  const bad = (message: string) =>
    ({ ok: false, kind: 'validation', message }) as const
  const senderVault = uint31Of(request.sender_vault_id)
  const receiverVault = uint31Of(request.receiver_vault_id)
  const nonce = uint31Of(request.nonce)
  const expiration = uint31Of(request.expiration_timestamp)
  const amount = decimalOf(request.amount)
  const assetId = assetIdOf(request.asset_id)
  const receiverKey = starkKeyOf(request.receiver_stark_key)
  if (senderVault === undefined)
    return bad(`${field}sender_vault_id must be a uint31.`)
  if (receiverVault === undefined)
    return bad(`${field}receiver_vault_id must be a uint31.`)
  if (nonce === undefined) return bad(`${field}nonce must be a uint31.`)
  if (expiration === undefined)
    return bad(`${field}expiration_timestamp must be a whole number of hours.`)
  if (amount === undefined)
    return bad(`${field}amount must be a decimal string of quantized units.`)
  if (assetId === undefined) return bad(`${field}asset_id must be 0x-hex.`)
  if (!receiverKey)
    return bad(`${field}receiver_stark_key must be a Stark key.`)
  let hash: bigint
  try {
    hash = transferHash({
      amount,
      nonce: BigInt(nonce),
      senderVaultId: BigInt(senderVault),
      assetId,
      receiverVaultId: BigInt(receiverVault),
      receiverKey: BigInt(receiverKey),
      expiration: BigInt(expiration),
    })
  } catch (error) {
    if (error instanceof StarkRangeError) return bad(field + error.shortMessage)
    throw error
  }
  const payloadHash = payloadHashText(hash)
  const signature = parseStarkSignature(request.stark_signature)
  if (!signature)
    return bad(
      `${field}stark_signature must be 0x followed by r and s, 64 hex digits each.`,
    )
  if (!verifyStarkSignature(signature, hash, sender.starkKey))
    return bad(
      `The Stark signature does not sign payload_hash ${payloadHash} for Stark key ${sender.starkKey}.`,
    )
  const pending = deps.ledger.pending(hash)
  if (
    !pending ||
    pending.starkKey !== sender.starkKey ||
    !kinds.includes(pending.kind)
  ) {
    if (deps.ledger.isNonceUsed(sender.starkKey, nonce))
      return bad(
        `Nonce ${nonce} of Stark key ${sender.starkKey} was used already.`,
      )
    return bad(
      `No transfer was issued with payload_hash ${payloadHash}: ask for its signable details first.`,
    )
  }
  if (isExpired(deps, expiration))
    return bad(`The transfer with payload_hash ${payloadHash} has expired.`)
  const asset = deps.ledger.asset(assetId)
  const from = deps.ledger.vault(senderVault)
  const to = deps.ledger.vault(receiverVault)
  const receiver = deps.ledger.accountOfKey(receiverKey)
  if (
    !asset ||
    !from ||
    from.starkKey !== sender.starkKey ||
    from.assetId !== assetId
  )
    return bad(
      `Vault ${senderVault} is not a vault of Stark key ${sender.starkKey} for asset ${assetIdText(assetId)}.`,
    )
  if (!receiver || !to || to.starkKey !== receiverKey || to.assetId !== assetId)
    return bad(
      `Vault ${receiverVault} is not a vault of Stark key ${receiverKey} for asset ${assetIdText(assetId)}.`,
    )
  return {
    ok: true,
    hash,
    pending: pending as Pending & { details: TransferDetails },
    movement: { from: senderVault, to: receiverVault, amount },
    nonce,
    asset,
    amount,
    receiver,
    signature: request.stark_signature as string,
  }
}

/**
 * Applies checked transfers of `sender` all or nothing and records them;
 * a refusal when a nonce was spent or a balance falls short.
 */
export function commitTransfers(
  deps: Deps,
  sender: Account,
  transfers: readonly SignedTransfer[],
): { ok: true; records: TransferRecord[] } | ({ ok: false } & Refusal) {
  try {
    deps.ledger.commit({
      starkKey: sender.starkKey,
      nonces: transfers.map((t) => t.nonce),
      movements: transfers.map((t) => t.movement),
    })
  } catch (error) {
    if (error instanceof LedgerFullError)
      return { ok: false, kind: 'conflict', message: error.shortMessage }
    if (error instanceof InvalidMovementError || error instanceof LedgerError)
      return { ok: false, kind: 'validation', message: error.shortMessage }
    throw error
  }
  const time = deps.now()
  const records = transfers.map((transfer) => {
    deps.ledger.settle(transfer.hash)
    const record: TransferRecord = {
      id: deps.nextTransactionId(),
      user: sender.ethAddress,
      receiver: transfer.receiver.ethAddress,
      asset: transfer.asset,
      amount: transfer.amount,
      time,
      status: 'success',
    }
    deps.transfers.add(record)
    return record
  })
  return { ok: true, records }
}

/** The guardian's approval of a guarded StarkEx request, or why it is missing. */
export function guardianRefusal(
  deps: Deps,
  account: Account,
  payloadHash: string,
): string | undefined {
  return deps.guardian.isAllowed({
    chainId: starkExChainId,
    wallet: account.ethAddress,
    digest: starkExDigest(payloadHash),
  })
    ? undefined
    : `The guardian has not approved payload hash ${payloadHash}.`
}

/** Mounts the transfer routes. */
export function transferRoutes(app: Hono<StarkExEnv>, deps: Deps) {
  const player = requirePlayer(deps)
  const credential = requireCredential(deps)

  const senderOf = (c: HonoContext<StarkExEnv>, sender: unknown) => {
    const account = accountOfPlayer(deps, c.var.player)
    if (!account) return { refusal: fail(c, 'validation', notRegistered) }
    const address = addressOf(sender)
    if (!address)
      return {
        refusal: fail(
          c,
          'validation',
          'The sender must be an Ethereum address.',
        ),
      }
    if (address !== account.ethAddress)
      return {
        refusal: fail(
          c,
          'authentication',
          `The sender must be the player's StarkEx address ${account.ethAddress}.`,
        ),
      }
    return { account }
  }

  app.post('/v1/signable-transfer-details', player, async (c) => {
    const body = await readJson(c)
    if (!isRecord(body))
      return fail(
        c,
        'validation',
        'Expected a JSON body { sender, token, amount, receiver }.',
      )
    const { account, refusal } = senderOf(c, body.sender)
    if (!account) return refusal
    const prepared = prepareTransfer(deps, account, body, { kind: 'transfer' })
    if (!prepared.ok) return fail(c, prepared.kind, prepared.message)
    const payloadHash = payloadHashText(prepared.issue.hash)
    const answer = await issueTransfer(deps, {
      ...prepared.issue,
      details: { first: payloadHash },
    })
    deps.guardian.registerStarkEx({
      payloadHash,
      wallet: account.ethAddress,
      type: 'transfer',
      details: guardianDetails(prepared.issue),
    })
    const { token: _, ...rest } = answer
    return c.json({
      ...rest,
      sender_stark_key: account.starkKey,
    } satisfies Schemas['GetSignableTransferResponseV1'])
  })

  app.post('/v1/transfers', credential, async (c) => {
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
    const checked = checkSignedTransfer(deps, account, body, ['transfer'])
    if (!checked.ok) return fail(c, checked.kind, checked.message)
    const unsigned = await walletSignatureRefusal(
      c.var.credential,
      account,
      checked.pending,
    )
    if (unsigned) return fail(c, unsigned.kind, unsigned.message)
    const refused = guardianRefusal(
      deps,
      account,
      payloadHashText(checked.hash),
    )
    if (refused) return fail(c, 'authentication', refused)
    const committed = commitTransfers(deps, account, [checked])
    if (!committed.ok) return fail(c, committed.kind, committed.message)
    const [record] = committed.records
    return c.json({
      sent_signature: checked.signature,
      status: record!.status,
      time: Math.floor(record!.time / 1000),
      transfer_id: record!.id,
    } satisfies Schemas['CreateTransferResponseV1'])
  })

  app.post('/v2/signable-transfer-details', player, async (c) => {
    const body = await readJson(c)
    if (!isRecord(body) || !Array.isArray(body.signable_requests))
      return fail(
        c,
        'validation',
        'Expected a JSON body { sender_ether_key, signable_requests: [{ amount, token, receiver }] }.',
      )
    const { account, refusal } = senderOf(c, body.sender_ether_key)
    if (!account) return refusal
    const requests = body.signable_requests
    if (requests.length < 1 || requests.length > maxBatch)
      return fail(
        c,
        'validation',
        `signable_requests must hold 1 to ${maxBatch} transfers.`,
      )
    const alreadySent = new Map<number, bigint>()
    const nonces = new Set<number>()
    const issues: Omit<TransferIssue, 'details'>[] = []
    for (const [index, request] of requests.entries()) {
      const field = `signable_requests[${index}].`
      if (!isRecord(request))
        return fail(c, 'validation', `${field.slice(0, -1)} must be an object.`)
      const prepared = prepareTransfer(deps, account, request, {
        kind: 'batchTransfer',
        field,
        alreadySent,
        nonces,
      })
      if (!prepared.ok) return fail(c, prepared.kind, prepared.message)
      issues.push(prepared.issue)
    }
    const first = payloadHashText(issues[0]!.hash)
    // One message for the batch: the wallet headers of its create sign it.
    const message = [
      'Only sign this request if you\u2019ve initiated an action with Immutable X.',
      '',
      `Transfer ${issues.length} token${issues.length === 1 ? '' : 's'}.`,
      `Payload hash: ${first}`,
    ].join('\n')
    const responses = []
    for (const issue of issues) {
      const { signable_message: _, ...response } = await issueTransfer(
        deps,
        { ...issue, details: { first } },
        message,
      )
      responses.push(response)
    }
    deps.guardian.registerStarkEx({
      payloadHash: first,
      wallet: account.ethAddress,
      type: 'batchNftTransfer',
      details: issues.map(guardianDetails),
    })
    return c.json({
      sender_stark_key: account.starkKey,
      signable_message: message,
      signable_responses: responses,
    } satisfies Schemas['GetSignableTransferResponseV2'])
  })

  app.post('/v2/transfers', credential, async (c) => {
    const body = await readJson(c)
    if (!isRecord(body) || !Array.isArray(body.requests))
      return fail(
        c,
        'validation',
        'Expected a JSON body { sender_stark_key, requests: [signed transfers] }.',
      )
    const sender = accountOfCredential(
      deps,
      c.var.credential,
      body.sender_stark_key,
      'sender_stark_key',
    )
    if (!sender.ok) return fail(c, sender.kind, sender.message)
    const { account } = sender
    const requests = body.requests
    if (requests.length < 1 || requests.length > maxBatch)
      return fail(
        c,
        'validation',
        `requests must hold 1 to ${maxBatch} transfers.`,
      )
    const checked: SignedTransfer[] = []
    for (const [index, request] of requests.entries()) {
      const field = `requests[${index}].`
      if (!isRecord(request))
        return fail(c, 'validation', `${field.slice(0, -1)} must be an object.`)
      const one = checkSignedTransfer(
        deps,
        account,
        request,
        ['batchTransfer'],
        field,
      )
      if (!one.ok) return fail(c, one.kind, one.message)
      checked.push(one)
    }
    const first = checked[0]!.pending.details.first
    if (checked.some((one) => one.pending.details.first !== first))
      return fail(
        c,
        'validation',
        'The requests were not issued in one batch: send each batch on its own.',
      )
    // Every request of a batch carries the batch's one message.
    const unsigned = await walletSignatureRefusal(c.var.credential, account, {
      hash: first,
      message: checked[0]!.pending.message,
    })
    if (unsigned) return fail(c, unsigned.kind, unsigned.message)
    const refused = guardianRefusal(deps, account, first)
    if (refused) return fail(c, 'authentication', refused)
    const committed = commitTransfers(deps, account, checked)
    if (!committed.ok) return fail(c, committed.kind, committed.message)
    return c.json({
      transfer_ids: committed.records.map((record) => record.id),
    } satisfies Schemas['CreateTransferResponseV2'])
  })

  app.get('/v1/transfers/:id', (c) => {
    const text = c.req.param('id')
    const record = /^[1-9][0-9]{0,14}$/.test(text)
      ? deps.transfers.get(Number(text))
      : undefined
    if (!record) return fail(c, 'notFound', `No transfer ${text}.`)
    return c.json(transferAnswer(record) satisfies Schemas['Transfer'])
  })

  app.get('/v1/transfers', (c) => {
    const page = pageOf(c)
    if (!page.ok) return fail(c, 'validation', page.message)
    const filter = transferFilterOf(c)
    if (!filter.ok) return fail(c, 'validation', filter.message)
    const direction = directionOf(c)
    if (!direction.ok) return fail(c, 'validation', direction.message)
    const orderBy = c.req.query('order_by') ?? 'transaction_id'
    const keys: Record<string, (r: TransferRecord) => string | number> = {
      transaction_id: (r) => r.id,
      created_at: (r) => r.time,
      sender_ether_key: (r) => r.user.toLowerCase(),
      receiver_ether_key: (r) => r.receiver.toLowerCase(),
    }
    const found = sortedBy(
      deps.transfers.all().filter(filter.value),
      keys,
      orderBy,
      direction.value,
      (r) => r.id,
    )
    if (!found.ok) return fail(c, 'validation', found.message)
    return c.json(
      pageAnswer(
        found.value.map(transferAnswer),
        page.value,
      ) satisfies Schemas['ListTransfersResponse'],
    )
  })
}

/** What the guardian's confirmation page shows of a transfer. */
function guardianDetails(issue: Omit<TransferIssue, 'details'>) {
  return {
    sender: issue.sender.ethAddress,
    receiver: issue.receiver.ethAddress,
    token: signableToken(issue.asset),
    amount: baseUnits(issue.quantized, issue.asset),
  }
}

/** Reads the transfers list's filters into a predicate. */
function transferFilterOf(
  c: HonoContext,
):
  | { ok: true; value: (record: TransferRecord) => boolean }
  | { ok: false; message: string } {
  const q = (name: string) => {
    const value = c.req.query(name)
    return value === '' ? undefined : value
  }
  if (q('metadata') !== undefined)
    return {
      ok: false,
      message: 'The metadata filter is not supported by this exchange.',
    }
  const tests: ((record: TransferRecord) => boolean)[] = []
  for (const [name, pick] of [
    ['user', (r: TransferRecord) => r.user],
    ['receiver', (r: TransferRecord) => r.receiver],
  ] as const) {
    const text = q(name)
    if (text === undefined) continue
    const address = addressOf(text)
    if (!address)
      return { ok: false, message: `${name} must be an Ethereum address.` }
    tests.push((r) => pick(r) === address)
  }
  const status = q('status')
  if (status !== undefined) {
    if (status !== 'success' && status !== 'failure')
      return { ok: false, message: "status must be 'success' or 'failure'." }
    tests.push((r) => r.status === status)
  }
  for (const [name, compare] of [
    ['min_timestamp', (time: number, bound: number) => time >= bound],
    ['max_timestamp', (time: number, bound: number) => time <= bound],
  ] as const) {
    const bound = timeOf(c, name)
    if (!bound.ok) return { ok: false, message: bound.message }
    const value = bound.value
    if (value !== undefined) tests.push((r) => compare(r.time, value))
  }
  const tokens = tokenFiltersOf(q)
  if (!tokens.ok) return tokens
  for (const test of tokens.value) tests.push((r) => test(r.asset))
  const assetIdText = q('asset_id')
  if (assetIdText !== undefined) {
    const id = assetIdOf(assetIdText)
    if (id === undefined)
      return { ok: false, message: 'asset_id must be 0x-hex.' }
    tests.push((r) => r.asset.id === id)
  }
  const tokenName = q('token_name')
  // The exchange knows no token names but ETH's: other names match nothing.
  if (tokenName !== undefined)
    tests.push((r) => r.asset.type === 'ETH' && tokenName === 'ETH')
  for (const [name, compare] of [
    ['min_quantity', (a: bigint, b: bigint) => a >= b],
    ['max_quantity', (a: bigint, b: bigint) => a <= b],
  ] as const) {
    const text = q(name)
    if (text === undefined) continue
    const bound = decimalOf(text)
    if (bound === undefined)
      return {
        ok: false,
        message: `${name} must be a decimal string of base units.`,
      }
    tests.push((r) => compare(BigInt(baseUnits(r.amount, r.asset)), bound))
  }
  return { ok: true, value: (record) => tests.every((t) => t(record)) }
}
