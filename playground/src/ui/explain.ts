/**
 * Failures in words: what the page shows for anything a wallet, the chain
 * or the platform threw. A revert is decoded through the ABIs the page
 * knows (the test tokens' OpenZeppelin errors, Solidity's `Error(string)`
 * and `Panic(uint256)`); a wallet's error is named by its class (EIP-1193's
 * codes, the game wallet's published error types); each comes with one
 * sentence on what to do next, the wallet's own message and the raw detail.
 */
import {
  type Abi,
  decodeErrorResult,
  type Hex,
  isAddress,
  isHex,
  parseAbi,
} from 'viem'

/** The custom errors of OpenZeppelin 5's ERC-20, ERC-721 and ERC-1155 (IERC6093). */
export const tokenErrorsAbi = parseAbi([
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
  'error ERC20InvalidSender(address sender)',
  'error ERC20InvalidReceiver(address receiver)',
  'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
  'error ERC20InvalidApprover(address approver)',
  'error ERC20InvalidSpender(address spender)',
  'error ERC721InvalidOwner(address owner)',
  'error ERC721NonexistentToken(uint256 tokenId)',
  'error ERC721IncorrectOwner(address sender, uint256 tokenId, address owner)',
  'error ERC721InvalidSender(address sender)',
  'error ERC721InvalidReceiver(address receiver)',
  'error ERC721InsufficientApproval(address operator, uint256 tokenId)',
  'error ERC721InvalidApprover(address approver)',
  'error ERC721InvalidOperator(address operator)',
  'error ERC1155InsufficientBalance(address sender, uint256 balance, uint256 needed, uint256 tokenId)',
  'error ERC1155InvalidSender(address sender)',
  'error ERC1155InvalidReceiver(address receiver)',
  'error ERC1155MissingApprovalForAll(address operator, address owner)',
  'error ERC1155InvalidApprover(address approver)',
  'error ERC1155InvalidOperator(address operator)',
  'error ERC1155InvalidArrayLength(uint256 idsLength, uint256 valuesLength)',
  'error OwnableUnauthorizedAccount(address account)',
])

/** The errors the page decodes reverts with (viem adds `Error` and `Panic`). */
const knownErrors: Abi = tokenErrorsAbi

/** What kind of failure it is, which decides the title and the next step. */
export type Kind =
  | 'revert'
  | 'rejected'
  | 'unauthorized'
  | 'unsupported'
  | 'disconnected'
  | 'unavailable'
  | 'funds'
  | 'network'
  | 'unknown'

/** A failure as the page shows it. */
export type Explanation = {
  kind: Kind
  /** What happened, in a few words: "The contract refused the transaction". */
  title: string
  /** The wallet's (or the decoded revert's) own message. */
  message: string
  /** One sentence on what to do next. */
  next: string
  /** Everything the error carried, for the curious: each cause's name and message. */
  detail: string
}

/** A decoded revert: the error's name and its arguments by name. */
export type Revert = {
  name: string
  args: readonly { name: string; value: unknown }[]
  /** `ERC20InsufficientBalance(sender 0x…, balance 0, needed 1)`. */
  text: string
}

const titles: Record<Kind, string> = {
  revert: 'The contract refused the transaction',
  rejected: 'You rejected the request',
  unauthorized: 'The wallet is not signed in',
  unsupported: 'The wallet does not support this request',
  disconnected: 'The wallet is disconnected',
  unavailable: 'The wallet’s service is unavailable',
  funds: 'Not enough ETH',
  network: 'The network did not answer',
  unknown: 'Something went wrong',
}

const nextSteps: Record<Kind, string> = {
  revert:
    'Nothing was sent: change what the contract refused (see its error) and try again.',
  rejected: 'Nothing was sent or signed; try again when you are ready.',
  unauthorized: 'Sign in to the wallet again (Connect), then retry.',
  unsupported: 'Use another wallet for this, or another way to do it.',
  disconnected: 'Connect the wallet again, then retry.',
  unavailable:
    'Wait a moment and try again; the wallet’s backend is not answering right now.',
  funds:
    'Lower the amount or add ETH to the account (the dev-chain faucet does), then try again.',
  network:
    'Check that the local chain and emulator still run (npm start), then try again.',
  unknown: 'Try again; if it fails the same way, the details below say more.',
}

/** Next steps for the reverts whose cure is known. */
const revertSteps: Record<string, string> = {
  ERC20InsufficientBalance:
    'Send at most the token balance, or get more test tokens first.',
  ERC20InsufficientAllowance:
    'Approve the spender for at least the amount first, then try again.',
  ERC721NonexistentToken: 'Pick a token id that has been minted.',
  ERC721IncorrectOwner: 'Only the NFT’s owner can move it: pick one you own.',
  ERC721InsufficientApproval:
    'Approve the operator for this NFT (or all of yours) first, then try again.',
  ERC1155InsufficientBalance:
    'Send at most the balance of that token id, or mint more first.',
  ERC1155MissingApprovalForAll:
    'Approve the operator for all of the owner’s tokens first, then try again.',
}

/**
 * Explains anything thrown: a revert, a wallet's error by class, or the
 * fallback, each with its title, message, next step and raw detail.
 *
 * @example
 * ```ts
 * explain(error).title // 'You rejected the request'
 * ```
 */
export function explain(error: unknown): Explanation {
  const chain = causesOf(error)
  const detail = detailOf(chain)
  const revert = findRevert(chain)
  if (revert)
    return {
      kind: 'revert',
      title: titles.revert,
      message: revert.text,
      next: revertSteps[revert.name] ?? nextSteps.revert,
      detail,
    }
  const kind = kindOf(chain)
  return {
    kind,
    title: titles[kind],
    message: ownMessage(chain),
    next: nextSteps[kind],
    detail,
  }
}

/** The error and its causes, outermost first (at most 16, no cycles). */
export function causesOf(error: unknown): readonly unknown[] {
  const chain: unknown[] = []
  let current: unknown = error
  while (current !== undefined && current !== null && chain.length < 16) {
    if (chain.includes(current)) break
    chain.push(current)
    current =
      typeof current === 'object' && 'cause' in current
        ? (current as { cause?: unknown }).cause
        : undefined
  }
  return chain
}

/** A property of an object, if it is one. */
function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)[name]
    : undefined
}

const codesOf = (chain: readonly unknown[]) =>
  chain.flatMap((item) => {
    const code = field(item, 'code')
    return typeof code === 'number' ? [code] : []
  })

const namesOf = (chain: readonly unknown[]) =>
  chain.flatMap((item) => {
    const name = field(item, 'name')
    return typeof name === 'string' ? [name] : []
  })

const typesOf = (chain: readonly unknown[]) =>
  chain.flatMap((item) => {
    const type = field(item, 'type')
    return typeof type === 'string' ? [type] : []
  })

/** The class of a failure that is not a revert. */
function kindOf(chain: readonly unknown[]): Kind {
  const codes = codesOf(chain)
  const names = namesOf(chain)
  const types = typesOf(chain)
  const text = chain.map((item) => textOf(item)).join('\n')
  // EIP-1193's 4001; the game wallet answers its confirmation popup's
  // Reject with EIP-1474's -32003 "Transaction rejected by user", as the
  // published SDK does.
  if (
    codes.includes(4001) ||
    names.includes('UserRejectedRequestError') ||
    (codes.includes(-32003) && /rejected by (the )?user/i.test(text)) ||
    /user (rejected|denied)/i.test(text)
  )
    return 'rejected'
  if (types.includes('SERVICE_UNAVAILABLE_ERROR')) return 'unavailable'
  if (
    codes.includes(4100) ||
    types.includes('NOT_LOGGED_IN_ERROR') ||
    names.includes('UnauthorizedProviderError') ||
    names.includes('ConnectorNotConnectedError') ||
    names.includes('ConnectorAccountNotFoundError')
  )
    return 'unauthorized'
  if (
    codes.includes(4200) ||
    codes.includes(-32004) ||
    names.includes('UnsupportedProviderMethodError')
  )
    return 'unsupported'
  if (
    codes.some((code) => code === 4900 || code === 4901) ||
    names.includes('ProviderDisconnectedError') ||
    names.includes('ChainDisconnectedError')
  )
    return 'disconnected'
  if (
    codes.includes(-32002) ||
    names.includes('ResourceUnavailableRpcError') ||
    /service unavailable/i.test(text)
  )
    return 'unavailable'
  if (
    names.includes('InsufficientFundsError') ||
    /insufficient funds/i.test(text)
  )
    return 'funds'
  if (
    names.some((name) =>
      ['HttpRequestError', 'TimeoutError', 'WebSocketRequestError'].includes(
        name,
      ),
    ) ||
    /failed to fetch|networkerror|did not answer/i.test(text)
  )
    return 'network'
  return 'unknown'
}

/** One error's own text: a viem or core error's short message, else its message. */
function textOf(item: unknown): string {
  if (typeof item === 'string') return item
  const short = field(item, 'shortMessage')
  if (typeof short === 'string' && short !== '') return short
  const message = field(item, 'message')
  if (typeof message === 'string') return message
  try {
    return JSON.stringify(item) ?? String(item)
  } catch {
    return String(item)
  }
}

/**
 * The wallet's own message: that of the innermost error carrying a code
 * or a published type (wrappers such as viem's `TransactionExecutionError`
 * only repeat it), followed by what its own cause says (the game wallet's
 * `Service unavailable` is caused by the guardian's words), with the game
 * wallet's error type in front when one carries it. Without a coded error,
 * the innermost cause's text.
 */
function ownMessage(chain: readonly unknown[]): string {
  const line = (item: unknown) => textOf(item).split('\n')[0]?.trim() ?? ''
  const coded = chain.findLastIndex(
    (item) =>
      typeof field(item, 'code') === 'number' ||
      typeof field(item, 'type') === 'string',
  )
  const readable = (item: unknown) => {
    const text = line(item)
    return text !== '' && !text.startsWith('{') && !text.startsWith('[')
  }
  const below = chain.slice(coded + 1).filter(readable)
  const own = coded < 0 ? undefined : line(chain[coded])
  const inner = below.at(-1) === undefined ? undefined : line(below.at(-1))
  const text =
    (own && inner && !own.includes(inner)
      ? `${/[.!?]$/.test(own) ? own : `${own}.`} ${inner}`
      : (own ?? inner)) || 'Unknown error'
  const type = typesOf(chain).find((item) => /^[A-Z][A-Z_]+_ERROR$/.test(item))
  return type && !text.startsWith(type) ? `${type}: ${text}` : text
}

/** Each cause on its own lines: name, message, code and data. */
function detailOf(chain: readonly unknown[]): string {
  return chain
    .map((item) => {
      const name = field(item, 'name')
      const code = field(item, 'code')
      const data = field(item, 'data')
      const message = field(item, 'message')
      const lines = [
        `${typeof name === 'string' ? name : typeof item}${typeof code === 'number' ? ` (code ${code})` : ''}: ${typeof message === 'string' ? message : textOf(item)}`,
      ]
      if (data !== undefined) lines.push(`data: ${stringify(data)}`)
      return lines.join('\n')
    })
    .join('\n\n')
}

function stringify(value: unknown): string {
  try {
    return (
      JSON.stringify(value, (_key, item: unknown) =>
        typeof item === 'bigint' ? item.toString() : item,
      ) ?? String(value)
    )
  } catch {
    return String(value)
  }
}

/**
 * The revert in the error chain, decoded: viem's already decoded
 * `ContractFunctionRevertedError`, else revert data found on a cause
 * (`data`, `data.data`, `raw`), else the data a node's message spells out
 * (Anvil's `custom error 0x…: …`, which the iframe wallet passes on as
 * text).
 */
export function findRevert(chain: readonly unknown[]): Revert | undefined {
  for (const item of chain) {
    for (const data of dataOf(item)) {
      const revert = decodeRevert(data)
      if (revert) return revert
    }
  }
  for (const item of chain) {
    const data = dataInText(textOf(item))
    const revert = data && decodeRevert(data)
    if (revert) return revert
  }
  return undefined
}

/** The revert data candidates one error carries. */
function dataOf(item: unknown): Hex[] {
  const found: Hex[] = []
  const add = (value: unknown) => {
    if (typeof value === 'string' && isHex(value) && value.length >= 10)
      found.push(value)
  }
  add(field(item, 'raw'))
  const data = field(item, 'data')
  add(data)
  add(field(data, 'data'))
  add(field(field(data, 'originalError'), 'data'))
  return found
}

/** Revert data a message spells out: `custom error 0xe450d38c: 0000…`, or `reverted with data 0x…`. */
export function dataInText(text: string): Hex | undefined {
  const custom =
    /custom error (0x[0-9a-fA-F]{8}):?\s*(?:0x)?([0-9a-fA-F]*)/.exec(text)
  if (custom) return `${custom[1]}${custom[2] ?? ''}` as Hex
  const raw =
    /revert(?:ed)?[^0-9a-zA-Z]+(?:data[:\s]+)?(0x[0-9a-fA-F]{8,})/i.exec(text)
  return raw?.[1] as Hex | undefined
}

/**
 * Decodes revert data with the errors the page knows; `undefined` when no
 * known error matches (the data is then shown raw in the detail).
 *
 * @example
 * ```ts
 * decodeRevert('0xe450d38c…')?.text
 * // 'ERC20InsufficientBalance(sender 0x…, balance 0, needed 1000000000000000000)'
 * ```
 */
export function decodeRevert(data: Hex): Revert | undefined {
  let decoded: {
    errorName: string
    abiItem: Abi[number]
    args?: readonly unknown[] | undefined
  }
  try {
    decoded = decodeErrorResult({ abi: knownErrors, data })
  } catch {
    return undefined
  }
  const { errorName, abiItem, args = [] } = decoded
  const inputs =
    'inputs' in abiItem ? (abiItem.inputs as readonly { name?: string }[]) : []
  const named = args.map((value, index) => ({
    name: inputs[index]?.name ?? `arg${index}`,
    value,
  }))
  if (errorName === 'Error')
    return { name: errorName, args: named, text: `Error: ${String(args[0])}` }
  if (errorName === 'Panic') {
    const code = Number(args[0])
    return {
      name: errorName,
      args: named,
      text: `Panic(0x${code.toString(16)}): ${panics[code] ?? 'unknown panic code'}`,
    }
  }
  const text = `${errorName}(${named
    .map(({ name, value }) => `${name} ${valueText(value)}`)
    .join(', ')})`
  return { name: errorName, args: named, text }
}

/** An argument as text: addresses and numbers as they are, the rest as JSON. */
export function valueText(value: unknown): string {
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'string')
    return isAddress(value, { strict: false }) || isHex(value)
      ? value
      : JSON.stringify(value)
  if (typeof value === 'number' || typeof value === 'boolean')
    return String(value)
  return stringify(value)
}

/** Solidity's panic codes ("Panic via assert and Error via require"). */
const panics: Record<number, string> = {
  0: 'generic compiler panic',
  1: 'assert failed',
  17: 'arithmetic underflow or overflow',
  18: 'division or modulo by zero',
  33: 'conversion to an enum out of range',
  34: 'incorrectly encoded storage byte array',
  49: 'pop on an empty array',
  50: 'array index out of bounds',
  65: 'too much memory allocated',
  81: 'call to a zero-initialized function',
}
