/**
 * The local emulator of the wallets' backends (Node only): an Anvil chain
 * with the wallet contracts deployed, and the emulated services, each on its
 * own origin.
 *
 * @packageDocumentation
 */
import { startAnvil } from './chain/anvil.js'
import { type Contracts, deployContracts } from './chain/deploy.js'
import { createApp as createDevApp } from './dev/app.js'
import * as Mailbox from './dev/mailbox.js'
import { defaultApiKey } from './magic/provider/protocol.js'
import { createMagicService } from './magic/provider/service.js'
import { isPortFree } from './net.js'
import {
  createIdentityService,
  defaultClientId,
  defaultLogoutRedirectUri,
  defaultRedirectUri,
} from './passport/identity/service.js'
import { defaultPortBase, getPorts } from './ports.js'
import { createRegistry, type Registry } from './registry/index.js'
import { PortInUseError, startServer } from './server.js'
import { StartError } from './startError.js'

export type { Contracts } from './chain/deploy.js'
export type { Message, Store as MailboxStore } from './dev/mailbox.js'
export { getPorts, type Ports, type Service } from './ports.js'
export { StartError } from './startError.js'

/**
 * What the emulator prints as its one JSON line: everything a dApp or a test
 * needs to reach the chain and the services.
 */
export type Info = {
  /** The local chain's id. */
  chainId: number
  /** The Anvil JSON-RPC endpoint. */
  rpcUrl: string
  /** The deployed contracts' checksummed addresses. */
  contracts: Contracts
  /** The dev mailbox's JSON endpoint (`/view` appended: the page). */
  mailbox: string
  /** The emulated iframe wallet: its origin (the SDK's `endpoint`) and key. */
  magic: { endpoint: string; apiKey: string }
  /**
   * The game wallet's sign-in: the emulated identity provider's origin (the
   * SDK's `authenticationDomain`), its client id, and the redirect URIs the
   * dApp passes (any loopback URL is accepted; these are the defaults).
   */
  passport: {
    authenticationDomain: string
    clientId: string
    redirectUri: string
    logoutRedirectUri: string
  }
}

/** A running emulator. */
export type Emulator = {
  /** The emulator's description, as printed on its JSON line. */
  readonly info: Info
  /** The dev mailbox the services deliver codes and links to. */
  readonly mailbox: Mailbox.Store
  /** The users and their custody keys, shared by the services. */
  readonly registry: Registry
  /** Stops everything the emulator started, Anvil included. Idempotent. */
  stop(): Promise<void>
}

/**
 * Starts Anvil, deploys the contracts and starts the emulated services on
 * their ports (see `getPorts`). If a piece fails to start, the pieces already
 * started are stopped before the error is thrown.
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
 * @param options.anvilPort - Anvil's port. @default 8545
 * @param options.chainId - The local chain's id. @default 31337
 * @param options.host - The interface everything binds. @default '127.0.0.1'
 * @param options.passportRedirectUri - The game wallet's login callback page
 *   in `info.passport`. @default 'http://localhost:5173/passport/redirect'
 * @param options.passportLogoutRedirectUri - Its logout page in
 *   `info.passport`. @default 'http://localhost:5173/passport/logout'
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
    host = '127.0.0.1',
    passportRedirectUri = defaultRedirectUri,
    passportLogoutRedirectUri = defaultLogoutRedirectUri,
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
    const ports = getPorts(portBase)
    // Fail before the slow part (Anvil, deployment) if a port is taken.
    step = `start the dev service on ${host}:${ports.dev}`
    if (!(await isPortFree({ port: ports.dev, host })))
      throw new PortInUseError({ port: ports.dev, host, name: 'dev (mailbox)' })
    step = `start the magic service on ${host}:${ports.magic}`
    if (!(await isPortFree({ port: ports.magic, host })))
      throw new PortInUseError({ port: ports.magic, host, name: 'magic' })
    step = `start the identity service on ${host}:${ports.identity}`
    if (!(await isPortFree({ port: ports.identity, host })))
      throw new PortInUseError({
        port: ports.identity,
        host,
        name: 'identity',
      })
    step = `start Anvil on ${host}:${anvilPort}`
    const anvil = await startAnvil({ port: anvilPort, chainId, host })
    started.push({ name: 'Anvil', stop: () => anvil.stop() })

    step = `deploy the contracts to ${anvil.rpcUrl}`
    const contracts = await deployContracts({ rpcUrl: anvil.rpcUrl, chainId })

    step = `start the dev service on ${host}:${ports.dev}`
    const mailbox = Mailbox.create()
    const dev = await startServer({
      fetch: createDevApp({ mailbox }).fetch,
      port: ports.dev,
      host,
      name: 'dev (mailbox)',
    })
    started.push({ name: 'the dev service', stop: () => dev.stop() })

    step = `start the magic service on ${host}:${ports.magic}`
    const registry = createRegistry({ rpcUrl: anvil.rpcUrl })
    const magic = await startServer({
      fetch: createMagicService({
        mailbox,
        registry,
        chain: { rpcUrl: anvil.rpcUrl, chainId: anvil.chainId },
        tokens: {
          erc20: contracts.erc20,
          erc721: contracts.erc721,
          erc1155: contracts.erc1155,
          sponsoredCallDelegate: contracts.sponsoredCallDelegate,
        },
      }).fetch,
      port: ports.magic,
      host,
      name: 'magic',
    })
    started.push({ name: 'the magic service', stop: () => magic.stop() })

    step = `start the identity service on ${host}:${ports.identity}`
    const identityService = await createIdentityService({
      issuer: `http://${host}:${ports.identity}`,
      registry,
      mailbox,
      clientId: defaultClientId,
      redirectUri: passportRedirectUri,
      logoutRedirectUri: passportLogoutRedirectUri,
      mailboxPage: `${dev.url}/mailbox/view`,
    })
    const identity = await startServer({
      handler: identityService.handler,
      port: ports.identity,
      host,
      name: 'identity',
    })
    started.push({
      name: 'the identity service',
      stop: () => identity.stop(),
    })

    const info = buildInfo({
      anvil,
      contracts,
      urls: { dev: dev.url, magic: magic.url, identity: identity.url },
      passport: {
        clientId: identityService.clientId,
        redirectUri: passportRedirectUri,
        logoutRedirectUri: passportLogoutRedirectUri,
      },
    })
    let stopping: Promise<void> | undefined
    return {
      info,
      mailbox,
      registry,
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
    /** Anvil's port. @default 8545 */
    anvilPort?: number | undefined
    /** The local chain's id. @default 31337 */
    chainId?: number | undefined
    /** The interface everything binds. @default '127.0.0.1' */
    host?: string | undefined
    /**
     * The game wallet's login callback page, reported in `info.passport`
     * (the identity provider accepts any loopback redirect URI).
     * @default 'http://localhost:5173/passport/redirect'
     */
    passportRedirectUri?: string | undefined
    /**
     * The game wallet's logout page, reported in `info.passport`.
     * @default 'http://localhost:5173/passport/logout'
     */
    passportLogoutRedirectUri?: string | undefined
  }
  type ReturnType = Emulator
}

/**
 * Builds the emulator's JSON-line description. The one place to extend when
 * a service joins (its URL goes under its own key).
 */
function buildInfo(parts: {
  anvil: { chainId: number; rpcUrl: string }
  contracts: Contracts
  urls: { dev: string; magic: string; identity: string }
  passport: Omit<Info['passport'], 'authenticationDomain'>
}): Info {
  const { anvil, contracts, urls, passport } = parts
  return {
    chainId: anvil.chainId,
    rpcUrl: anvil.rpcUrl,
    contracts: { ...contracts },
    mailbox: `${urls.dev}/mailbox`,
    magic: { endpoint: urls.magic, apiKey: defaultApiKey },
    passport: { authenticationDomain: urls.identity, ...passport },
  }
}
