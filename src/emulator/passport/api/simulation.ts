/**
 * The guardian's simulations (`includeSimulation=true` on its GET routes),
 * computed on the chain, as the published client's `ValidationResult`:
 *
 * - a transaction batch runs as the wallet itself would run it: one
 *   `eth_simulateV1` call of the Sequence wallet's `selfExecute(txs)` from
 *   the wallet to itself, on the latest block (a wallet not deployed yet
 *   gets its proxy's code in a state override, pointing at the main
 *   module, as its deployment would leave it). A batch that reverts is
 *   `error` with the reason; otherwise `success`, with what the logs and
 *   native transfers (`traceTransfers`) show the wallet send, receive and
 *   approve, and each delegateCall;
 * - typed data is checked against the chain: whether its verifying
 *   contract has code, and for a Seaport order what it offers for what,
 *   whether the wallet is its offerer and owns the NFTs it offers.
 *
 * A node that does not answer, or a simulation the node refuses, is
 * `simulation_failed`.
 *
 * @packageDocumentation
 */
import {
  type Address,
  decodeEventLog,
  encodeFunctionData,
  formatUnits,
  getAddress,
  type Hex,
  maxUint256,
  parseAbi,
  type StateOverride,
  toEventSelector,
  zeroAddress,
} from 'viem'
import type { MetaTransaction } from '../../../passport/wire/sequence.js'
import { walletCreationCode } from '../../../passport/wire/sequence.js'
import type { ApiChain } from './http.js'
import {
  type Describer,
  describeOrder,
  orderOfTypedData,
  type TypedPayload,
} from './metadata.js'
import {
  ChainUnavailableError,
  nativeTransferAddress,
  oneLine,
  revertReason,
  type SimulatedLog,
  word,
} from './onchain.js'
import type {
  Analysis,
  SeaportItem,
  Severity,
  ValidationResult,
} from './schemas.js'

/** The most findings one simulation reports. */
export const maxFindings = 100

/**
 * The runtime code of a Sequence v1 wallet proxy: it delegates every call
 * to the implementation stored at the slot of its own address. The tail of
 * {@link walletCreationCode}, which the factory deploys.
 */
export const walletProxyRuntime: Hex = `0x${walletCreationCode.slice(-52)}`

const walletAbi = parseAbi([
  'function selfExecute((bool delegateCall, bool revertOnError, uint256 gasLimit, address target, uint256 value, bytes data)[] txs)',
  'event TxFailed(bytes32 _tx, bytes _reason)',
])

const tokenEvents = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  'event ApprovalForAll(address indexed owner, address indexed operator, bool approved)',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
])

const nftEvents = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
  'event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)',
])

const ranks: Record<Severity, number> = {
  benign: 0,
  info: 1,
  unknown: 2,
  warning: 3,
  malicious: 4,
}

/** Findings summed up: the most severe one leads. */
export function resultOf(
  analysis: Analysis[],
  quiet: string,
): ValidationResult {
  const kept = analysis.slice(0, maxFindings)
  const highest = kept.reduce<Analysis | undefined>(
    (top, item) =>
      !top || ranks[item.severity] > ranks[top.severity] ? item : top,
    undefined,
  )
  return {
    status: 'success',
    highestSeverity: highest
      ? { severity: highest.severity, description: highest.description }
      : { severity: 'benign', description: quiet },
    analysis: kept,
  }
}

/** Simulates a batch of the game wallet `wallet` on `chain`. */
export async function simulateTransactions(
  describer: Describer,
  chain: ApiChain,
  wallet: Address,
  transactions: readonly MetaTransaction[],
): Promise<ValidationResult> {
  const { reader } = describer
  try {
    let overrides: StateOverride | undefined
    if ((await reader.code(wallet)) === '0x') {
      const mainModule = chain.contracts?.mainModule
      if (!mainModule)
        return {
          status: 'simulation_failed',
          error: `The wallet is not deployed and the emulator knows no wallet main module on chain ${chain.chainId}.`,
        }
      overrides = [
        {
          address: wallet,
          code: walletProxyRuntime,
          stateDiff: [{ slot: word(wallet), value: word(mainModule) }],
        },
      ]
    }
    const [result] = await reader.simulate(
      [
        {
          from: wallet,
          to: wallet,
          data: encodeFunctionData({
            abi: walletAbi,
            functionName: 'selfExecute',
            args: [transactions],
          }),
        },
      ],
      overrides,
    )
    if (!result)
      return {
        status: 'simulation_failed',
        error: 'The node answered no result.',
      }
    if (result.status === 'failure')
      return { status: 'error', error: result.error }
    const analysis: Analysis[] = transactions
      .filter((tx) => tx.delegateCall)
      .map((tx) => ({
        severity: 'warning',
        description: `Runs the code of ${tx.target} as the wallet itself (a delegateCall): it may move anything the wallet holds.`,
        address: tx.target,
      }))
    const names = namer(describer)
    for (const log of result.logs) {
      if (analysis.length >= maxFindings) break
      const finding = await findingOf(names, wallet, log)
      if (finding) analysis.push(...finding)
    }
    return resultOf(
      analysis,
      'Nothing leaves or reaches the wallet, and it approves no one.',
    )
  } catch (error) {
    return failed(error)
  }
}

/** Checks typed data the wallet is asked to sign against the chain. */
export async function simulateTypedData(
  describer: Describer,
  wallet: Address,
  payload: TypedPayload,
): Promise<ValidationResult> {
  const { reader } = describer
  try {
    const analysis: Analysis[] = []
    const verifying = payload.domain?.verifyingContract
    if (
      typeof verifying === 'string' &&
      /^0x[0-9a-fA-F]{40}$/.test(verifying)
    ) {
      const contract = getAddress(verifying)
      if ((await reader.code(contract)) === '0x')
        analysis.push({
          severity: 'warning',
          description: `The verifying contract ${contract} has no code on this chain.`,
          address: contract,
        })
      else
        analysis.push({
          severity: 'info',
          description: `Signs for ${(await reader.name(contract)) ?? 'the contract'} at ${contract}.`,
          address: contract,
        })
    }
    const order = orderOfTypedData(payload)
    const described = order ? await describeOrder(describer, order) : undefined
    if (order && described) {
      analysis.push({
        severity: 'info',
        description: `Offers ${itemText(described.sell)} for ${itemText(described.buy)}${described.fees.length > 0 ? `, with ${described.fees.length} fee${described.fees.length === 1 ? '' : 's'}` : ''}.`,
      })
      if (order.offerer !== wallet)
        analysis.push({
          severity: 'warning',
          description: `The order's offerer is ${order.offerer}, not the wallet.`,
          address: order.offerer,
        })
      for (const item of order.offer) {
        if (item.itemType !== 2) continue
        const owner = await reader.ownerOf(
          item.token,
          item.identifierOrCriteria,
        )
        if (owner !== order.offerer)
          analysis.push({
            severity: 'warning',
            description: `The offerer does not own token ${item.identifierOrCriteria} of ${getAddress(item.token)}${owner ? `: ${owner} does` : ''}.`,
            address: getAddress(item.token),
          })
      }
    }
    return resultOf(analysis, 'Signing it moves nothing by itself.')
  } catch (error) {
    return failed(error)
  }
}

function failed(error: unknown): ValidationResult {
  return {
    status: 'simulation_failed',
    error:
      error instanceof ChainUnavailableError
        ? error.message
        : oneLine(
            `The node refused the simulation: ${error instanceof Error ? ((error as { shortMessage?: string }).shortMessage ?? error.message) : String(error)}`,
          ),
  }
}

/** A Seaport item in words. */
function itemText(item: SeaportItem): string {
  switch (item.type) {
    case 'NATIVE':
      return `${formatUnits(BigInt(item.amount), 18)} of the native token`
    case 'ERC20':
      return `${formatUnits(BigInt(item.amount), item.decimals)} ${item.symbol ?? item.contract_address}`
    case 'ERC721':
      return `${item.contract_name ?? item.contract_address} #${item.token_id}`
    case 'ERC1155':
      return `${item.amount} × ${item.contract_name ?? item.contract_address} #${item.token_id}`
    default:
      return `${item.amount} of any ${item.contract_name ?? item.contract_address}`
  }
}

/** Names, symbols and decimals of tokens, each read once. */
function namer(describer: Describer) {
  const cache = new Map<string, Promise<unknown>>()
  const once = <value>(key: string, read: () => Promise<value>) => {
    let value = cache.get(key)
    if (!value) {
      value = read()
      cache.set(key, value)
    }
    return value as Promise<value>
  }
  const { reader } = describer
  return {
    /** An amount of an ERC-20 (or the native token) in words. */
    async amount(token: Address, value: bigint): Promise<string> {
      if (token === nativeTransferAddress)
        return `${formatUnits(value, 18)} of the native token`
      const [symbol, decimals] = await Promise.all([
        once(`s${token}`, () => reader.symbol(token)),
        once(`d${token}`, () => reader.decimals(token)),
      ])
      return decimals === undefined
        ? `${value} units of ${symbol ?? token}`
        : `${formatUnits(value, decimals)} ${symbol ?? token}`
    },
    /** An ERC-20 in words: its symbol. */
    async token(token: Address): Promise<string> {
      return (await once(`s${token}`, () => reader.symbol(token))) ?? token
    },
    /** A collection in words. */
    async collection(token: Address): Promise<string> {
      return (await once(`n${token}`, () => reader.name(token))) ?? token
    },
  }
}

/** What one log shows about the wallet, if anything. */
async function findingOf(
  names: ReturnType<typeof namer>,
  wallet: Address,
  log: SimulatedLog,
): Promise<Analysis[] | undefined> {
  const { address } = log
  const topics = log.topics as [Hex, ...Hex[]]
  const mine = (value: Address) => getAddress(value) === wallet
  const moved = (from: Address, to: Address, what: string): Analysis => {
    if (from === zeroAddress)
      return { severity: 'info', description: `Mints ${what} to ${to}.` }
    if (to === zeroAddress)
      return { severity: 'info', description: `Burns ${what}.` }
    if (mine(from))
      return {
        severity: 'info',
        description: `Sends ${what} to ${to}.`,
        address: to,
      }
    return {
      severity: 'info',
      description: `Receives ${what} from ${from}.`,
      address: from,
    }
  }
  try {
    if (getAddress(address) === wallet && topics.length === 1) {
      const { args } = decodeEventLog({
        abi: walletAbi,
        eventName: 'TxFailed',
        data: log.data,
        topics,
      })
      return [
        {
          severity: 'warning',
          description: `A call of the batch failed and was skipped. ${revertReason(args._reason)}`,
        },
      ]
    }
    // ERC-20 and ERC-721 share the Transfer and Approval signatures: an
    // ERC-721 event indexes the token id, so it has one topic more.
    const nft = nftEvents.some((event) => toEventSelector(event) === topics[0])
    if (nft && topics.length === 4) {
      const event = decodeEventLog({ abi: nftEvents, data: log.data, topics })
      if (event.eventName === 'Transfer') {
        const { from, to, tokenId } = event.args
        if (!mine(from) && !mine(to)) return undefined
        return [
          moved(from, to, `${await names.collection(address)} #${tokenId}`),
        ]
      }
      const { owner, approved, tokenId } = event.args
      if (!mine(owner) || approved === zeroAddress) return undefined
      return [
        {
          severity: 'info',
          description: `Lets ${approved} move ${await names.collection(address)} #${tokenId}.`,
          address: approved,
        },
      ]
    }
    const event = decodeEventLog({ abi: tokenEvents, data: log.data, topics })
    switch (event.eventName) {
      case 'Transfer': {
        const { from, to, value } = event.args
        if (!mine(from) && !mine(to)) return undefined
        return [moved(from, to, await names.amount(getAddress(address), value))]
      }
      case 'Approval': {
        const { owner, spender, value } = event.args
        if (!mine(owner)) return undefined
        if (value === 0n)
          return [
            {
              severity: 'info',
              description: `Revokes what ${spender} may spend of the wallet's ${await names.token(address)}.`,
              address: spender,
            },
          ]
        return [
          value === maxUint256
            ? {
                severity: 'warning',
                description: `Lets ${spender} spend all the ${await names.token(address)} the wallet holds, now and later.`,
                address: spender,
              }
            : {
                severity: 'info',
                description: `Lets ${spender} spend ${await names.amount(address, value)}.`,
                address: spender,
              },
        ]
      }
      case 'ApprovalForAll': {
        const { owner, operator, approved } = event.args
        if (!mine(owner)) return undefined
        const collection = await names.collection(address)
        return [
          approved
            ? {
                severity: 'warning',
                description: `Lets ${operator} move every ${collection} token of the wallet.`,
                address: operator,
              }
            : {
                severity: 'info',
                description: `Revokes ${operator}'s control of the wallet's ${collection} tokens.`,
                address: operator,
              },
        ]
      }
      case 'TransferSingle': {
        const { from, to, id, value } = event.args
        if (!mine(from) && !mine(to)) return undefined
        return [
          moved(
            from,
            to,
            `${value} × ${await names.collection(address)} #${id}`,
          ),
        ]
      }
      case 'TransferBatch': {
        const { from, to, ids, values } = event.args
        if (!mine(from) && !mine(to)) return undefined
        const collection = await names.collection(address)
        return ids
          .slice(0, maxFindings)
          .map((id, index) =>
            moved(from, to, `${values[index] ?? 0n} × ${collection} #${id}`),
          )
      }
    }
  } catch {
    // A log of another shape (another contract's events): not about tokens.
  }
  return undefined
}
