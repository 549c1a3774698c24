/**
 * What a transaction or a typed-data message the player is asked to sign
 * does, read from the chain (bearer):
 *
 * - `POST /v1/chains/{chain_name}/passport/transaction-metadata`
 *   `{ contract_address, method_id, transaction_id, transaction_data }`:
 *   the calldata is decoded by its method id (ERC-20 `approve`, `transfer`,
 *   `transferFrom`; ERC-721 `approve`, `transferFrom`, `safeTransferFrom`,
 *   Immutable's `safeTransferFromBatch`; `setApprovalForAll`; Seaport's
 *   `fulfillAvailableAdvancedOrders`), the contract's kind told apart by
 *   ERC-165 where two standards share a selector, and names, symbols,
 *   decimals and token metadata read from the contracts. Anything else is
 *   `UNKNOWN`, with the called contract's code and `name()`.
 * - `POST /v1/chains/{chain_name}/passport/typeddata-metadata`
 *   `{ payload }`: a Seaport order (domain `ImmutableSeaport`, primary type
 *   `OrderComponents`, as @imtbl/orderbook signs it) is described item by
 *   item; other typed data is `UNKNOWN`.
 *
 * The chain decides, not the caller: a contract that answers no `name()`
 * is named `''`, an image the chain does not hold is `''`, and a node that
 * does not answer makes the route 404 (the chain cannot be read).
 *
 * @packageDocumentation
 */
import type { Hono, Context as HonoContext } from 'hono'
import {
  type Address,
  decodeFunctionData,
  getAddress,
  type Hex,
  hashTypedData,
  parseAbi,
  type TypedDataDefinition,
} from 'viem'
import { chainByName } from './chains.js'
import {
  type ApiChain,
  type ApiEnv,
  addressOf,
  bytesOf,
  type Deps,
  fail,
  isRecord,
  playerOf,
  readJson,
  requireBearer,
} from './http.js'
import {
  type ChainReader,
  ChainUnavailableError,
  type TokenMetadata,
} from './onchain.js'
import type {
  GetTransactionMetadataRes,
  GetTypedDataMetadataRes,
  SeaportFee,
  SeaportItem,
  SeaportOrderMetadata,
  VerificationStatus,
} from './schemas.js'

/** The routes' paths (`{chain_name}` as Hono's `:chainName`). */
export const metadataPaths = {
  transaction: '/v1/chains/:chainName/passport/transaction-metadata',
  typedData: '/v1/chains/:chainName/passport/typeddata-metadata',
} as const

/**
 * The most tokens of one batch whose metadata is read; the others are
 * listed with an empty name and image. A 1 MiB batch names thousands.
 */
export const maxTokenReads = 100

/** The longest `transaction_id`. */
export const maxTransactionIdLength = 256

/** The token and marketplace calls the metadata routes recognise. */
export const describedAbi = parseAbi([
  'function approve(address spender, uint256 amount)',
  'function transfer(address to, uint256 amount)',
  'function transferFrom(address from, address to, uint256 amount)',
  'function safeTransferFrom(address from, address to, uint256 tokenId)',
  'function safeTransferFrom(address from, address to, uint256 tokenId, bytes data)',
  'function setApprovalForAll(address operator, bool approved)',
  'function safeTransferFromBatch((address from, address[] tos, uint256[] tokenIds) transferRequest)',
  'struct OfferItem { uint8 itemType; address token; uint256 identifierOrCriteria; uint256 startAmount; uint256 endAmount; }',
  'struct ConsiderationItem { uint8 itemType; address token; uint256 identifierOrCriteria; uint256 startAmount; uint256 endAmount; address recipient; }',
  'struct OrderParameters { address offerer; address zone; OfferItem[] offer; ConsiderationItem[] consideration; uint8 orderType; uint256 startTime; uint256 endTime; bytes32 zoneHash; uint256 salt; bytes32 conduitKey; uint256 totalOriginalConsiderationItems; }',
  'struct AdvancedOrder { OrderParameters parameters; uint120 numerator; uint120 denominator; bytes signature; bytes extraData; }',
  'struct CriteriaResolver { uint256 orderIndex; uint8 side; uint256 index; uint256 identifier; bytes32[] criteriaProof; }',
  'struct FulfillmentComponent { uint256 orderIndex; uint256 itemIndex; }',
  'function fulfillAvailableAdvancedOrders(AdvancedOrder[] advancedOrders, CriteriaResolver[] criteriaResolvers, FulfillmentComponent[][] offerFulfillments, FulfillmentComponent[][] considerationFulfillments, bytes32 fulfillerConduitKey, address recipient, uint256 maximumFulfilled) payable',
])

/** What describing needs: the chain's reader and the platform's statuses. */
export type Describer = {
  readonly reader: ChainReader
  readonly status: (address: Address) => Promise<VerificationStatus>
}

/** The describer of a chain. */
export function describerOf(deps: Deps, chain: ApiChain): Describer {
  return {
    reader: deps.readerOf(chain),
    status: async (address) => deps.verificationOf(chain.chainId, address),
  }
}

/** Adds the metadata routes to `app`. */
export function metadataRoutes(app: Hono<ApiEnv>, deps: Deps): void {
  const bearer = requireBearer(deps.verifier)

  app.post(metadataPaths.transaction, bearer, async (c) => {
    const chain = await routeChain(c, deps)
    if (chain instanceof Response) return chain
    const request = transactionMetadataRequestOf(await readJson(c))
    if (typeof request === 'string') return fail(c, 'validation', request)
    return answer(c, chain, () =>
      describeTransaction(
        describerOf(deps, chain),
        request.contract,
        request.data,
      ),
    )
  })

  app.post(metadataPaths.typedData, bearer, async (c) => {
    const chain = await routeChain(c, deps)
    if (chain instanceof Response) return chain
    const body = await readJson(c)
    const payload = isRecord(body) ? typedDataOf(body.payload) : undefined
    if (!isRecord(body) || typeof payload === 'string' || !payload)
      return fail(
        c,
        'validation',
        typeof payload === 'string'
          ? payload
          : 'Expected { payload } with payload EIP-712 typed data: { types, domain, primaryType, message }.',
      )
    const domainChain = payload.domain?.chainId
    if (domainChain !== undefined && chainIdOf(domainChain) !== chain.chainId)
      return fail(
        c,
        'validation',
        `The typed data's domain.chainId is not ${chain.chainId}.`,
      )
    return answer(c, chain, () =>
      describeTypedData(describerOf(deps, chain), payload),
    )
  })
}

/**
 * The chain a `/v1/chains/{chain_name}` route names, for a known player;
 * or the refusal (401 for an unknown player, 404 for an unknown chain).
 */
async function routeChain(
  c: HonoContext<ApiEnv>,
  deps: Deps,
): Promise<ApiChain | Response> {
  if (!playerOf(deps, c.var.bearer))
    return fail(c, 'unauthorised', 'The player is unknown.')
  const name = c.req.param('chainName')
  return (
    chainByName(deps, name) ??
    fail(c, 'notFound', `There is no chain named ${name}.`)
  )
}

/** Answers what `describe` finds, or 404 when the chain does not answer. */
async function answer(
  c: HonoContext<ApiEnv>,
  chain: ApiChain,
  describe: () => Promise<GetTransactionMetadataRes | GetTypedDataMetadataRes>,
) {
  try {
    return c.json(await describe())
  } catch (error) {
    if (error instanceof ChainUnavailableError)
      return fail(
        c,
        'notFound',
        `Chain ${chain.chainId} cannot be read now: its node did not answer.`,
      )
    throw error
  }
}

const transactionFields = [
  'contract_address',
  'method_id',
  'transaction_id',
  'transaction_data',
]

/** A checked transaction-metadata request, or why it is refused. */
export function transactionMetadataRequestOf(
  body: unknown,
): { contract: Address; data: Hex; transactionId: string } | string {
  if (!isRecord(body))
    return 'Expected { contract_address, method_id, transaction_id, transaction_data }.'
  const unknown = Object.keys(body).filter(
    (key) => !transactionFields.includes(key),
  )
  if (unknown.length > 0)
    return `Unknown fields: ${unknown.slice(0, 10).join(', ')}. Known: ${transactionFields.join(', ')}.`
  const contract = addressOf(body.contract_address)
  if (!contract) return 'contract_address must be an address.'
  const data = bytesOf(body.transaction_data)
  if (!data)
    return 'transaction_data must be 0x-prefixed hex of whole bytes (the call data).'
  const methodId = body.method_id
  if (
    typeof methodId !== 'string' ||
    !/^0x([0-9a-fA-F]{8})?$/.test(methodId) ||
    methodId.toLowerCase() !== data.slice(0, methodId.length).toLowerCase() ||
    (methodId === '0x') !== data.length < 10
  )
    return "method_id must be transaction_data's first 4 bytes (0x for call data shorter than a method id)."
  const transactionId = body.transaction_id
  if (
    typeof transactionId !== 'string' ||
    transactionId.length === 0 ||
    transactionId.length > maxTransactionIdLength
  )
    return `transaction_id must be a string of 1 to ${maxTransactionIdLength} characters.`
  return { contract, data, transactionId }
}

/** What a call of `data` on `contract` does, read from the chain. */
export async function describeTransaction(
  describer: Describer,
  contract: Address,
  data: Hex,
): Promise<GetTransactionMetadataRes> {
  const { reader, status } = describer
  const decoded = decodeCall(data)
  const unknown = async (): Promise<GetTransactionMetadataRes> => ({
    transaction_type: 'UNKNOWN',
    ...(await partyOf(describer, contract)),
  })
  if (!decoded) return unknown()
  const kind = await reader.kind(contract)
  const collection = async () => (await reader.name(contract)) ?? ''
  const token = (id: bigint) =>
    kind === 'erc721' || kind === 'erc1155'
      ? reader.tokenMetadata(contract, id, kind)
      : Promise.resolve<TokenMetadata>({})
  switch (decoded.functionName) {
    case 'approve': {
      const [spender, amount] = decoded.args
      if (kind === 'erc721') {
        const asset = await token(amount)
        return {
          transaction_type: 'ERC721_APPROVE',
          collection_name: await collection(),
          collection_image: '',
          asset_image: asset.image ?? '',
          asset_name: asset.name ?? '',
          ...(await partyOf(describer, spender)),
          token_id: amount.toString(),
          immutable_verification_status: await status(contract),
        }
      }
      if (kind !== 'erc20') return unknown()
      return {
        transaction_type: 'ERC20_APPROVE',
        amount: amount.toString(),
        token_symbol: (await reader.symbol(contract)) ?? '',
        spender,
        ...(await partyOf(describer, spender)),
        immutable_verification_status: await status(contract),
        image_url: '',
      }
    }
    case 'transfer': {
      if (kind !== 'erc20') return unknown()
      const [to, amount] = decoded.args
      return {
        transaction_type: 'ERC20_TRANSFER',
        to_address: to,
        amount: amount.toString(),
        decimals: (await reader.decimals(contract)) ?? 0,
        symbol: (await reader.symbol(contract)) ?? '',
        immutable_verification_status: await status(contract),
        image_url: '',
      }
    }
    case 'transferFrom':
    case 'safeTransferFrom': {
      const [from, to, amount] = decoded.args
      if (kind === 'erc721') {
        const asset = await token(amount)
        return {
          transaction_type: 'ERC721_TRANSFER_FROM',
          from_address: from,
          to_address: to,
          collection_name: await collection(),
          token_id: amount.toString(),
          asset_name: asset.name ?? '',
          asset_image: asset.image ?? '',
          immutable_verification_status: await status(contract),
        }
      }
      if (kind !== 'erc20' || decoded.functionName !== 'transferFrom')
        return unknown()
      return {
        transaction_type: 'ERC20_TRANSFER_FROM',
        from_address: from,
        to_address: to,
        amount: amount.toString(),
        decimals: (await reader.decimals(contract)) ?? 0,
        symbol: (await reader.symbol(contract)) ?? '',
        immutable_verification_status: await status(contract),
        image_url: '',
      }
    }
    case 'setApprovalForAll': {
      if (kind !== 'erc721' && kind !== 'erc1155') return unknown()
      const [operator] = decoded.args
      return {
        transaction_type:
          kind === 'erc721'
            ? 'ERC721_SET_APPROVAL_FOR_ALL'
            : 'ERC1155_SET_APPROVAL_FOR_ALL',
        collection_name: await collection(),
        collection_image: '',
        ...(await partyOf(describer, operator)),
        immutable_verification_status: await status(contract),
      }
    }
    case 'safeTransferFromBatch': {
      const [{ from, tos, tokenIds }] = decoded.args
      if (kind !== 'erc721' || tos.length !== tokenIds.length) return unknown()
      const items = []
      for (const [index, id] of tokenIds.entries()) {
        const asset = index < maxTokenReads ? await token(id) : {}
        items.push({
          to_address: tos[index] as Address,
          token_id: id.toString(),
          asset_name: asset.name ?? '',
          asset_image: asset.image ?? '',
        })
      }
      return {
        transaction_type: 'ERC721_SAFE_TRANSFER_FROM_BATCH',
        from_address: from,
        collection_name: await collection(),
        items,
        immutable_verification_status: await status(contract),
      }
    }
    case 'fulfillAvailableAdvancedOrders': {
      if (kind === 'none') return unknown()
      const [advancedOrders] = decoded.args
      const orders: SeaportOrderMetadata[] = []
      for (const { parameters } of advancedOrders) {
        const order = await describeOrder(describer, parameters)
        if (!order) return unknown()
        orders.push(order)
      }
      return {
        transaction_type: 'SEAPORT_FULFILL_AVAILABLE_ADVANCED_ORDERS',
        ...(await partyOf(describer, contract)),
        orders,
      }
    }
  }
}

/** The call `data` decodes to, if it is one of {@link describedAbi}. */
function decodeCall(data: Hex) {
  try {
    return decodeFunctionData({ abi: describedAbi, data })
  } catch {
    return undefined
  }
}

/**
 * What the metadata says of an address a transaction trusts or calls:
 * whether it holds code, whether the platform verified it, its `name()`.
 */
async function partyOf(describer: Describer, address: Address) {
  const code = await describer.reader.code(address)
  return {
    is_smart_contract: code !== '0x',
    is_contract_verified: (await describer.status(address)) === 'verified',
    contract_name:
      code === '0x' ? '' : ((await describer.reader.name(address)) ?? ''),
  }
}

/** Seaport's item types (ItemType.sol). */
export const itemTypes = {
  native: 0,
  erc20: 1,
  erc721: 2,
  erc1155: 3,
  erc721WithCriteria: 4,
  erc1155WithCriteria: 5,
} as const

/** One item of a Seaport order (an offer item, or a consideration item). */
export type OrderItem = {
  itemType: number
  token: Address
  identifierOrCriteria: bigint
  startAmount: bigint
  endAmount: bigint
  recipient?: Address | undefined
}

/** The parts of a Seaport order the metadata describes. */
export type Order = {
  offerer: Address
  offer: readonly OrderItem[]
  consideration: readonly OrderItem[]
}

/**
 * An order as its offerer sees it: `sell` is the first item offered,
 * `buy` the first item the offerer receives, `fees` every other
 * consideration item (native or ERC-20 only). `undefined` for an order
 * these cannot describe.
 */
export async function describeOrder(
  describer: Describer,
  order: Order,
): Promise<SeaportOrderMetadata | undefined> {
  const [offered] = order.offer
  const received =
    order.consideration.find(
      (item) => item.recipient?.toLowerCase() === order.offerer.toLowerCase(),
    ) ?? order.consideration[0]
  if (!offered || !received) return undefined
  const sell = await describeItem(describer, offered)
  const buy = await describeItem(describer, received)
  if (
    !sell ||
    !buy ||
    sell.type === 'ERC721Collection' ||
    sell.type === 'ERC1155Collection'
  )
    return undefined
  const fees: SeaportFee[] = []
  for (const item of order.consideration) {
    if (item === received) continue
    const fee = await describeFee(describer, item)
    if (!fee) return undefined
    fees.push(fee)
  }
  return { buy, sell, fees }
}

/** One Seaport item, read from the chain. */
async function describeItem(
  describer: Describer,
  item: OrderItem,
): Promise<SeaportItem | undefined> {
  const { reader, status } = describer
  const amount = item.startAmount.toString()
  const contract = getAddress(item.token)
  switch (item.itemType) {
    case itemTypes.native:
      return { type: 'NATIVE', amount, decimals: 18 }
    case itemTypes.erc20:
      return {
        type: 'ERC20',
        contract_address: contract,
        symbol: (await reader.symbol(contract)) ?? null,
        image_url: null,
        amount,
        decimals: (await reader.decimals(contract)) ?? 0,
        immutable_verification_status: await status(contract),
      }
    case itemTypes.erc721:
    case itemTypes.erc1155: {
      const erc721 = item.itemType === itemTypes.erc721
      const asset = await reader.tokenMetadata(
        contract,
        item.identifierOrCriteria,
        erc721 ? 'erc721' : 'erc1155',
      )
      const described = {
        contract_address: contract,
        contract_name: (await reader.name(contract)) ?? null,
        ...(asset.image === undefined ? {} : { image_url: asset.image }),
        name: asset.name ?? null,
        token_id: item.identifierOrCriteria.toString(),
        immutable_verification_status: await status(contract),
      }
      return erc721
        ? { type: 'ERC721', ...described }
        : { type: 'ERC1155', ...described, amount }
    }
    case itemTypes.erc721WithCriteria:
    case itemTypes.erc1155WithCriteria:
      return {
        type:
          item.itemType === itemTypes.erc721WithCriteria
            ? 'ERC721Collection'
            : 'ERC1155Collection',
        contract_address: contract,
        contract_name: (await reader.name(contract)) ?? null,
        image_url: '',
        amount,
        immutable_verification_status: await status(contract),
      }
    default:
      return undefined
  }
}

/** A consideration item paid to someone else than the offerer. */
async function describeFee(
  describer: Describer,
  item: OrderItem,
): Promise<SeaportFee | undefined> {
  if (!item.recipient) return undefined
  const base = {
    amount: item.startAmount.toString(),
    recipient_address: getAddress(item.recipient),
  }
  if (item.itemType === itemTypes.native)
    return { type: 'NATIVE', ...base, decimals: 18 }
  if (item.itemType !== itemTypes.erc20) return undefined
  const contract = getAddress(item.token)
  return {
    type: 'ERC20',
    ...base,
    contract_address: contract,
    symbol: (await describer.reader.symbol(contract)) ?? null,
    decimals: (await describer.reader.decimals(contract)) ?? 0,
  }
}

/** Typed data as the metadata route takes it. */
export type TypedPayload = {
  types: Record<string, unknown>
  domain?: Record<string, unknown> | undefined
  primaryType: string
  message: Record<string, unknown>
}

/**
 * `value` as EIP-712 typed data, `undefined` when it is not shaped as one,
 * or why its content is refused (viem cannot hash it).
 */
export function typedDataOf(value: unknown): TypedPayload | string | undefined {
  if (
    !isRecord(value) ||
    !isRecord(value.types) ||
    (value.domain !== undefined && !isRecord(value.domain)) ||
    typeof value.primaryType !== 'string' ||
    !isRecord(value.message)
  )
    return undefined
  try {
    hashTypedData(value as unknown as TypedDataDefinition)
  } catch {
    return 'payload is not valid EIP-712 typed data.'
  }
  return value as TypedPayload
}

/** The names of Seaport's signed order (as @imtbl/orderbook signs it). */
export const seaportOrder = {
  domainName: 'ImmutableSeaport',
  primaryType: 'OrderComponents',
} as const

/** What typed data asks the player to sign. */
export async function describeTypedData(
  describer: Describer,
  payload: TypedPayload,
): Promise<GetTypedDataMetadataRes> {
  const order = orderOfTypedData(payload)
  const described = order ? await describeOrder(describer, order) : undefined
  return described
    ? { typed_data_type: 'SEAPORT_CREATE_LISTING_METADATA', ...described }
    : { typed_data_type: 'UNKNOWN' }
}

/** The Seaport order a typed-data payload signs, if it signs one. */
export function orderOfTypedData(payload: TypedPayload): Order | undefined {
  if (
    payload.domain?.name !== seaportOrder.domainName ||
    payload.primaryType !== seaportOrder.primaryType
  )
    return undefined
  const { message } = payload
  const offerer = addressOf(message.offerer)
  if (
    !offerer ||
    !Array.isArray(message.offer) ||
    !Array.isArray(message.consideration)
  )
    return undefined
  const offer = message.offer.map((item) => orderItemOf(item, false))
  const consideration = message.consideration.map((item) =>
    orderItemOf(item, true),
  )
  if (offer.includes(undefined) || consideration.includes(undefined))
    return undefined
  return {
    offerer,
    offer: offer as OrderItem[],
    consideration: consideration as OrderItem[],
  }
}

function orderItemOf(value: unknown, withRecipient: boolean) {
  if (!isRecord(value)) return undefined
  const itemType = bigintOf(value.itemType)
  const token = addressOf(value.token)
  const identifierOrCriteria = bigintOf(value.identifierOrCriteria)
  const startAmount = bigintOf(value.startAmount)
  const endAmount = bigintOf(value.endAmount)
  const recipient = addressOf(value.recipient)
  if (
    itemType === undefined ||
    itemType > 5n ||
    !token ||
    identifierOrCriteria === undefined ||
    startAmount === undefined ||
    endAmount === undefined ||
    (withRecipient && !recipient)
  )
    return undefined
  return {
    itemType: Number(itemType),
    token,
    identifierOrCriteria,
    startAmount,
    endAmount,
    ...(withRecipient ? { recipient } : {}),
  } satisfies OrderItem
}

/** A uint256 given as a number, a decimal string or a hex string. */
function bigintOf(value: unknown): bigint | undefined {
  if (typeof value === 'number')
    return Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : undefined
  if (typeof value !== 'string') return undefined
  if (!/^(0|[1-9][0-9]{0,77}|0x[0-9a-fA-F]{1,64})$/.test(value))
    return undefined
  const parsed = BigInt(value)
  return parsed < 2n ** 256n ? parsed : undefined
}

/** A chain id given as a number, a decimal string or a hex string. */
export function chainIdOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value
  if (typeof value !== 'string') return undefined
  if (/^[0-9]{1,16}$/.test(value)) return Number(value)
  if (/^0x[0-9a-fA-F]{1,13}$/.test(value)) return Number.parseInt(value, 16)
  return undefined
}
