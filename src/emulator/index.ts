/**
 * The local emulator of the wallets' backends (Node only): an Anvil chain
 * with the wallet contracts deployed, and the emulated services, each on its
 * own origin.
 *
 * @packageDocumentation
 */
import { BaseError } from '../core/Errors.js'
import { emulatorAccounts } from './chain/accounts.js'
import { type RunningChain, startChain } from './chain/gateway.js'
import * as Clock from './clock.js'
import { platformApiKey } from './constants.js'
import * as Mailbox from './dev/mailbox.js'
import * as Dev from './dev/service.js'
import { createGuardian } from './guardian.js'
import * as Inspect from './inspect.js'
import { isLoopbackUrl } from './loopback.js'
import * as MagicProvider from './magic/provider/service.js'
import { isPortFree } from './net.js'
import * as PassportApi from './passport/api/service.js'
import * as PassportConfirmation from './passport/confirmation/service.js'
import * as PassportIdentity from './passport/identity/service.js'
import * as PassportRelayer from './passport/relayer/service.js'
import * as PassportStarkEx from './passport/starkex/service.js'
import * as PassportTee from './passport/tee/service.js'
import { defaultPortBase, getPorts, type Slot, slots } from './ports.js'
import { createRegistry, type Registry } from './registry/index.js'
import * as Scenarios from './scenarios.js'
import { PortInUseError } from './server.js'
import type { Chain, Context, Service, Started } from './service.js'
import * as Sources from './sources.js'

export type { Contracts } from './chain/deploy.js'
export type { Message, Store as MailboxStore } from './dev/mailbox.js'
// The bodies of the game wallet's control routes, for the pages and tests
// that steer them (types only: nothing of the emulator loads with them).
export type { RulesBody as GuardianRulesBody } from './passport/api/guardian.js'
export type {
  Check as SessionActivityCheck,
  Rule as SessionActivityRule,
} from './passport/api/session.js'
export { getPorts, type Ports, type Slot } from './ports.js'
export type {
  Entry as ScenarioEntry,
  Name as ScenarioName,
} from './scenarios.js'
export type { Chain, Context, Service, Started } from './service.js'

/**
 * The emulated services, in start order. A service that joins is a folder
 * under `src/emulator/<product>/<service>/` and an entry here.
 */
export const services = [
  Dev.service,
  MagicProvider.service,
  PassportIdentity.service,
  PassportRelayer.service,
  PassportApi.service,
  PassportStarkEx.service,
  PassportTee.service,
  PassportConfirmation.service,
] as const

/**
 * What the emulator prints as its one JSON line: everything a dApp or a test
 * needs to reach the chains and the services.
 *
 * - `chainId`, `rpcUrl`, `contracts`: the main chain, its public JSON-RPC
 *   URL and the deployed contracts' checksummed addresses (among them the
 *   order book's `seaport` and `signedZone`, and the `erc721` and
 *   `erc1155` collections mint requests mint on);
 * - `chains`: every chain, the main one first;
 * - `accounts`: the Anvil accounts the emulator uses, by role (index and
 *   address); accounts 1 to 4 are none of them, left to dApps and their
 *   tests;
 * - then what each service adds: `mailbox` (the dev mailbox's JSON
 *   endpoint; `/view` appended: the page), `ui` (the emulator's UI page,
 *   on the same origin), `magic` (the iframe wallet's
 *   provider: its origin, the SDK's `endpoint`, and its API key),
 *   `passport` (the game wallet's identity provider: its origin, the SDK's
 *   `authenticationDomain`, its client id, and the redirect URIs the dApp
 *   passes; the platform API's `apiUrl`, the passport domain of the confirmation
 *   pages (`passportDomain`) and
 *   the relayer's `relayerUrl`, the address of the crafting signer
 *   (`craftingSigner`), the `overrides` the game wallet is configured with,
 *   which point at every one of its services, and `apiKey`, the platform
 *   API's secret key for `x-immutable-api-key`).
 */
export type Info = Compute<
  {
    /** The main chain's id. */
    chainId: number
    /** The main chain's JSON-RPC endpoint. */
    rpcUrl: string
    /** Every chain of the emulator, the main one first. */
    chains: { chainId: number; rpcUrl: string }[]
    /** The contracts' checksummed addresses (the same on every chain). */
    contracts: Chain['contracts']
    /**
     * The Anvil accounts the emulator signs or sends with, by role. Accounts
     * 1 to 4 are never among them: they are left to dApps and their tests.
     */
    accounts: typeof emulatorAccounts
    /**
     * The platform API's secret key, for `x-immutable-api-key` (the rest of
     * `passport` comes from the game wallet's services).
     */
    passport: { apiKey: string }
  } & ServicesInfo<(typeof services)[number]>
>

/** A running emulator. */
export type Emulator = {
  /** The emulator's description, as printed on its JSON line. */
  readonly info: Info
  /** The dev mailbox the services deliver codes and links to. */
  readonly mailbox: Mailbox.Store
  /** The users and their custody keys, shared by the services. */
  readonly registry: Registry
  /** The services' clock (time travel: `POST {dev}/clock/advance`). */
  readonly clock: Clock.Clock
  /** The scenario switches (`GET {dev}/scenarios`). */
  readonly scenarios: Scenarios.Store
  /** Stops everything the emulator started, Anvil included. Idempotent. */
  stop(): Promise<void>
}

/**
 * Starts Anvil, deploys the contracts and starts the emulated services on
 * their ports (see `getPorts`). Every port is checked before the slow part
 * starts; if a piece fails to start, the pieces already started are
 * stopped, in reverse order, before the error is thrown.
 *
 * @example
 * ```ts
 * import { startEmulator } from 'embedded-wallets/emulator'
 *
 * const emulator = await startEmulator({ portBase: 4400 })
 * console.log(JSON.stringify(emulator.info))
 * await emulator.stop()
 * ```
 *
 * @param options.portBase - The dev mailbox's port; the other services follow. @default 4400
 * @param options.anvilPort - The main chain's JSON-RPC port. @default 8545
 * @param options.chainId - The main chain's id. @default 31337
 * @param options.extraChains - More chains, each with its id and port. @default []
 * @param options.host - The interface everything binds. @default '127.0.0.1'
 * @param options.passportRedirectUri - The game wallet's login callback page
 *   (a loopback http URL) in `info.passport`; the login popup lands there
 *   too. @default 'http://localhost:5173/passport/redirect'
 * @param options.passportLogoutRedirectUri - Its logout page (a loopback
 *   http URL) in `info.passport`. @default 'http://localhost:5173/passport/logout'
 * @returns The running emulator.
 * @throws {StartError} If a piece fails to start (the cause says which).
 */
export async function startEmulator(
  options: startEmulator.Options = {},
): Promise<startEmulator.ReturnType> {
  const {
    portBase = defaultPortBase,
    anvilPort = 8545,
    chainId = 31337,
    extraChains = [],
    host = '127.0.0.1',
    passportRedirectUri = PassportIdentity.defaultRedirectUri,
    passportLogoutRedirectUri = PassportIdentity.defaultLogoutRedirectUri,
  } = options

  const started: { name: string; stop: () => Promise<void> }[] = []
  const stopAll = async () => {
    const failures: unknown[] = []
    for (const piece of started.toReversed()) {
      try {
        await piece.stop()
      } catch (error) {
        failures.push(new Error(`Cannot stop ${piece.name}`, { cause: error }))
      }
    }
    started.length = 0
    if (failures.length > 0)
      throw new AggregateError(failures, 'The emulator did not stop cleanly.')
  }

  let step = `use the port base ${portBase}`
  try {
    // The identity provider accepts only loopback redirect URIs: refuse any
    // other here, rather than print it and fail at the first sign-in.
    for (const [uri, page] of [
      [passportRedirectUri, 'login callback page'],
      [passportLogoutRedirectUri, 'logout page'],
    ] as const) {
      step = `use ${JSON.stringify(uri)} as the game wallet's ${page}`
      if (!isLoopbackUrl(uri))
        throw new Error(
          'The emulated identity provider accepts only loopback http URLs (localhost, 127.0.0.1 or [::1], no fragment) as redirect URIs.',
        )
    }
    step = `use the port base ${portBase}`
    const ports = getPorts(portBase)
    const chainSpecs = [{ chainId, port: anvilPort }, ...extraChains]
    // Fail before the slow part (Anvil, deployment) if a port is taken.
    const wanted = [
      ...chainSpecs.map((chain, index) => ({
        label: `chain ${chain.chainId}`,
        name: `chain ${chain.chainId} JSON-RPC`,
        port: chain.port,
        flag: index === 0 ? '--anvil-port' : 'extraChains',
      })),
      ...services.map((service) => ({
        label: `the ${service.name} service`,
        name: service.name,
        port: ports[service.name],
        flag: '--port-base',
      })),
    ]
    const seen = new Map<number, string>()
    for (const { label, port } of wanted) {
      const other = seen.get(port)
      if (other !== undefined)
        throw new Error(`${other} and ${label} would share port ${port}.`)
      seen.set(port, label)
    }
    for (const { label, name, port, flag } of wanted) {
      step = `start ${label} on ${host}:${port}`
      if (!(await isPortFree({ port, host })))
        throw new PortInUseError({ port, host, name, flag })
    }

    const clock = Clock.create()
    const scenarios = Scenarios.create()
    const chains: RunningChain[] = []
    for (const spec of chainSpecs) {
      step = `start chain ${spec.chainId} (Anvil, contracts, gateway on ${host}:${spec.port})`
      const chain = await startChain({
        ...spec,
        host,
        down: () => scenarios.isOn('node-down'),
      })
      started.push({ name: `chain ${spec.chainId}`, stop: () => chain.stop() })
      chains.push(chain)
    }
    const [main, ...others] = chains as [RunningChain, ...RunningChain[]]
    const serviceChains: Context['chains'] = [main, ...others]

    // What the UI shows: the shared stores say when they change, and the
    // services register their own state as they start.
    const inspect = Inspect.create()
    const mailbox = Mailbox.create({
      now: clock.now,
      onChange: () => inspect.changed(Inspect.sources.mailbox),
    })
    const registry = createRegistry({
      rpcUrl: main.nodeUrl,
      now: clock.now,
      onChange: () => inspect.changed(Inspect.sources.users),
    })
    const guardian = createGuardian({
      down: () => scenarios.isOn('guardian-unavailable'),
      onChange: () => inspect.changed(Inspect.sources.verdicts),
    })
    // The UI reads the switches from `GET /scenarios` again whenever this
    // snapshot changes.
    inspect.register(Inspect.sources.scenarios, { snapshot: scenarios.list })
    scenarios.subscribe(() => inspect.changed(Inspect.sources.scenarios))
    Sources.registerShared(inspect, { registry, mailbox, guardian })
    const origins: { [slot in Slot]?: string } = {}
    // Every slot's origin, running or not: a service may name one that
    // joins the list later (the platform API prints the relayer's).
    for (const slot of slots) origins[slot] = `http://${host}:${ports[slot]}`

    let info: Record<string, unknown> = {
      chainId: main.chainId,
      rpcUrl: main.rpcUrl,
      chains: chains.map((chain) => ({
        chainId: chain.chainId,
        rpcUrl: chain.rpcUrl,
      })),
      contracts: { ...main.contracts },
      accounts: emulatorAccounts,
    }
    for (const service of services) {
      const port = ports[service.name]
      step = `start the ${service.name} service on ${host}:${port}`
      const context: Context = {
        listen: { host, port, name: service.name },
        origin: `http://${host}:${port}`,
        origins,
        chains: serviceChains,
        registry,
        mailbox,
        clock,
        scenarios,
        inspect,
        passport: {
          redirectUri: passportRedirectUri,
          logoutRedirectUri: passportLogoutRedirectUri,
          guardian,
        },
      }
      const running: Started = await (service as Service).start(context)
      started.push({ name: `the ${service.name} service`, stop: running.stop })
      info = mergeInfo(info, running.info)
    }
    // The platform API's key: what a dApp passes as `x-immutable-api-key`.
    info = mergeInfo(info, { passport: { apiKey: platformApiKey } })

    let stopping: Promise<void> | undefined
    return {
      info: info as Info,
      mailbox,
      registry,
      clock,
      scenarios,
      stop() {
        stopping ??= stopAll()
        return stopping
      },
    }
  } catch (error) {
    const cleanup = await stopAll().then(
      () => undefined,
      (stopError: unknown) => stopError,
    )
    throw new StartError({ step, cause: error, cleanup })
  }
}

export declare namespace startEmulator {
  type Options = {
    /** The dev mailbox's port; the other services follow. @default 4400 */
    portBase?: number | undefined
    /** The main chain's JSON-RPC port (its gateway). @default 8545 */
    anvilPort?: number | undefined
    /** The main chain's id. @default 31337 */
    chainId?: number | undefined
    /**
     * More chains, each an Anvil of its own with the same contracts, e.g.
     * to switch chains in a test. @default []
     */
    extraChains?: readonly { chainId: number; port: number }[] | undefined
    /** The interface everything binds. @default '127.0.0.1' */
    host?: string | undefined
    /**
     * The game wallet's login callback page, reported in `info.passport`:
     * a loopback http URL (the identity provider accepts no other). The
     * login popup lands there too, so the page must call
     * `passport.loginCallback()`.
     * @default 'http://localhost:5173/passport/redirect'
     */
    passportRedirectUri?: string | undefined
    /**
     * The game wallet's logout page, reported in `info.passport`: a
     * loopback http URL.
     * @default 'http://localhost:5173/passport/logout'
     */
    passportLogoutRedirectUri?: string | undefined
  }
  type ReturnType = Emulator
}

/**
 * Merges what a service adds to the JSON line: an object under a key that
 * holds an object already is merged into it (one product, several services).
 */
function mergeInfo(
  info: Record<string, unknown>,
  added: object,
): Record<string, unknown> {
  const merged = { ...info }
  for (const [key, value] of Object.entries(added)) {
    const existing = merged[key]
    merged[key] =
      isRecord(existing) && isRecord(value) ? { ...existing, ...value } : value
  }
  return merged
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The `info` type of one service of the list. */
type InfoOf<service> = service extends Service<Slot, infer info> ? info : never

/** The intersection of every service's info, keys of one product merged. */
type ServicesInfo<service> = UnionToIntersection<InfoOf<service>>

type UnionToIntersection<union> = (
  union extends unknown
    ? (value: union) => void
    : never
) extends (value: infer intersection) => void
  ? intersection
  : never

/** Flattens an intersection, for readable hovers and errors. */
type Compute<type> = {
  [key in keyof type]: type[key] extends object
    ? type[key] extends readonly unknown[]
      ? type[key]
      : { [inner in keyof type[key]]: type[key][inner] }
    : type[key]
} & unknown

/**
 * Thrown when the emulator cannot start. The short message names the step
 * that failed; the details say why. What had started is stopped first.
 */
export class StartError extends BaseError<Error | undefined> {
  override readonly name = 'Emulator.StartError'
  constructor(options: {
    step: string
    cause: unknown
    cleanup?: unknown
  }) {
    const { step, cause, cleanup } = options
    super(`The emulator could not ${step}.`, {
      cause: cause instanceof Error ? cause : undefined,
      details: describe(cause),
      metaMessages:
        cleanup === undefined
          ? undefined
          : [`Stopping what had started failed too: ${describe(cleanup)}`],
    })
  }
}

/** One line from an error and its causes, short messages first. */
function describe(error: unknown): string {
  if (error instanceof AggregateError)
    return [error.message, ...error.errors.map(describe)].join(' ')
  if (!(error instanceof Error)) return String(error)
  const own = error instanceof BaseError ? error.shortMessage : error.message
  return error.cause === undefined ? own : `${own} ${describe(error.cause)}`
}
