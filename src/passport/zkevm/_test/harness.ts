/**
 * A provider wired to the fake backends, a real custody key (a viem local
 * account), a scripted session and a recording confirmation handle.
 */
import type { Address, Hex } from 'viem'
import {
  generatePrivateKey,
  type PrivateKeyAccount,
  privateKeyToAccount,
} from 'viem/accounts'
import * as Emitter from '../../../core/Emitter.js'
import type { User } from '../../auth/user.js'
import type { ProviderConfig } from '../context.js'
import type { CustodySigner } from '../custodySigner.js'
import { createProvider } from '../provider.js'
import type { Confirmation, SessionActivity } from '../seams.js'
import { startApi, startNode, startRelayer } from './backend.js'

export const chainId = 13473
export const accessToken = 'access-token-1'

/** A user; with `wallet`, registered on zkEVM. */
export function user(
  options: { wallet?: Address; admin?: Address } = {},
): User {
  return {
    accessToken,
    idToken: 'id-token-1',
    profile: { sub: 'player-1' },
    ...(options.wallet && options.admin
      ? {
          zkEvm: {
            ethAddress: options.wallet,
            userAdminAddress: options.admin,
          },
        }
      : {}),
  }
}

/** Records what the router asked of the popup; answers as scripted. */
export function recordingConfirmation(
  answer: { confirm?: boolean | undefined } = {},
) {
  const calls: string[] = []
  const confirmation: Confirmation = {
    open() {
      calls.push('open')
      return {
        async transaction(p) {
          calls.push(`transaction:${p.transactionId}:${p.wallet}:${p.chainId}`)
          return answer.confirm ?? true
        },
        async message(p) {
          calls.push(`message:${p.messageId}:${p.wallet}:${p.messageType}`)
          return answer.confirm ?? true
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

/** Starts the backends and a provider. */
export async function setup(
  options: {
    registered?: boolean
    signedIn?: boolean
    /** Configuration overrides; a function gets the relayer's co-signer. */
    config?:
      | Partial<ProviderConfig>
      | ((parties: { coSigner: Address }) => Partial<ProviderConfig>)
    confirm?: boolean
    sessionActivity?: SessionActivity
    /** Whether the forced refresh after registration carries the wallet. @default true */
    refreshAddsClaims?: boolean
    /** Whether the login prompt signs a player in. @default true */
    loginSucceeds?: boolean
    /** A real chain instead of the fake node (its id must be `chain.id`). */
    chain?: { rpcUrl: string; id: number }
    /** The custody key. @default a random one */
    custody?: PrivateKeyAccount
    /** The custody signer. @default one signing with `custody` */
    signer?: CustodySigner
    /** The wallet's address, from the custody key and the relayer's co-signer. @default a random one */
    wallet?: (coSigner: Address, custody: Address) => Address
  } = {},
) {
  const { registered = true, signedIn = true } = options
  const id = options.chain?.id ?? chainId
  const custody = options.custody ?? privateKeyToAccount(generatePrivateKey())
  const [node, relayer] = await Promise.all([
    startNode({ chainId: id }),
    startRelayer({ chainId: id, accessToken }),
  ])
  const wallet =
    options.wallet?.(relayer.coSigner.address, custody.address) ??
    privateKeyToAccount(generatePrivateKey()).address
  const api = await startApi({
    chainId: id,
    accessToken,
    counterfactualAddress: wallet,
  })
  let current: User | null = signedIn
    ? user(registered ? { wallet, admin: custody.address } : {})
    : null
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
    confirm: options.confirm,
  })
  const provider = createProvider({
    config: {
      chainId: id,
      zkEvmRpcUrl: options.chain?.rpcUrl ?? node.url,
      relayerUrl: relayer.url,
      indexerMrBasePath: api.url,
      clientId: 'client-1',
      crossSdkBridgeEnabled: false,
      forceScwDeployBeforeMessageSignature: false,
      ...(typeof options.config === 'function'
        ? options.config({ coSigner: relayer.coSigner.address })
        : options.config),
    },
    session: {
      async getUser() {
        sessionCalls.push('getUser')
        return current
      },
      async login() {
        sessionCalls.push('login')
        current = options.loginSucceeds === false ? null : user()
        return current
      },
      async forceRefresh() {
        sessionCalls.push('forceRefresh')
        // The refreshed id token carries the wallet once the API registered it.
        const registeredNow =
          options.refreshAddsClaims !== false &&
          api.requests.some((r) =>
            r.path.endsWith('/passport/counterfactual-address'),
          )
        current = user(registeredNow ? { wallet, admin: custody.address } : {})
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
  return {
    provider,
    node,
    relayer,
    api,
    custody,
    wallet,
    popup,
    sessionCalls,
    sessionEvents,
    signatures,
    setUser: (next: User | null) => {
      current = next
    },
    async close() {
      provider.destroy()
      await Promise.all([node.close(), relayer.close(), api.close()])
    },
  }
}
