/**
 * The game wallet's zkEVM provider wired to its real backends (the game
 * wallet testkit, src/emulator/passport/testkit.ts: Anvil behind the chain
 * gateway, the identity provider, the platform API with the guardian and
 * the relayer, each behind a tap that records and can script): a signed-in
 * player whose custody key is the one the registry holds for them, the
 * provider's session seam answered from a script, and a confirmation
 * handle that records what the router asked of the popup and, when the
 * player confirms, approves the verdict at the API as the confirmation
 * page's flow does (a program on this machine may). What the services
 * received is read back from their taps, decoded.
 */
import type { Address, Hex } from 'viem'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import * as Emitter from '../../../src/core/Emitter.js'
import {
  type Backends,
  type Platform,
  type Player,
  startBackends,
  startPlatform,
} from '../../../src/emulator/passport/testkit.js'
import { jsonOf } from '../../../src/emulator/testkit.js'
import type { User } from '../../../src/passport/auth/user.js'
import { paths } from '../../../src/passport/wire/api.js'
import {
  decodeExecute,
  type Execute,
} from '../../../src/passport/wire/sequence.js'
import type { ProviderConfig } from '../../../src/passport/zkevm/context.js'
import type { CustodySigner } from '../../../src/passport/zkevm/custodySigner.js'
import { createProvider } from '../../../src/passport/zkevm/provider.js'
import type {
  Confirmation,
  SessionActivity,
} from '../../../src/passport/zkevm/seams.js'

/**
 * Starts the backends once for the test file and forgets what each test
 * recorded or scripted before the next one.
 *
 * @returns A getter of the running backends.
 */
export function fileBackends(
  options: Parameters<typeof startBackends>[0] = {},
): () => Backends {
  return perFile(() => startBackends(options))
}

/**
 * As {@link fileBackends}, for tests of the platform API's clients that
 * need no chain: the API and the identity provider only.
 */
export function filePlatform(
  options: Parameters<typeof startPlatform>[0] = {},
): () => Platform {
  return perFile(() => startPlatform(options))
}

function perFile<running extends { reset(): void; stop(): Promise<void> }>(
  start: () => Promise<running>,
): () => running {
  let started: running | undefined
  beforeAll(async () => {
    started = await start()
  }, 120_000)
  afterAll(() => started?.stop())
  beforeEach(() => started?.reset())
  return () => {
    if (!started) throw new Error('The backends did not start.')
    return started
  }
}

/** The session's user of `player`; with `registered`, the wallet's claims. */
export function userOf(player: Player, registered: boolean): User {
  return {
    accessToken: player.accessToken,
    idToken: player.idToken,
    refreshToken: player.refreshToken,
    profile: { sub: player.sub, email: player.email },
    ...(registered
      ? {
          zkEvm: {
            ethAddress: player.wallet,
            userAdminAddress: player.custody.address,
          },
        }
      : {}),
  }
}

/** One `eth_sendTransaction` the relayer received, decoded. */
export type Sent = Execute & {
  /** The wallet called (`to`). */
  to: Address
  data: Hex
  /** The relayer's id for it. */
  relayerId: string
  /** The chain transaction's hash, once the relayer gave it. */
  hash: Hex | undefined
}

/**
 * Records what the router asked of the popup and answers as scripted; a
 * confirmation is approved at the API for `user()` first, as the page's
 * flow does.
 */
export function recordingConfirmation(options: {
  api: string
  user: () => User | null
  confirm?: boolean | undefined
}) {
  const calls: string[] = []
  const confirm = options.confirm ?? true
  const approve = async (path: string) => {
    const response = await fetch(`${options.api}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${options.user()?.accessToken}`,
      },
      body: JSON.stringify({ chainType: 'evm' }),
    })
    if (response.status !== 204)
      throw new Error(`Approve: ${response.status} ${await response.text()}`)
  }
  const confirmation: Confirmation = {
    open() {
      calls.push('open')
      return {
        async transaction(p) {
          calls.push(`transaction:${p.transactionId}:${p.wallet}:${p.chainId}`)
          if (confirm)
            await approve(
              paths.approveTransaction.replace(
                '{transactionID}',
                p.transactionId,
              ),
            )
          return confirm
        },
        async message(p) {
          calls.push(`message:${p.messageId}:${p.wallet}:${p.messageType}`)
          if (confirm)
            await approve(
              paths.approveMessage.replace('{messageID}', p.messageId),
            )
          return confirm
        },
        async unavailable() {
          calls.push('unavailable')
        },
        close() {
          calls.push('close')
        },
      }
    },
  }
  return { confirmation, calls }
}

/** Signs a new player in (registered unless told) and starts a provider. */
export async function setup(
  backends: Backends,
  options: {
    /** Whether the player's wallet is registered. @default true */
    registered?: boolean
    /** Whether the session holds the player. @default true */
    signedIn?: boolean
    config?: Partial<ProviderConfig>
    /** What the player answers in the popup. @default true */
    confirm?: boolean
    sessionActivity?: SessionActivity
    /** Whether the forced refresh after registration carries the wallet. @default true */
    refreshAddsClaims?: boolean
    /** Whether the login prompt signs the player in. @default true */
    loginSucceeds?: boolean
    /** The custody signer. @default one signing with the player's custody key */
    signer?: CustodySigner
  } = {},
) {
  const { registered = true, signedIn = true } = options
  const player = await backends.player()
  if (registered) await backends.register(player)
  // What the services record from here on is the provider's doing.
  backends.reset()
  const { wallet, custody } = player
  let current: User | null = signedIn ? userOf(player, registered) : null
  const sessionEvents = Emitter.create<{
    loggedIn: (user: User) => void
    loggedOut: () => void
  }>()
  const sessionCalls: string[] = []
  const signatures: Hex[] = []
  const signer: CustodySigner = {
    getAddress: async () => custody.address,
    async signMessage(message) {
      const signature = await custody.signMessage({ message })
      signatures.push(signature)
      return signature
    },
  }
  const { confirmation, calls: popup } = recordingConfirmation({
    api: backends.api.url,
    user: () => current,
    confirm: options.confirm,
  })
  const provider = createProvider({
    config: {
      chainId: backends.chainId,
      zkEvmRpcUrl: backends.node.url,
      relayerUrl: backends.relayer.url,
      indexerMrBasePath: backends.api.url,
      clientId: 'client-1',
      crossSdkBridgeEnabled: false,
      forceScwDeployBeforeMessageSignature: false,
      ...options.config,
    },
    session: {
      async getUser() {
        sessionCalls.push('getUser')
        return current
      },
      async login() {
        sessionCalls.push('login')
        current = options.loginSucceeds === false ? null : userOf(player, false)
        return current
      },
      async forceRefresh() {
        sessionCalls.push('forceRefresh')
        // The refreshed id token carries the wallet once the API registered it.
        const registeredNow =
          options.refreshAddsClaims !== false &&
          backends.registry.get(player.sub)?.passport.zkevmEthAddress === wallet
        current = userOf(player, registeredNow)
        return current
      },
    },
    sessionEvents,
    createSigner: () => options.signer ?? signer,
    confirmation,
    sessionActivity: options.sessionActivity,
    announceProvider: false,
    pollInterval: 1,
  })

  /** The relayer's JSON-RPC calls so far. */
  const relayerCalls = () => backends.relayer.calls()
  return {
    backends,
    provider,
    player,
    wallet,
    custody,
    popup,
    sessionCalls,
    sessionEvents,
    signatures,
    setUser: (next: User | null) => {
      current = next
    },
    /** The relayer's JSON-RPC calls so far. */
    relayerCalls,
    /** What was sent to the relayer, decoded, oldest first. */
    sent(): Sent[] {
      const calls = relayerCalls()
      return calls
        .filter((call) => call.method === 'eth_sendTransaction')
        .map((call) => {
          const [params] = call.params as [{ to: Address; data: Hex }]
          const relayerId = String(
            (jsonOf(call.exchange.response) as { result?: unknown })?.result,
          )
          const hash = calls
            .filter(
              (poll) =>
                poll.method === 'im_getTransactionByHash' &&
                (poll.params as unknown[])[0] === relayerId,
            )
            .map(
              (poll) =>
                (
                  jsonOf(poll.exchange.response) as {
                    result?: { hash?: Hex }
                  }
                )?.result?.hash,
            )
            .find((value) => value !== undefined)
          return {
            ...decodeExecute(params.data),
            to: params.to,
            data: params.data,
            relayerId,
            hash,
          }
        })
    },
    /** The status polls of a relayed transaction so far. */
    polls: (relayerId: string) =>
      relayerCalls().filter(
        (call) =>
          call.method === 'im_getTransactionByHash' &&
          (call.params as unknown[])[0] === relayerId,
      ).length,
    /** The platform API's requests so far: path and JSON body. */
    apiRequests: () =>
      backends.api.requests.map((request) => ({
        path: request.path,
        body: jsonOf(request.body),
        status: request.status,
      })),
    close: () => provider.destroy(),
  }
}

/** A started provider and its player. */
export type Harness = Awaited<ReturnType<typeof setup>>
