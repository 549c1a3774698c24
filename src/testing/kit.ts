/**
 * The test kit: one-line helpers over a running emulator, reached only
 * through what its JSON line names (HTTP and JSON-RPC), as a dApp's own
 * tests reach it. Nothing here touches the emulator's memory, so the same
 * kit works on an emulator started by `npx embedded-wallets emulator` in
 * another process.
 *
 * @packageDocumentation
 */
import {
  type Address,
  BaseError as BaseViemError,
  ContractFunctionRevertedError,
  createPublicClient,
  createTestClient,
  defineChain,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  isAddress,
  parseAbi,
  parseEther,
  parseEventLogs,
} from 'viem'
import { BaseError } from '../core/Errors.js'
import type {
  GuardianRulesBody,
  Info,
  Message as MailboxMessage,
  ScenarioEntry,
  ScenarioName,
  SessionActivityRule,
} from '../emulator/index.js'
import type { DevMintRequest } from '../passport/wire/starkex.js'
import {
  createMagicLogins,
  createPassportLogins,
  type MagicLogins,
  type PassportLogins,
} from './headless.js'

/**
 * Anvil account 1 (`m/44'/60'/0'/0/1` of Anvil's public test mnemonic): the
 * emulator never uses accounts 1 to 4, so the kit sends its mints from this
 * one, signed by the node (Anvil keeps the default accounts unlocked).
 */
export const kitSender: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

/**
 * The kit's sends in flight, one chain per node URL. Anvil picks an unlocked
 * account's nonce when a send arrives, from the state it has mined so far;
 * two sends from the same account side by side can both get the same nonce,
 * and the second is refused as "nonce too low". So every kit in this
 * process that talks to one node sends from its account one at a time, each
 * after the previous one is mined.
 */
const sendsInFlight = new Map<string, Promise<unknown>>()

/** Runs `task` after every send queued before it on `node`, failed or not. */
function inTurn<result>(node: string, task: () => Promise<result>) {
  const previous = sendsInFlight.get(node) ?? Promise.resolve()
  const next = previous.then(task, task)
  const settled = next.then(
    () => undefined,
    () => undefined,
  )
  sendsInFlight.set(node, settled)
  // Forget the node once its queue is idle, so the map does not grow with
  // every emulator a test run starts.
  void settled.then(() => {
    if (sendsInFlight.get(node) === settled) sendsInFlight.delete(node)
  })
  return next
}

/** The test tokens' functions the kit calls (contracts/src/Test*.sol). */
const erc20Abi = parseAbi([
  'function mint(address to, uint256 amount)',
  'function balanceOf(address owner) view returns (uint256)',
])
const erc721Abi = parseAbi([
  'function mint(address to) returns (uint256 tokenId)',
  'function mintId(address to, uint256 tokenId)',
  'function ownerOf(uint256 tokenId) view returns (address)',
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
])

/** An amount: wei (base units) as a bigint, or whole tokens as a decimal string (`'1.5'`). */
export type Amount = bigint | string

/** The helpers of {@link createTestKit}. */
export type TestKit = {
  /** The emulator's JSON line the kit was made from. */
  readonly info: Info
  /**
   * Gives `address` ETH and test tokens on the main chain. `eth` becomes its
   * balance exactly (`anvil_setBalance`); `erc20` is minted to it (added to
   * what it holds) from Anvil account 1.
   *
   * @example
   * ```ts
   * const { eth, erc20 } = await kit.fund(alice, { eth: '10', erc20: 500n })
   * // eth === 10n * 10n ** 18n; erc20 is alice's whole TEST balance
   * ```
   *
   * @returns The address's balances after funding (wei).
   * @throws {TestKitError} If the address is not one, or the chain refuses.
   */
  fund(
    address: Address,
    amounts: { eth?: Amount | undefined; erc20?: Amount | undefined },
  ): Promise<{ eth: bigint; erc20: bigint }>
  /**
   * Mints a `testErc721` token to `to`: the next free id (1, 2, … in
   * order, passing over ids chosen before), or `tokenId` when given.
   *
   * @example
   * ```ts
   * const tokenId = await kit.mintNft(alice) // 1n on a fresh chain
   * await kit.mintNft(bob, { tokenId: 42n }) // 42n
   * ```
   *
   * @returns The id minted.
   * @throws {TestKitError} If `tokenId` is minted already (the message
   *   names its owner) or is not a whole number from 0.
   */
  mintNft(
    to: Address,
    options?: { tokenId?: bigint | number | undefined },
  ): Promise<bigint>
  /**
   * The dev mailbox's messages for `to` (an email or a phone number),
   * newest first.
   *
   * @example
   * ```ts
   * const [newest] = await kit.mailbox('ada@example.com')
   * ```
   */
  mailbox(to: string): Promise<readonly MailboxMessage[]>
  /**
   * Waits until the mailbox holds a message with a code for `to` and
   * returns the newest such code. Only messages delivered at or after
   * `since` count (default: any), and only of `kind` when given
   * (`'email-otp'`, `'sms-otp'`, …).
   *
   * @example
   * ```ts
   * const since = new Date()
   * // … the page under test asks for a login code …
   * const code = await kit.waitForCode('ada@example.com', { since })
   * ```
   *
   * @throws {WaitTimeoutError} After `timeoutMs` (default 5000), naming
   *   what it waited for and what the mailbox held for `to`.
   */
  waitForCode(
    to: string,
    options?: {
      timeoutMs?: number | undefined
      since?: Date | undefined
      kind?: string | undefined
    },
  ): Promise<string>
  /** The game wallet's guardian. */
  readonly guardian: {
    /**
     * Replaces the guardian's rules (fields left out take their defaults),
     * or, with `wallet`, that wallet's own rules (`null` removes them).
     *
     * @example
     * ```ts
     * await kit.guardian.setRules({ confirmAboveValue: '1000000000000000000' })
     * await kit.guardian.setRules({ unavailable: true }, { wallet })
     * ```
     *
     * @returns The rules in force after the change.
     */
    setRules(
      rules: Partial<GuardianRulesBody> | null,
      options?: { wallet?: Address | undefined },
    ): Promise<unknown>
    /**
     * The guardian's rules, or one wallet's own.
     *
     * @example
     * ```ts
     * const rules = await kit.guardian.getRules()
     * ```
     */
    getRules(options?: { wallet?: Address | undefined }): Promise<unknown>
  }
  /** The platform API's session-activity check. */
  readonly sessionActivity: {
    /**
     * Sets the check's rule for a client (default: the emulator's game
     * wallet client, `info.passport.clientId`); `null` removes it (the
     * check then answers 404).
     *
     * @example
     * ```ts
     * await kit.sessionActivity.setRule({ delay: 2, untilCheckCount: 1 })
     * ```
     */
    setRule(
      rule: SessionActivityRule | null,
      options?: { clientId?: string | undefined },
    ): Promise<unknown>
  }
  /** The game wallet's relayer. */
  readonly relayer: {
    /**
     * Makes the next `count` sends (of `wallet` only, when given) end as
     * `outcome`.
     *
     * @example
     * ```ts
     * await kit.relayer.next('revert', { wallet })
     * ```
     */
    next(
      outcome: 'fail' | 'revert' | 'stall' | 'cancel',
      options?: {
        count?: number | undefined
        message?: string | undefined
        wallet?: Address | undefined
      },
    ): Promise<unknown>
    /**
     * Sets the IMX fee's price (wei).
     *
     * @example
     * ```ts
     * await kit.relayer.setFee(10n ** 15n)
     * ```
     */
    setFee(tokenPrice: bigint): Promise<unknown>
    /**
     * Back to no fee and no planned outcomes.
     *
     * @example
     * ```ts
     * await kit.relayer.reset()
     * ```
     */
    reset(): Promise<unknown>
  }
  /**
   * Snapshots the main chain (`evm_snapshot`); {@link TestKit.revert} goes
   * back to it.
   *
   * @example
   * ```ts
   * const id = await kit.snapshot()
   * // … the test spends …
   * await kit.revert(id)
   * ```
   */
  snapshot(): Promise<Hex>
  /**
   * Reverts the main chain to a snapshot (`evm_revert`): balances, nonces,
   * code and storage as they were. A snapshot is used up by its revert.
   *
   * @example
   * ```ts
   * await kit.revert(id)
   * ```
   *
   * @throws {TestKitError} If the chain has no such snapshot.
   */
  revert(id: Hex): Promise<void>
  /**
   * Moves the chain's clock forward and mines a block at the new time.
   *
   * @example
   * ```ts
   * await kit.increaseTime(24 * 60 * 60) // a day later
   * ```
   *
   * @returns The new block's timestamp (seconds).
   */
  increaseTime(seconds: number): Promise<bigint>
  /** The StarkEx exchange. */
  readonly starkex: {
    /**
     * Credits a registered StarkEx account's vault.
     *
     * @example
     * ```ts
     * await kit.starkex.mint({
     *   user: imxEthAddress,
     *   token: { type: 'ETH', data: { decimals: 18 } },
     *   quantity: '1000000000000000000',
     * })
     * ```
     *
     * @returns The vault credited and its balance.
     */
    mint(request: DevMintRequest): Promise<unknown>
  }
  /**
   * The iframe wallet's login, headless: `kit.magic.didToken({ email })`
   * gives the DID token a dApp's backend receives (see
   * {@link MagicLogins.didToken}).
   */
  readonly magic: MagicLogins
  /**
   * The game wallet's login, headless: `kit.passport.login({ email })`
   * gives the identity provider's tokens (see {@link PassportLogins.login}).
   */
  readonly passport: PassportLogins

  // Scenarios and the services' clock.

  /**
   * The scenarios: switches that reproduce what users of the published
   * SDKs meet in production. A switch takes effect on the next request to
   * the service it affects.
   */
  readonly scenarios: {
    /**
     * Every scenario, with whether it is on, its title and what the
     * published SDK does then.
     *
     * @example
     * ```ts
     * const on = (await kit.scenarios.list()).filter((s) => s.on)
     * ```
     */
    list(): Promise<readonly ScenarioEntry[]>
    /**
     * Turns a scenario on (or off with `on = false`).
     *
     * @example
     * ```ts
     * await kit.scenarios.set('guardian-unavailable')
     * ```
     *
     * @returns Its entry after the change.
     * @throws {TestKitError} If there is no such scenario.
     */
    set(name: ScenarioName, on?: boolean): Promise<ScenarioEntry>
    /**
     * Turns every scenario off.
     *
     * @example
     * ```ts
     * afterEach(() => kit.scenarios.reset())
     * ```
     *
     * @returns The list, all off.
     */
    reset(): Promise<readonly ScenarioEntry[]>
  }
  /**
   * The services' clock: what every emulated service reads as now. Time
   * travel moves it and every chain's time together; the browser's clock
   * and the tokens' `iat`/`exp` stay on the wall clock.
   */
  readonly clock: {
    /**
     * The services' time.
     *
     * @example
     * ```ts
     * const now = await kit.clock.now()
     * ```
     */
    now(): Promise<Date>
    /**
     * Moves the services' clock and every chain's time forward (a block is
     * mined at the new time): login codes, links, sessions and tokens age
     * by as much.
     *
     * @example
     * ```ts
     * await kit.clock.advance(10 * 60) // the login code has expired
     * ```
     *
     * @returns The services' new time.
     * @throws {TestKitError} If `seconds` is not a whole number from 0, or
     *   the emulator refuses (a chain did not move).
     */
    advance(seconds: number): Promise<Date>
  }
}

/**
 * Makes the kit's helpers over a running emulator's JSON line. Every helper
 * talks to the emulator over HTTP, from this process: run it in Node (a
 * test runner, a global setup), where the emulator's loopback-only control
 * routes and Anvil's admin methods answer.
 *
 * @example
 * ```ts
 * import { createTestKit } from 'embedded-wallets/testing'
 *
 * const kit = createTestKit(JSON.parse(emulatorLine))
 * await kit.fund('0x70997970C51812dc3A010C7d01b50e0d17dc79C8', { eth: '5' })
 * ```
 */
export function createTestKit(info: Info): TestKit {
  const chain = defineChain({
    id: info.chainId,
    name: `emulator-${info.chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [info.rpcUrl] } },
  })
  const transport = http(info.rpcUrl)
  const client = createPublicClient({ chain, transport })
  // Anvil's admin methods and node-signed sends, untyped: the kit names
  // each method it calls.
  const request = createTestClient({ chain, transport, mode: 'anvil' })
    .request as (args: {
    method: string
    params: unknown[]
  }) => Promise<unknown>

  async function rpc<result>(method: string, params: unknown[]) {
    try {
      return (await request({ method, params })) as result
    } catch (error) {
      throw new TestKitError(`The chain refused ${method}.`, {
        cause: asError(error),
      })
    }
  }

  /** Sends a call from the kit's account and waits until it is mined. */
  async function send(to: Address, data: Hex, what: string) {
    const receipt = await inTurn(info.rpcUrl, async () => {
      const hash = await rpc<Hex>('eth_sendTransaction', [
        { from: kitSender, to, data },
      ])
      return client.waitForTransactionReceipt({ hash })
    })
    if (receipt.status !== 'success')
      throw new TestKitError(
        `${what} reverted (transaction ${receipt.transactionHash}).`,
      )
    return receipt
  }

  async function control(
    method: 'GET' | 'PUT' | 'POST',
    url: string,
    body?: unknown,
  ): Promise<unknown> {
    let response: Response
    try {
      response = await fetch(url, {
        method,
        ...(body === undefined
          ? {}
          : {
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(body),
            }),
      })
    } catch (error) {
      throw new TestKitError(`${method} ${url} failed: no answer.`, {
        cause: asError(error),
      })
    }
    const text = await response.text()
    if (!response.ok)
      throw new TestKitError(
        `${method} ${url} answered ${response.status}: ${errorText(text)}`,
      )
    return text === '' ? undefined : JSON.parse(text)
  }

  /** Mints `tokenId` to `to`, refusing an id that has an owner. */
  async function mintChosenNft(to: Address, tokenId: bigint) {
    const what = `Minting test NFT #${tokenId} to ${to}`
    const owner = await ownerOfNft(tokenId)
    if (owner !== undefined)
      throw new TestKitError(
        `${what}: #${tokenId} is minted already (its owner is ${owner}).`,
      )
    await send(
      info.contracts.testErc721,
      encodeFunctionData({
        abi: erc721Abi,
        functionName: 'mintId',
        args: [to, tokenId],
      }),
      what,
    )
    return tokenId
  }

  /** The test NFT's owner, `undefined` while the id is not minted. */
  async function ownerOfNft(tokenId: bigint) {
    try {
      return await client.readContract({
        address: info.contracts.testErc721,
        abi: erc721Abi,
        functionName: 'ownerOf',
        args: [tokenId],
      })
    } catch (error) {
      // OpenZeppelin's `ownerOf` reverts with ERC721NonexistentToken for an
      // id nobody holds; anything else (the node down) is the kit's error.
      if (
        error instanceof BaseViemError &&
        error.walk((e) => e instanceof ContractFunctionRevertedError)
      )
        return undefined
      throw new TestKitError(
        `Reading the owner of test NFT #${tokenId} failed.`,
        { cause: asError(error) },
      )
    }
  }

  const mailbox = async (to: string) =>
    (await control(
      'GET',
      `${info.mailbox}?to=${encodeURIComponent(to)}`,
    )) as MailboxMessage[]

  const apiUrl = info.passport.apiUrl
  // The dev service's origin: the mailbox endpoint without `/mailbox`.
  const devOrigin = new URL(info.mailbox).origin
  const walletQuery = (wallet: Address | undefined) =>
    wallet === undefined
      ? ''
      : `?wallet=${encodeURIComponent(addressOf(wallet))}`

  // The headless logins read their codes through the kit's own helpers.
  const mail = {
    mailbox,
    waitForCode: (
      to: string,
      options?: { timeoutMs?: number; kind?: string },
    ) => kit.waitForCode(to, options),
  }

  const kit: TestKit = {
    info,

    async fund(address, amounts) {
      const to = addressOf(address)
      if (amounts.eth !== undefined)
        await rpc('anvil_setBalance', [to, toHex(amountOf(amounts.eth))])
      if (amounts.erc20 !== undefined)
        await send(
          info.contracts.erc20,
          encodeFunctionData({
            abi: erc20Abi,
            functionName: 'mint',
            args: [to, amountOf(amounts.erc20)],
          }),
          `Minting the test ERC20 to ${to}`,
        )
      const [eth, erc20] = await Promise.all([
        client.getBalance({ address: to }),
        client.readContract({
          address: info.contracts.erc20,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [to],
        }),
      ])
      return { eth, erc20 }
    },

    async mintNft(to, options = {}) {
      if (options.tokenId !== undefined)
        return mintChosenNft(addressOf(to), tokenIdOf(options.tokenId))
      const receipt = await send(
        info.contracts.testErc721,
        encodeFunctionData({
          abi: erc721Abi,
          functionName: 'mint',
          args: [addressOf(to)],
        }),
        `Minting a test NFT to ${to}`,
      )
      const [transfer] = parseEventLogs({
        abi: erc721Abi,
        logs: receipt.logs,
        eventName: 'Transfer',
      })
      if (!transfer)
        throw new TestKitError(
          `Minting a test NFT to ${to} emitted no Transfer.`,
        )
      return transfer.args.tokenId
    },

    mailbox,

    async waitForCode(to, options = {}) {
      const { timeoutMs = 5000, since, kind } = options
      const what = `${kind ?? 'login'} code for ${to}${since ? ` since ${clock(since.toISOString())}` : ''}`
      const deadline = Date.now() + timeoutMs
      let messages: readonly MailboxMessage[] = []
      for (;;) {
        messages = await mailbox(to)
        const found = messages.find(
          (message) =>
            message.code !== undefined &&
            (kind === undefined || message.kind === kind) &&
            (since === undefined || Date.parse(message.at) >= since.getTime()),
        )
        if (found?.code !== undefined) return found.code
        if (Date.now() >= deadline) break
        // The mailbox has no push channel: poll it.
        await new Promise((resolve) => setTimeout(resolve, pollMs))
      }
      throw new WaitTimeoutError(
        `No ${what} within ${timeoutMs} ms; ${held(messages, to)}.`,
      )
    },

    guardian: {
      setRules: (rules, options = {}) =>
        control(
          'PUT',
          `${apiUrl}/dev/guardian/rules${walletQuery(options.wallet)}`,
          rules,
        ),
      getRules: (options = {}) =>
        control(
          'GET',
          `${apiUrl}/dev/guardian/rules${walletQuery(options.wallet)}`,
        ),
    },

    sessionActivity: {
      setRule: (rule, options = {}) =>
        control('PUT', `${apiUrl}/dev/session-activity`, {
          clientId: options.clientId ?? info.passport.clientId,
          rule,
        }),
    },

    relayer: {
      next: (outcome, options = {}) =>
        control('POST', `${info.passport.relayerUrl}/dev/next`, {
          outcome,
          ...options,
          ...(options.wallet === undefined
            ? {}
            : { wallet: addressOf(options.wallet) }),
        }),
      setFee: (tokenPrice) =>
        control('POST', `${info.passport.relayerUrl}/dev/fee`, {
          tokenPrice: tokenPrice.toString(),
        }),
      reset: () => control('POST', `${info.passport.relayerUrl}/dev/reset`, {}),
    },

    snapshot: () => rpc<Hex>('evm_snapshot', []),

    async revert(id) {
      const reverted = await rpc<boolean>('evm_revert', [id])
      if (!reverted)
        throw new TestKitError(
          `The chain has no snapshot ${id} (a snapshot is used up by its revert).`,
        )
    },

    async increaseTime(seconds) {
      if (!Number.isInteger(seconds) || seconds < 0)
        throw new TestKitError(
          `increaseTime takes whole seconds from 0, not ${seconds}.`,
        )
      await rpc('evm_increaseTime', [toHex(BigInt(seconds))])
      await rpc('evm_mine', [])
      return (await client.getBlock()).timestamp
    },

    starkex: {
      mint: (request) =>
        control(
          'POST',
          `${info.passport.overrides.imxPublicApiDomain}/dev/starkex/mint`,
          request,
        ),
    },

    magic: createMagicLogins(info, mail),
    passport: createPassportLogins(info, mail),
    // Scenarios and the services' clock, on the dev service's origin.

    scenarios: {
      list: async () =>
        (await control('GET', `${devOrigin}/scenarios`)) as ScenarioEntry[],
      async set(name, on = true) {
        if (typeof on !== 'boolean')
          throw new TestKitError(
            `scenarios.set takes on as a boolean, not ${String(on)}.`,
          )
        return (await control(
          'PUT',
          `${devOrigin}/scenarios/${encodeURIComponent(name)}`,
          { on },
        )) as ScenarioEntry
      },
      reset: async () =>
        (await control(
          'POST',
          `${devOrigin}/scenarios/reset`,
          {},
        )) as ScenarioEntry[],
    },

    clock: {
      async now() {
        const time = (await control('GET', `${devOrigin}/clock`)) as ClockTime
        return new Date(time.now)
      },
      async advance(seconds) {
        if (!Number.isSafeInteger(seconds) || seconds < 0)
          throw new TestKitError(
            `clock.advance takes whole seconds from 0, not ${seconds}.`,
          )
        const time = (await control('POST', `${devOrigin}/clock/advance`, {
          seconds,
        })) as ClockTime
        return new Date(time.now)
      },
    },
  }
  return kit
}

/** What the dev service's clock routes answer. */
type ClockTime = { now: string; offsetMs: number }

/** How often {@link TestKit.waitForCode} reads the mailbox. */
const pollMs = 50

/**
 * Thrown by the kit's helpers: a control route or the chain refused, or
 * an argument is not what the helper takes. The message names the route
 * or method and what it answered.
 */
export class TestKitError extends BaseError {
  override readonly name = 'TestKit.TestKitError'
}

/**
 * Thrown by a helper that waits, when its time is up: the message names
 * what it waited for and what it saw last.
 */
export class WaitTimeoutError extends BaseError {
  override readonly name = 'TestKit.WaitTimeoutError'
}

function addressOf(address: string): Address {
  if (!isAddress(address, { strict: false }))
    throw new TestKitError(`${address} is not an address.`)
  return getAddress(address)
}

/** The largest ERC-721 id: ids are `uint256`. */
const maxTokenId = 2n ** 256n - 1n

function tokenIdOf(tokenId: bigint | number): bigint {
  if (
    (typeof tokenId === 'number' && !Number.isSafeInteger(tokenId)) ||
    BigInt(tokenId) < 0n ||
    BigInt(tokenId) > maxTokenId
  )
    throw new TestKitError(
      `A token id is a whole number from 0 to 2^256 - 1, not ${tokenId}.`,
    )
  return BigInt(tokenId)
}

function amountOf(amount: Amount): bigint {
  if (typeof amount === 'bigint') {
    if (amount < 0n)
      throw new TestKitError(`An amount cannot be negative (${amount}).`)
    return amount
  }
  if (!/^\d+(\.\d{1,18})?$/.test(amount))
    throw new TestKitError(
      `"${amount}" is not an amount of whole tokens (e.g. "1.5").`,
    )
  return parseEther(amount)
}

function asError(error: unknown): Error | undefined {
  return error instanceof Error ? error : undefined
}

function toHex(value: bigint): Hex {
  return `0x${value.toString(16)}`
}

/** `HH:MM:SS` (UTC) of an ISO time, as a person reads a mailbox. */
function clock(iso: string): string {
  return iso.slice(11, 19)
}

/** What the mailbox held for `to`, in a clause. */
function held(messages: readonly MailboxMessage[], to: string): string {
  const [newest] = messages
  if (!newest) return `the mailbox held no message for ${to}`
  const count =
    messages.length === 1 ? '1 message' : `${messages.length} messages`
  return `the mailbox held ${count} for ${to}, the newest ${article(newest.kind)} ${newest.kind}${newest.code === undefined ? '' : ' with a code'} at ${clock(newest.at)}`
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a'
}

/** A control route's error body in one line. */
function errorText(text: string): string {
  try {
    const body = JSON.parse(text) as unknown
    if (typeof body === 'object' && body !== null) {
      const { error, message } = body as { error?: unknown; message?: unknown }
      if (typeof message === 'string') return message
      if (typeof error === 'string') return error
    }
  } catch {
    // Not JSON: the text itself.
  }
  return text.slice(0, 300)
}
