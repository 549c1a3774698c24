/**
 * What the platform API reads from a chain to describe contracts, tokens
 * and transactions: code, the ERC-20 and ERC-721 metadata calls, ERC-165
 * interfaces, token metadata, and block simulations (`eth_simulateV1`).
 * Every read goes to the chain's node with a time-out; a contract that
 * reverts or answers nonsense reads as `undefined`, a node that does not
 * answer throws {@link ChainUnavailableError}.
 *
 * @packageDocumentation
 */
import {
  type Address,
  BaseError,
  createPublicClient,
  decodeErrorResult,
  type Hex,
  HttpRequestError,
  hexToString,
  http,
  parseAbi,
  type StateOverride,
  TimeoutError,
  toHex,
} from 'viem'
import type { ApiChain } from './http.js'

/** How long one read may take: a local node answers in milliseconds. */
export const readTimeoutMs = 5_000

/** The longest token URI decoded (a `data:` URI of JSON metadata). */
export const maxTokenUriLength = 64 * 1024

/** The node of a chain did not answer. */
export class ChainUnavailableError extends Error {
  override name = 'ChainUnavailableError'
  constructor(chainId: number, cause: unknown) {
    super(`The node of chain ${chainId} did not answer.`, { cause })
  }
}

/** What kind of token a contract is, by ERC-165 and the ERC-20 calls. */
export type TokenKind = 'erc20' | 'erc721' | 'erc1155' | 'contract' | 'none'

/** A token's metadata (its `name` and `image`), when the chain holds it. */
export type TokenMetadata = { name?: string; image?: string }

/** One call of a simulated block. */
export type SimulatedCall = {
  from: Address
  to: Address
  data: Hex
}

/** A log of a simulated call. */
export type SimulatedLog = {
  address: Address
  topics: readonly Hex[]
  data: Hex
}

/** How one simulated call ended. */
export type SimulatedResult =
  | { status: 'success'; logs: SimulatedLog[] }
  | { status: 'failure'; error: string; returnData: Hex }

/** Reads of one chain. */
export type ChainReader = {
  readonly chainId: number
  /** The code at `address` (`0x` for none). */
  code(address: Address): Promise<Hex>
  /** `name()`, as a string or a `bytes32`. */
  name(address: Address): Promise<string | undefined>
  /** `symbol()`, as a string or a `bytes32`. */
  symbol(address: Address): Promise<string | undefined>
  /** `decimals()`. */
  decimals(address: Address): Promise<number | undefined>
  /** What kind of token `address` is. */
  kind(address: Address): Promise<TokenKind>
  /** The metadata of one token, from a `data:` URI of its contract. */
  tokenMetadata(
    address: Address,
    tokenId: bigint,
    kind: 'erc721' | 'erc1155',
  ): Promise<TokenMetadata>
  /** ERC-721 `ownerOf`. */
  ownerOf(address: Address, tokenId: bigint): Promise<Address | undefined>
  /**
   * Simulates `calls` in one block on top of the latest, with
   * `stateOverrides`; native transfers are reported as ERC-20 transfers
   * of {@link nativeTransferAddress} (`traceTransfers`).
   */
  simulate(
    calls: readonly SimulatedCall[],
    stateOverrides?: StateOverride,
  ): Promise<SimulatedResult[]>
}

/**
 * The address `eth_simulateV1` reports native transfers from, as ERC-20
 * `Transfer` logs (ERC-7528's native asset address).
 */
export const nativeTransferAddress: Address =
  '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'

/** ERC-165 interface ids. */
export const interfaceIds = {
  erc721: '0x80ac58cd',
  erc1155: '0xd9b67a26',
} as const

const abi = parseAbi([
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function supportsInterface(bytes4 interfaceId) view returns (bool)',
  'function tokenURI(uint256 tokenId) view returns (string)',
  'function uri(uint256 id) view returns (string)',
  'function ownerOf(uint256 tokenId) view returns (address)',
])

const bytes32Abi = parseAbi([
  'function name() view returns (bytes32)',
  'function symbol() view returns (bytes32)',
])

/** Creates the reader of a chain, reading from its node. */
export function createChainReader(chain: ApiChain): ChainReader {
  const { chainId } = chain
  const client = createPublicClient({
    transport: http(chain.nodeUrl ?? chain.rpcUrl, {
      timeout: readTimeoutMs,
      retryCount: 0,
    }),
  })
  /** A read that may fail for the contract's reasons, not the node's. */
  const attempt = async <value>(
    read: () => Promise<value>,
  ): Promise<value | undefined> => {
    try {
      return await read()
    } catch (error) {
      if (isTransportError(error))
        throw new ChainUnavailableError(chainId, error)
      return undefined
    }
  }
  const text = async (
    address: Address,
    functionName: 'name' | 'symbol',
  ): Promise<string | undefined> => {
    const asString = await attempt(() =>
      client.readContract({ address, abi, functionName }),
    )
    if (asString !== undefined) return clean(asString)
    // Tokens from before strings were common (MKR, SAI) answer a bytes32.
    const asBytes = await attempt(() =>
      client.readContract({ address, abi: bytes32Abi, functionName }),
    )
    return asBytes === undefined
      ? undefined
      : clean(hexToString(asBytes).replace(/\0+$/, ''))
  }
  const supports = async (address: Address, id: Hex) =>
    (await attempt(() =>
      client.readContract({
        address,
        abi,
        functionName: 'supportsInterface',
        args: [id],
      }),
    )) === true

  const reader: ChainReader = {
    chainId,
    async code(address) {
      const code = await attempt(() => client.getCode({ address }))
      return code ?? '0x'
    },
    name: (address) => text(address, 'name'),
    symbol: (address) => text(address, 'symbol'),
    decimals: (address) =>
      attempt(() =>
        client.readContract({ address, abi, functionName: 'decimals' }),
      ),
    async kind(address) {
      if ((await reader.code(address)) === '0x') return 'none'
      if (await supports(address, interfaceIds.erc721)) return 'erc721'
      if (await supports(address, interfaceIds.erc1155)) return 'erc1155'
      if ((await reader.decimals(address)) !== undefined) return 'erc20'
      return 'contract'
    },
    async tokenMetadata(address, tokenId, kind) {
      const uri = await attempt(() =>
        kind === 'erc721'
          ? client.readContract({
              address,
              abi,
              functionName: 'tokenURI',
              args: [tokenId],
            })
          : client.readContract({
              address,
              abi,
              functionName: 'uri',
              args: [tokenId],
            }),
      )
      return uri === undefined ? {} : metadataOfUri(uri)
    },
    ownerOf: (address, tokenId) =>
      attempt(() =>
        client.readContract({
          address,
          abi,
          functionName: 'ownerOf',
          args: [tokenId],
        }),
      ),
    async simulate(calls, stateOverrides) {
      let blocks: Awaited<ReturnType<typeof client.simulateBlocks>>
      try {
        blocks = await client.simulateBlocks({
          blocks: [
            {
              calls: calls.map((call) => ({
                account: call.from,
                to: call.to,
                data: call.data,
              })),
              ...(stateOverrides ? { stateOverrides } : {}),
            },
          ],
          traceTransfers: true,
          validation: false,
        })
      } catch (error) {
        if (isTransportError(error))
          throw new ChainUnavailableError(chainId, error)
        throw error
      }
      const results = blocks[0]?.calls ?? []
      return results.map((result): SimulatedResult => {
        if (result.status === 'success')
          return {
            status: 'success',
            logs: (result.logs ?? []).map((log) => ({
              address: log.address,
              topics: log.topics,
              data: log.data,
            })),
          }
        return {
          status: 'failure',
          error: revertReason(result.data),
          returnData: result.data,
        }
      })
    },
  }
  return reader
}

/** Whether `error` is the node's failure to answer, not a contract's. */
function isTransportError(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    error.walk(
      (cause) =>
        cause instanceof HttpRequestError || cause instanceof TimeoutError,
    ) !== null
  )
}

/**
 * Why a call reverted, from its revert data: the reason of an
 * `Error(string)`, the code of a `Panic(uint256)`, else the data itself.
 */
export function revertReason(data: Hex): string {
  if (data === '0x') return 'The call reverted without a reason.'
  try {
    const decoded = decodeErrorResult({ abi: [], data })
    if (decoded.errorName === 'Error')
      return oneLine(`The call reverted: ${String(decoded.args[0])}`)
    if (decoded.errorName === 'Panic')
      return `The call panicked with code 0x${BigInt(String(decoded.args[0])).toString(16)}.`
  } catch {
    // A custom error: its data is all there is to show.
  }
  return `The call reverted with data ${data.length > 202 ? `${data.slice(0, 202)}…` : data}.`
}

/** A name as shown: without control characters, at most 200 characters. */
function clean(value: string): string | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
  const text = value.replace(/[\u0000-\u001f\u007f]/g, '').trim()
  return text === '' ? undefined : text.slice(0, 200)
}

/** A message on one line, at most 500 characters. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 500)
}

/**
 * The `name` and `image` of a token's JSON metadata when its URI is a
 * `data:` URI (base64 or percent-encoded). Other URIs are not fetched: the
 * emulator never reaches out to hosts a contract names.
 */
export function metadataOfUri(uri: string): TokenMetadata {
  if (uri.length > maxTokenUriLength) return {}
  const comma = uri.indexOf(',')
  const header = comma < 0 ? '' : uri.slice(0, comma).toLowerCase()
  const [type, ...parameters] = header.split(';')
  if (type !== 'data:application/json') return {}
  let json: unknown
  try {
    const body = uri.slice(comma + 1)
    json = JSON.parse(
      parameters.includes('base64')
        ? Buffer.from(body, 'base64').toString('utf8')
        : decodeURIComponent(body),
    )
  } catch {
    return {}
  }
  if (typeof json !== 'object' || json === null) return {}
  const { name, image } = json as Record<string, unknown>
  const shown = {
    name: typeof name === 'string' ? clean(name) : undefined,
    image:
      typeof image === 'string' && image.length <= 2_048 ? image : undefined,
  }
  return {
    ...(shown.name === undefined ? {} : { name: shown.name }),
    ...(shown.image === undefined ? {} : { image: shown.image }),
  }
}

/** `value` as a 32-byte word, for storage slots and values. */
export function word(value: Address | bigint): Hex {
  return typeof value === 'bigint'
    ? toHex(value, { size: 32 })
    : (`0x${value.slice(2).toLowerCase().padStart(64, '0')}` as Hex)
}
