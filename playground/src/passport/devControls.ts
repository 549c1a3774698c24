/**
 * The emulator's control routes the game wallet's panel steers (README,
 * "The emulator"): the guardian's rules and the session-activity rules on
 * the platform API, the relayer's outcome of the next send, and Anvil's
 * balance of the wallet. They answer loopback pages only, which the
 * playground is; a hosted backend has none of them.
 */
import type {
  GuardianRulesBody,
  SessionActivityCheck,
  SessionActivityRule,
} from 'embedded-wallets/emulator'
import { type Address, createTestClient, http, publicActions } from 'viem'

/** The guardian's rules (`GET|PUT {apiUrl}/dev/guardian/rules`). */
export type GuardianRules = GuardianRulesBody

/** What the relayer makes of the next send (`POST {relayerUrl}/dev/next`). */
export type RelayerOutcome = 'fail' | 'revert' | 'cancel'

export type { SessionActivityCheck, SessionActivityRule }

/** What `GET {apiUrl}/dev/session-activity?clientId=` answers. */
export type SessionActivityState = {
  rules: Record<string, SessionActivityRule>
  checks: SessionActivityCheck[]
}

/** A control route refused the request; the message is the emulator's. */
export class ControlRouteError extends Error {
  override name = 'ControlRouteError'
}

/** Sends `body` as JSON (control writes must be JSON) and reads the answer. */
async function call<result>(
  url: string,
  method: 'GET' | 'PUT' | 'POST',
  body?: unknown,
): Promise<result> {
  const response = await fetch(url, {
    method,
    ...(body === undefined
      ? {}
      : {
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
  })
  const text = await response.text()
  let answer: unknown
  try {
    answer = text ? JSON.parse(text) : null
  } catch {
    answer = text
  }
  if (!response.ok) {
    const { error, message } = (answer ?? {}) as {
      error?: unknown
      message?: unknown
    }
    const reason =
      typeof message === 'string'
        ? message
        : typeof error === 'string'
          ? error
          : `HTTP ${response.status}`
    throw new ControlRouteError(`${method} ${new URL(url).pathname}: ${reason}`)
  }
  return answer as result
}

const join = (base: string, path: string) => base.replace(/\/+$/, '') + path

/** The guardian's rules now in force. */
export function getGuardianRules(apiUrl: string): Promise<GuardianRules> {
  return call(join(apiUrl, '/dev/guardian/rules'), 'GET')
}

/** Replaces every guardian rule; answers the rules in force. */
export function putGuardianRules(
  apiUrl: string,
  rules: GuardianRules,
): Promise<GuardianRules> {
  return call(join(apiUrl, '/dev/guardian/rules'), 'PUT', rules)
}

/** Makes the relayer's next send end as `outcome`. */
export async function relayerNext(
  relayerUrl: string,
  outcome: RelayerOutcome,
): Promise<void> {
  await call(join(relayerUrl, '/dev/next'), 'POST', { outcome, count: 1 })
}

/** Back to the relayer's defaults: no fee, no planned outcome. */
export async function relayerReset(relayerUrl: string): Promise<void> {
  await call(join(relayerUrl, '/dev/reset'), 'POST', {})
}

/** Sets (or with `null` removes) the session-activity rule of a client. */
export async function putSessionActivity(
  apiUrl: string,
  clientId: string,
  rule: SessionActivityRule | null,
): Promise<void> {
  await call(join(apiUrl, '/dev/session-activity'), 'PUT', { clientId, rule })
}

/** The client's session-activity rule and the checks received for it. */
export function getSessionActivity(
  apiUrl: string,
  clientId: string,
): Promise<SessionActivityState> {
  const query = new URLSearchParams({ clientId })
  return call(join(apiUrl, `/dev/session-activity?${query}`), 'GET')
}

/**
 * Adds `wei` to an address's balance on Anvil (`anvil_setBalance` through
 * the chain's gateway, which lets loopback pages use Anvil's own methods).
 * The game wallet is a contract: the emulator funds the player's custody
 * key, not the wallet, which needs ETH of its own to send value.
 */
export async function addBalance(
  rpcUrl: string,
  address: Address,
  wei: bigint,
): Promise<void> {
  const client = createTestClient({
    mode: 'anvil',
    transport: http(rpcUrl),
  }).extend(publicActions)
  const balance = await client.getBalance({ address })
  await client.setBalance({ address, value: balance + wei })
}
