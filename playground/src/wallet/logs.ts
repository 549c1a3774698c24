/**
 * A receipt's logs in words: each decoded through the events the page
 * knows (the token standards', Seaport's `OrderFulfilled`, the game
 * wallet's Sequence module events), with its arguments by name; a log no
 * known event matches stays raw (its emitter, topics and data).
 */
import {
  type AbiEvent,
  decodeAbiParameters,
  decodeEventLog,
  type Hex,
  type Log,
  parseAbi,
  toEventSelector,
} from 'viem'

/**
 * The events the page decodes. ERC-20's and ERC-721's `Transfer` and
 * `Approval` share their selectors and differ in which arguments are
 * indexed: each is tried in turn, and the one whose topics fit wins.
 */
export const knownEvents = parseAbi([
  // ERC-20 (EIP-20) and ERC-721 (EIP-721).
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  'event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)',
  'event ApprovalForAll(address indexed owner, address indexed operator, bool approved)',
  // ERC-1155 (EIP-1155).
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
  'event URI(string value, uint256 indexed id)',
  // Seaport 1.5/1.6 (ConsiderationEventsAndErrors).
  'event OrderFulfilled(bytes32 orderHash, address indexed offerer, address indexed zone, address recipient, (uint8 itemType, address token, uint256 identifier, uint256 amount)[] offer, (uint8 itemType, address token, uint256 identifier, uint256 amount, address recipient)[] consideration)',
  'event OrderCancelled(bytes32 orderHash, address indexed offerer, address indexed zone)',
  'event OrdersMatched(bytes32[] orderHashes)',
  'event CounterIncremented(uint256 newCounter, address indexed offerer)',
  // The game wallet's Sequence v1 modules (wallet-contracts 1.10).
  'event CreatedContract(address _contract)',
  'event ImageHashUpdated(bytes32 newImageHash)',
  'event ImplementationUpdated(address newImplementation)',
  'event NonceChange(uint256 _space, uint256 _newNonce)',
  'event TxFailed(bytes32 _tx, bytes _reason)',
])

/** One argument of a decoded log. */
export type LogArg = { name: string; value: unknown }

/** A log as the receipt shows it. */
export type DecodedLog = {
  address: Hex
  logIndex: number | null
  /** The event's name; `undefined` when no known event matches. */
  name: string | undefined
  args: readonly LogArg[]
  topics: readonly Hex[]
  data: Hex
}

const bySelector = new Map<Hex, AbiEvent[]>()
for (const event of knownEvents) {
  const selector = toEventSelector(event)
  bySelector.set(selector, [...(bySelector.get(selector) ?? []), event])
}

/**
 * Decodes one log. Sequence's `TxExecuted(bytes32 _tx)` is anonymous (no
 * topic names it): a log of the wallet with no topics and one word of data
 * is read as it.
 */
export function decodeLog(
  log: Pick<Log, 'address' | 'topics' | 'data' | 'logIndex'>,
): DecodedLog {
  const topics = log.topics as readonly Hex[]
  const base = {
    address: log.address,
    logIndex: log.logIndex,
    topics,
    data: log.data,
  }
  const [selector] = topics
  if (selector === undefined) {
    if (log.data.length === 66) {
      const [tx] = decodeAbiParameters([{ type: 'bytes32' }], log.data)
      return { ...base, name: 'TxExecuted', args: [{ name: '_tx', value: tx }] }
    }
    return { ...base, name: undefined, args: [] }
  }
  for (const event of bySelector.get(selector) ?? []) {
    try {
      const decoded = decodeEventLog({
        abi: [event],
        topics: topics as [Hex, ...Hex[]],
        data: log.data,
        strict: true,
      })
      const values = decoded.args as Record<string, unknown>
      const args = event.inputs.map((input, index) => ({
        name: input.name ?? `arg${index}`,
        value: values[input.name ?? String(index)],
      }))
      return { ...base, name: decoded.eventName, args }
    } catch {
      // The other overload of the selector (indexed differently) may fit.
    }
  }
  return { ...base, name: undefined, args: [] }
}
