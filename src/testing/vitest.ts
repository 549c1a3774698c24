/**
 * The test kit for Vitest: an emulator started by a `globalSetup` module
 * (one for the run, or one per worker) and handed to the tests with
 * Vitest's `provide`/`inject`; `withEmulator()` in a Node test file, with the
 * chain snapshotted before each test and reverted after it; and browser
 * commands, so a Vitest browser-mode test calls the kit from the page.
 *
 * @example
 * ```ts
 * // vitest.setup.ts (globalSetup)
 * import { emulatorSetup } from 'embedded-wallets/testing/vitest'
 * export default emulatorSetup()
 *
 * // login.test.ts
 * import { withEmulator } from 'embedded-wallets/testing/vitest'
 * const emulator = withEmulator()
 * test('the backend accepts a logged-in user', async () => {
 *   const { didToken } = await emulator.kit.magic.didToken({ email: 'ada@example.com' })
 * })
 * ```
 *
 * @packageDocumentation
 */
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest'
import type { BrowserCommand, TestProject } from 'vitest/node'
import type { Info } from '../emulator/index.js'
import { createTestKit, type TestKit, TestKitError } from './kit.js'
import { startWorkerEmulator, workerStripes } from './worker.js'

/** What {@link emulatorSetup} provides to the tests, as `embeddedWallets`. */
export type ProvidedEmulators = {
  /** The emulators' JSON lines: one, or one per worker. */
  emulators: readonly Info[]
  /**
   * Whether workers running side by side share one emulator (one for the
   * run, more than one worker): their tests then see each other's chain,
   * and {@link withEmulator} does not revert it after each test.
   */
  shared: boolean
}

declare module 'vitest' {
  // Vitest types what `provide`/`inject` carry by this interface's
  // augmentation (a `type` cannot be augmented).
  export interface ProvidedContext {
    embeddedWallets: ProvidedEmulators
  }
}

/** The key {@link emulatorSetup} provides the emulators under. */
export const providedKey = 'embeddedWallets'

/**
 * A Vitest `globalSetup` that starts the emulator before the run and stops
 * it after: one for the whole run (default), or with `perWorker: true`
 * one per worker (`maxWorkers` of them), so test files running side by
 * side never share a chain. Its JSON lines reach the tests through
 * `inject('embeddedWallets')` (see {@link withEmulator}) and the browser
 * commands.
 *
 * @example
 * ```ts
 * // vitest.setup.ts, named in `test.globalSetup`
 * import { emulatorSetup } from 'embedded-wallets/testing/vitest'
 * export default emulatorSetup({ perWorker: true })
 * ```
 */
export function emulatorSetup(
  options: emulatorSetup.Options = {},
): (project: TestProject) => Promise<() => Promise<void>> {
  const { perWorker = false, ...start } = options
  return async (project) => {
    const workers = Math.max(1, project.config.maxWorkers)
    const count = perWorker ? workers : 1
    // The stripes from the top down: files that start their own emulator
    // (withEmulator without this setup) take them from the bottom up.
    const started = await Promise.allSettled(
      Array.from({ length: count }, (_, index) =>
        startWorkerEmulator({
          ...start,
          workerIndex: workerStripes - 1 - (index % workerStripes),
        }),
      ),
    )
    const emulators = started.flatMap((result) =>
      result.status === 'fulfilled' ? [result.value] : [],
    )
    const stop = async () => {
      await Promise.all(emulators.map((emulator) => emulator.stop()))
    }
    const failed = started.find((result) => result.status === 'rejected')
    if (failed) {
      await stop()
      throw failed.reason
    }
    project.provide(providedKey, {
      emulators: emulators.map((emulator) => emulator.info),
      shared: count === 1 && workers > 1,
    })
    return stop
  }
}

export declare namespace emulatorSetup {
  type Options = Omit<startWorkerEmulator.Options, 'workerIndex'> & {
    /** One emulator per worker instead of one for the run. @default false */
    perWorker?: boolean | undefined
  }
}

/**
 * The emulator of this test file: the one {@link emulatorSetup} started
 * for this worker, or, without that setup, one the file starts for itself
 * (on its worker's port stripe) and stops after its tests. Around each
 * test the chain is snapshotted and reverted (`resetChain`), so balances,
 * nonces and NFTs minted in one test are gone in the next; by default not
 * when workers share one emulator, where a revert would undo another
 * file's running test.
 *
 * Call it at the top of a test file; read `info` and `kit` inside tests
 * and hooks.
 *
 * @example
 * ```ts
 * const emulator = withEmulator()
 * test('funds', async () => {
 *   await emulator.kit.fund(alice, { eth: '1' })
 * })
 * ```
 */
export function withEmulator(
  options: withEmulator.Options = {},
): withEmulator.ReturnType {
  const { resetChain, ...start } = options
  let current: { info: Info; kit: TestKit; shared: boolean } | undefined
  let stop: (() => Promise<void>) | undefined
  let snapshot: `0x${string}` | undefined

  beforeAll(async () => {
    const provided = inject(providedKey)
    const worker = Number(process.env.VITEST_POOL_ID ?? '1') - 1
    const info = provided?.emulators[worker % provided.emulators.length]
    if (info !== undefined) {
      current = { info, kit: createTestKit(info), shared: provided.shared }
      return
    }
    const own = await startWorkerEmulator({ ...start, workerIndex: worker })
    stop = own.stop
    current = { info: own.info, kit: own.kit, shared: false }
  })

  afterAll(async () => {
    await stop?.()
  })

  beforeEach(async () => {
    if (current && (resetChain ?? !current.shared))
      snapshot = await current.kit.snapshot()
  })

  afterEach(async () => {
    if (current === undefined || snapshot === undefined) return
    const id = snapshot
    snapshot = undefined
    await current.kit.revert(id)
  })

  const started = () => {
    if (current === undefined)
      throw new TestKitError(
        'The emulator starts in beforeAll: read info and kit inside tests and hooks.',
      )
    return current
  }
  return {
    get info() {
      return started().info
    },
    get kit() {
      return started().kit
    },
  }
}

export declare namespace withEmulator {
  type Options = Omit<startWorkerEmulator.Options, 'workerIndex'> & {
    /**
     * Snapshot the chain before each test and revert it after.
     * @default true, unless workers share one emulator
     */
    resetChain?: boolean | undefined
  }
  type ReturnType = {
    /** The emulator's JSON line. */
    readonly info: Info
    /** The kit over it. */
    readonly kit: TestKit
  }
}

/** The kit's helpers by name: `'fund'`, `'magic.didToken'`, `'scenarios.set'`, …. */
export type KitMethod = {
  [key in keyof TestKit & string]: TestKit[key] extends (
    ...args: never[]
  ) => unknown
    ? key
    : TestKit[key] extends object
      ? {
          [inner in keyof TestKit[key] & string]: TestKit[key][inner] extends (
            ...args: never[]
          ) => unknown
            ? `${key}.${inner}`
            : never
        }[keyof TestKit[key] & string]
      : never
}[keyof TestKit & string]

/** The helper a {@link KitMethod} names. */
export type KitFunction<method extends KitMethod> =
  method extends `${infer outer}.${infer inner}`
    ? outer extends keyof TestKit
      ? inner extends keyof TestKit[outer]
        ? TestKit[outer][inner]
        : never
      : never
    : method extends keyof TestKit
      ? TestKit[method]
      : never

/**
 * A value as it crosses Vitest's commands channel (JSON): a bigint as its
 * digits and an `n` (`10n` is `'10n'`), functions left out.
 */
export type Wire<value> = value extends bigint
  ? `${bigint}n`
  : value extends (...args: never[]) => unknown
    ? never
    : value extends readonly (infer item)[]
      ? Wire<item>[]
      : value extends object
        ? { [key in keyof value]: Wire<value[key]> }
        : value

/** The arguments of a kit helper, as a browser test passes them. */
export type WireArgs<method extends KitMethod> =
  KitFunction<method> extends (...args: infer args) => unknown
    ? { [index in keyof args]: Wire<args[index]> }
    : never

/** The result of a kit helper, as a browser test receives it. */
export type WireResult<method extends KitMethod> =
  KitFunction<method> extends (...args: never[]) => infer result
    ? Wire<Awaited<result>>
    : never

declare module 'vitest/browser' {
  interface BrowserCommands {
    /**
     * Calls a kit helper in Node for a browser-mode test, on the emulator
     * {@link emulatorSetup} started (the first, with one per worker).
     * Bigints go both ways as `'<digits>n'` strings.
     *
     * @example
     * ```ts
     * import { commands } from 'vitest/browser'
     * const code = await commands.emulatorKit('waitForCode', 'ada@example.com')
     * const tokenId = await commands.emulatorKit('mintNft', alice, { tokenId: '7n' })
     * ```
     */
    emulatorKit<method extends KitMethod>(
      method: method,
      ...args: WireArgs<method>
    ): Promise<WireResult<method>>
    /** The JSON line of the emulator {@link emulatorSetup} started (the first). */
    emulatorInfo(): Promise<Info>
  }
}

/** Kits by emulator, so the browser commands make one per emulator. */
const kits = new Map<string, TestKit>()

function kitOf(project: TestProject): TestKit {
  const provided = project.getProvidedContext()[providedKey] as
    | ProvidedEmulators
    | undefined
  const [info] = provided?.emulators ?? []
  if (info === undefined)
    throw new TestKitError(
      `No emulator for the browser commands of project "${project.name}": add a globalSetup module that exports emulatorSetup() (embedded-wallets/testing/vitest).`,
    )
  let kit = kits.get(info.rpcUrl)
  if (kit === undefined) {
    kit = createTestKit(info)
    kits.set(info.rpcUrl, kit)
  }
  return kit
}

/** See `BrowserCommands.emulatorKit`. */
const emulatorKit: BrowserCommand<
  [method: string, ...args: unknown[]]
> = async (context, method, ...args) => {
  const kit = kitOf(context.project)
  const [outer = '', inner, ...rest] = method.split('.')
  const owner: unknown =
    inner === undefined ? kit : (kit as Record<string, unknown>)[outer]
  const name = inner ?? outer
  const helper =
    rest.length === 0 &&
    typeof owner === 'object' &&
    owner !== null &&
    Object.hasOwn(owner, name)
      ? (owner as Record<string, unknown>)[name]
      : undefined
  if (typeof helper !== 'function')
    throw new TestKitError(`The kit has no helper "${method}".`)
  const result: unknown = await helper.apply(owner, args.map(fromWire))
  return toWire(result)
}

/** See `BrowserCommands.emulatorInfo`. */
const emulatorInfo: BrowserCommand<[]> = (context) =>
  kitOf(context.project).info

/**
 * The browser commands of the kit, for `test.browser.commands` of a Vitest
 * browser project whose `globalSetup` is {@link emulatorSetup}:
 * `emulatorKit(method, ...args)` calls any kit helper (`'fund'`,
 * `'mintNft'`, `'waitForCode'`, `'magic.didToken'`, `'passport.login'`,
 * `'scenarios.set'`, …) and `emulatorInfo()` gives the JSON line.
 *
 * @example
 * ```ts
 * // vitest.config.ts
 * import { emulatorCommands } from 'embedded-wallets/testing/vitest'
 * export default defineConfig({
 *   test: {
 *     globalSetup: ['./vitest.setup.ts'],
 *     browser: { enabled: true, commands: { ...emulatorCommands }, … },
 *   },
 * })
 * ```
 */
export const emulatorCommands = { emulatorKit, emulatorInfo } as const

/** A bigint as `'<digits>n'`, everywhere in `value`. */
function toWire(value: unknown): unknown {
  if (typeof value === 'bigint') return `${value}n`
  if (Array.isArray(value)) return value.map(toWire)
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, toWire(item)]),
    )
  return value
}

/** `'<digits>n'` as the bigint, everywhere in `value`. */
function fromWire(value: unknown): unknown {
  if (typeof value === 'string' && /^-?\d+n$/.test(value))
    return BigInt(value.slice(0, -1))
  if (Array.isArray(value)) return value.map(fromWire)
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, fromWire(item)]),
    )
  return value
}
