/**
 * What the emulator's UI shows of the state the services share: the users
 * (with their wallets), the mailbox and the guardian's verdicts. The
 * services' own state (sessions, relayed transactions, session-activity
 * checks, linked wallets) is registered by each service.
 *
 * @packageDocumentation
 */
import type * as Mailbox from './dev/mailbox.js'
import type { Guardian, Verdict } from './guardian.js'
import {
  ActionError,
  type Hub,
  maxRows,
  sources as names,
  stringField,
} from './inspect.js'
import type { Registry, User } from './registry/index.js'

/** A user as the UI lists it: who, and their wallets; no key material. */
export type UserRow = {
  readonly id: string
  readonly email: string | undefined
  readonly phoneNumber: string | undefined
  /** The OIDC issuer of a user keyed by one (the game wallet's custody keys). */
  readonly issuer: string | undefined
  /**
   * For a custody key: the email of the user its OIDC subject names (the
   * game wallet's player whose key it is), when the registry has them.
   */
  readonly keyOf: string | undefined
  /** The user's own key's address (the iframe wallet's account). */
  readonly address: string
  readonly createdAt: string
  readonly mfa: boolean
  /** The game wallet's registrations. */
  readonly passport: User['passport']
}

/**
 * A verdict as the UI lists it (without what was evaluated: a payload may
 * be large, and the confirmation page shows it).
 */
export type VerdictRow = Pick<
  Verdict,
  'id' | 'kind' | 'chainId' | 'wallet' | 'digest' | 'state'
>

/**
 * Registers the users, the mailbox and the verdicts with `hub`. The stores
 * must call `hub.changed(name)` on change (see `startEmulator`).
 *
 * The verdicts' action `settle` `{ id, decision: 'approve' | 'reject' }`
 * settles a verdict waiting for the player, as the confirmation page's own
 * flow does, through the guardian's `settle`; the dev service lets only its
 * own page call it.
 */
export function registerShared(
  hub: Hub,
  state: { registry: Registry; mailbox: Mailbox.Store; guardian: Guardian },
): void {
  const { registry, mailbox, guardian } = state
  hub.register(names.users, {
    snapshot: () =>
      registry
        .list()
        .slice(0, maxRows)
        .map((user) => userRow(user, registry)),
  })
  hub.register(names.mailbox, {
    snapshot: () => mailbox.list().slice(0, maxRows),
  })
  hub.register(names.verdicts, {
    snapshot: () =>
      guardian.recent(maxRows).map(
        ({ id, kind, chainId, wallet, digest, state }): VerdictRow => ({
          id,
          kind,
          chainId,
          wallet,
          digest,
          state,
        }),
      ),
    actions: {
      settle(input) {
        const id = stringField(input, 'id')
        const decision = stringField(input, 'decision')
        if (decision !== 'approve' && decision !== 'reject')
          throw new ActionError('decision must be "approve" or "reject".')
        const verdict = guardian.get(id)
        if (!verdict) throw new ActionError('No such verdict.', 404)
        if (
          !guardian.settle(id, decision === 'approve' ? 'allowed' : 'rejected')
        )
          throw new ActionError(`The verdict is already ${verdict.state}.`, 409)
        return { id, state: verdict.state }
      },
    },
  })
}

function userRow(user: User, registry: Registry): UserRow {
  return {
    id: user.id,
    email: user.email,
    phoneNumber: user.phoneNumber,
    issuer: user.oidc?.issuer,
    keyOf:
      user.oidc === undefined
        ? undefined
        : registry.get(user.oidc.subject)?.email,
    address: user.address,
    createdAt: user.createdAt,
    mfa: user.mfaSecret !== undefined,
    passport: { ...user.passport },
  }
}
