/**
 * The emulator's user registry: users keyed by email, phone number or OIDC
 * issuer + subject, each owning a secp256k1 key. Keys never leave this
 * module (custody); it signs on request. New users are funded on the chain.
 *
 * @packageDocumentation
 */
import type {
  Address,
  Hex,
  SignableMessage,
  SignedAuthorization,
  TransactionSerializable,
  TypedDataDefinition,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { BaseError } from '../../core/Errors.js'
import { normalizeContact } from '../contact.js'

/** A user as the services see it (no key material). */
export type User = {
  /** Stable id (the DID token's `sub`). */
  readonly id: string
  /** The user's checksummed address. */
  readonly address: Address
  email: string | undefined
  phoneNumber: string | undefined
  readonly oidc: { issuer: string; subject: string } | undefined
  /** When the user was created (ISO 8601). */
  readonly createdAt: string
  /** Base32 TOTP secret when MFA is on. */
  mfaSecret: string | undefined
  /** SHA-256 hex hashes of the unused MFA recovery codes. */
  recoveryCodeHashes: string[]
  /** The phone number recovery factor. */
  recoveryPhone: string | undefined
  /** Whether new devices must be approved by email. */
  deviceApprovalRequired: boolean
  /** Thumbprints of approved device keys. */
  readonly approvedDevices: Set<string>
  /**
   * The game wallet's registrations, read into the identity provider's
   * `passport` claims when a token is issued. Empty until registered.
   */
  readonly passport: PassportRegistration
}

/**
 * A user's game-wallet registrations: each address is present once that
 * registration happened (zkEVM: the smart-contract wallet and its signer;
 * StarkEx: the L1 address, the Stark key and the signer).
 */
export type PassportRegistration = {
  /** The zkEVM smart-contract wallet (`zkevm_eth_address`). */
  zkevmEthAddress?: Address | undefined
  /** The zkEVM wallet's signer, the custody EOA (`zkevm_user_admin_address`). */
  zkevmUserAdminAddress?: Address | undefined
  /** The StarkEx L1 address (`imx_eth_address`). */
  imxEthAddress?: Address | undefined
  /** The StarkEx Stark key (`imx_stark_address`). */
  imxStarkAddress?: Hex | undefined
  /** The StarkEx signer (`imx_user_admin_address`). */
  imxUserAdminAddress?: Address | undefined
}

/** Who a user is looked up by. */
export type Identity =
  | { email: string }
  | { phoneNumber: string }
  | { oidc: { issuer: string; subject: string } }

/** The registry. */
export type Registry = {
  /** The user of `identity`, if any. */
  find(identity: Identity): User | undefined
  /** The user of `identity`, created (and funded) if new. */
  findOrCreate(identity: Identity): Promise<User>
  /** The user with this id. */
  get(id: string): User | undefined
  /** Every user, newest first. */
  list(): readonly User[]
  /** Changes a user's email (the old address no longer finds them). */
  setEmail(id: string, email: string): void
  /**
   * Records game-wallet registrations: the given fields are set (an
   * `undefined` value removes one), the others kept.
   *
   * @throws If there is no user `id`.
   */
  setPassport(id: string, registration: PassportRegistration): void
  /** Signs with the user's key. */
  signMessage(id: string, message: SignableMessage): Promise<Hex>
  signTypedData(id: string, typedData: TypedDataDefinition): Promise<Hex>
  signTransaction(
    id: string,
    transaction: TransactionSerializable,
  ): Promise<Hex>
  /** Signs an EIP-7702 authorization (delegate `address` on `chainId`). */
  signAuthorization(
    id: string,
    authorization: { address: Address; chainId: number; nonce: number },
  ): Promise<SignedAuthorization>
  /** The user's private key, for the reveal-key screen only. */
  revealKey(id: string): Hex
}

/**
 * How many users the registry holds at most. Any page can embed the iframe
 * wallet's provider and log new test-mode users in without a code, and a
 * user (with their key and wallet) cannot be forgotten the way a code can;
 * so past this many (the `maxUsers` option), new users are refused. Far
 * above what a test run or a developer's day creates.
 */
export const defaultMaxUsers = 10_000

/** What a new user is funded with on Anvil: 100 ETH. */
export const defaultFunding = 100n * 10n ** 18n

/**
 * Creates an in-memory registry.
 *
 * @param options.rpcUrl - Anvil's URL; new users get `funding` wei there
 *   (`anvil_setBalance`). No funding without it.
 * @param options.funding - Wei per new user. @default 100 ETH
 * @param options.now - The clock. @default () => new Date()
 * @param options.onChange - Called after a user is created or changed.
 */
export function createRegistry(options: createRegistry.Options = {}): Registry {
  const {
    rpcUrl,
    funding = defaultFunding,
    maxUsers = defaultMaxUsers,
    now = () => new Date(),
    onChange,
  } = options
  const users = new Map<string, User>()
  const keys = new Map<string, Hex>()
  const index = new Map<string, string>()

  const keyOf = (identity: Identity) => {
    if ('email' in identity) return `email:${normalizeContact(identity.email)}`
    if ('phoneNumber' in identity)
      return `phone:${normalizeContact(identity.phoneNumber)}`
    return `oidc:${identity.oidc.issuer}\n${identity.oidc.subject}`
  }
  const account = (id: string) => {
    const key = keys.get(id)
    if (!key) throw new Error(`Unknown user ${id}.`)
    return privateKeyToAccount(key)
  }

  const registry: Registry = {
    find(identity) {
      const id = index.get(keyOf(identity))
      return id === undefined ? undefined : users.get(id)
    },
    async findOrCreate(identity) {
      const found = registry.find(identity)
      if (found) return found
      if (users.size >= maxUsers) throw new RegistryFullError(maxUsers)
      const privateKey = generatePrivateKey()
      const user: User = {
        id: Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString(
          'base64url',
        ),
        address: privateKeyToAccount(privateKey).address,
        email:
          'email' in identity ? normalizeContact(identity.email) : undefined,
        phoneNumber:
          'phoneNumber' in identity
            ? normalizeContact(identity.phoneNumber)
            : undefined,
        oidc: 'oidc' in identity ? identity.oidc : undefined,
        createdAt: now().toISOString(),
        mfaSecret: undefined,
        recoveryCodeHashes: [],
        recoveryPhone: undefined,
        deviceApprovalRequired: false,
        approvedDevices: new Set(),
        passport: {},
      }
      if (rpcUrl !== undefined) await fund(rpcUrl, user.address, funding)
      // Another request may have created the user meanwhile.
      const raced = registry.find(identity)
      if (raced) return raced
      users.set(user.id, user)
      keys.set(user.id, privateKey)
      index.set(keyOf(identity), user.id)
      onChange?.()
      return user
    },
    get: (id) => users.get(id),
    list: () => [...users.values()].reverse(),
    setEmail(id, email) {
      const user = users.get(id)
      if (!user) return
      if (user.email !== undefined) index.delete(keyOf({ email: user.email }))
      user.email = normalizeContact(email)
      index.set(keyOf({ email }), id)
      onChange?.()
    },
    setPassport(id, registration) {
      const user = users.get(id)
      if (!user) throw new Error(`Unknown user ${id}.`)
      Object.assign(user.passport, registration)
      for (const field of Object.keys(
        user.passport,
      ) as (keyof PassportRegistration)[])
        if (user.passport[field] === undefined) delete user.passport[field]
      onChange?.()
    },
    signMessage: (id, message) => account(id).signMessage({ message }),
    signTypedData: (id, typedData) => account(id).signTypedData(typedData),
    signTransaction: (id, transaction) =>
      account(id).signTransaction(transaction),
    signAuthorization: (id, authorization) =>
      account(id).signAuthorization(authorization),
    revealKey(id) {
      const key = keys.get(id)
      if (!key) throw new Error(`Unknown user ${id}.`)
      return key
    },
  }
  return registry
}

export declare namespace createRegistry {
  type Options = {
    /** Anvil's URL; new users are funded there. */
    rpcUrl?: string | undefined
    /** Wei per new user. @default 100 ETH */
    funding?: bigint | undefined
    /** The most users it holds. @default 10_000 */
    maxUsers?: number | undefined
    /** The clock. @default () => new Date() */
    now?: (() => Date) | undefined
    /** Called after a user is created or changed. */
    onChange?: (() => void) | undefined
  }
}

/**
 * Sets `address`'s balance to `wei` through the chain's JSON-RPC gateway
 * (`anvil_setBalance`, which the gateway answers for loopback callers).
 */
export async function fund(
  rpcUrl: string,
  address: Address,
  wei: bigint,
): Promise<void> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'anvil_setBalance',
      params: [address, `0x${wei.toString(16)}`],
    }),
  })
  const body = (await response.json()) as { error?: { message: string } }
  if (body.error)
    throw new Error(`Cannot fund ${address}: ${body.error.message}`)
}

/** Thrown when a new user would exceed the registry's `maxUsers`. */
export class RegistryFullError extends BaseError {
  override readonly name = 'Registry.FullError'
  constructor(maxUsers: number) {
    super(
      `The emulator holds ${maxUsers} users already; restart it to start afresh.`,
    )
  }
}
