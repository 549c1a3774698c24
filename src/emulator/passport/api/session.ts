/**
 * Session activity: what background transaction a game wants its players'
 * wallets to send, and how often the wallet should ask again.
 *
 * - `GET /v1/sdk/session-activity/check?clientId&wallet&checkCount&sendCount`
 *   (no credential, as the published SDK sends it): 404 when no rule is set
 *   for the client id, else `{ contractAddress?, functionName?, delay }`
 *   from the client's rule and the two counts. Every check is recorded.
 * - `PUT /dev/session-activity` `{ clientId, rule }` (loopback only): sets
 *   (or with `rule: null` removes) a client's {@link Rule}.
 * - `GET /dev/session-activity[?clientId]` (loopback only): `{ rules,
 *   checks }`, the rules by client id and the checks received, oldest first.
 *
 * @packageDocumentation
 */
import type { Hono } from 'hono'
import type { Address } from 'viem'
import {
  paths,
  type SessionActivityResponse,
  sessionActivityParams,
} from '../../../passport/wire/api.js'
import {
  type ApiEnv,
  addressOf,
  type Deps,
  fail,
  isRecord,
  readJson,
} from './http.js'

/** The control route of the rules and the recorded checks. */
export const sessionActivityControlPath = '/dev/session-activity'

/** The most rules (client ids) kept; more are refused. */
export const maxSessionActivityRules = 1_000

/** The most checks kept; the oldest are forgotten past it. */
export const maxSessionActivityChecks = 1_000

/** The longest client id or function name. */
export const maxNameLength = 256

/** The longest `delay`: one day, in seconds. */
export const maxDelay = 86_400

/**
 * What a client's checks are answered. The wallet sends a call of
 * `functionName()` on `contractAddress` while it has sent fewer than
 * `untilSendCount` today, and checks again after `delay` seconds while it
 * has checked fewer than `untilCheckCount` times since its last send (the
 * wallet resets `checkCount` when it sends); past either count that part
 * of the answer is left out (`delay: 0` stops the wallet's loop).
 */
export type Rule = {
  contractAddress?: Address | undefined
  functionName?: string | undefined
  /** Seconds. @default 0 */
  delay?: number | undefined
  untilCheckCount?: number | undefined
  untilSendCount?: number | undefined
}

/** One check received. */
export type Check = {
  clientId: string
  wallet: Address
  checkCount: number
  sendCount: number
  /** When it arrived (ISO 8601). */
  at: string
}

/** The rules and the recorded checks. */
export type SessionActivityStore = {
  readonly rules: Map<string, Rule>
  readonly checks: Check[]
  /** Called after a check is recorded or a rule set or removed. */
  readonly onChange?: (() => void) | undefined
}

/**
 * Creates an empty store.
 *
 * @param options.onChange - Called after a check is recorded or a rule set or removed.
 */
export function createSessionActivityStore(
  options: { onChange?: (() => void) | undefined } = {},
): SessionActivityStore {
  return { rules: new Map(), checks: [], onChange: options.onChange }
}

/**
 * The answer to a check under `rule`.
 *
 * @example
 * ```ts
 * answerOf({ contractAddress, functionName: 'ping', delay: 5, untilSendCount: 1 }, { checkCount: 0, sendCount: 1 })
 * // { delay: 5 }
 * ```
 */
export function answerOf(
  rule: Rule,
  counts: { checkCount: number; sendCount: number },
): SessionActivityResponse {
  const { contractAddress, functionName, delay = 0 } = rule
  const sends =
    contractAddress !== undefined &&
    functionName !== undefined &&
    (rule.untilSendCount === undefined ||
      counts.sendCount < rule.untilSendCount)
  const again =
    rule.untilCheckCount === undefined ||
    counts.checkCount < rule.untilCheckCount
  return {
    ...(sends ? { contractAddress, functionName } : {}),
    delay: again ? delay : 0,
  }
}

/** Adds the session-activity routes to `app`. */
export function sessionRoutes(app: Hono<ApiEnv>, deps: Deps): void {
  const store = deps.sessionActivity

  app.get(paths.sessionActivityCheck, (c) => {
    const query = {
      clientId: c.req.query(sessionActivityParams.clientId),
      wallet: addressOf(c.req.query(sessionActivityParams.wallet)),
      checkCount: countOf(c.req.query(sessionActivityParams.checkCount)),
      sendCount: countOf(c.req.query(sessionActivityParams.sendCount)),
    }
    if (
      !isName(query.clientId) ||
      !query.wallet ||
      query.checkCount === undefined ||
      query.sendCount === undefined
    )
      return fail(
        c,
        'validation',
        'Expected the query clientId, wallet (an address), checkCount and sendCount (counts).',
      )
    const check: Check = {
      clientId: query.clientId,
      wallet: query.wallet,
      checkCount: query.checkCount,
      sendCount: query.sendCount,
      at: deps.now().toISOString(),
    }
    store.checks.push(check)
    if (store.checks.length > maxSessionActivityChecks) store.checks.shift()
    store.onChange?.()
    const rule = store.rules.get(check.clientId)
    if (!rule)
      return fail(
        c,
        'notFound',
        `No session activity is wanted for client ${check.clientId}.`,
      )
    return c.json(answerOf(rule, check))
  })

  app.get(sessionActivityControlPath, (c) => {
    const clientId = c.req.query('clientId')
    const rules = Object.fromEntries(
      [...store.rules].filter(
        ([id]) => clientId === undefined || id === clientId,
      ),
    )
    const checks = store.checks.filter(
      (check) => clientId === undefined || check.clientId === clientId,
    )
    return c.json({ rules, checks })
  })

  app.put(sessionActivityControlPath, async (c) => {
    const body = await readJson(c)
    if (!isRecord(body) || !isName(body.clientId))
      return fail(
        c,
        'validation',
        `Expected { clientId, rule } (clientId: 1 to ${maxNameLength} characters; rule: an object or null).`,
      )
    const { clientId } = body
    if (body.rule === null) {
      store.rules.delete(clientId)
      store.onChange?.()
      return c.json({ clientId, rule: null })
    }
    const rule = ruleOf(body.rule)
    if (typeof rule === 'string') return fail(c, 'validation', rule)
    if (
      !store.rules.has(clientId) &&
      store.rules.size >= maxSessionActivityRules
    )
      return fail(
        c,
        'conflict',
        `The emulator holds ${maxSessionActivityRules} session-activity rules, its most; remove one first.`,
      )
    store.rules.set(clientId, rule)
    store.onChange?.()
    return c.json({ clientId, rule })
  })
}

function isName(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= maxNameLength
  )
}

/** A count in a query (a decimal integer up to 10^9). */
function countOf(value: string | undefined): number | undefined {
  return value !== undefined && /^(0|[1-9][0-9]{0,8})$/.test(value)
    ? Number(value)
    : undefined
}

const ruleFields = [
  'contractAddress',
  'functionName',
  'delay',
  'untilCheckCount',
  'untilSendCount',
]

/** A rule from a control body, or why it is refused. */
function ruleOf(value: unknown): Rule | string {
  if (!isRecord(value)) return 'rule must be an object or null.'
  const unknown = Object.keys(value).filter((key) => !ruleFields.includes(key))
  if (unknown.length > 0)
    return `Unknown rule fields: ${unknown.slice(0, 10).join(', ')}. Known: ${ruleFields.join(', ')}.`
  const rule: Rule = {}
  if (value.contractAddress !== undefined) {
    const address = addressOf(value.contractAddress)
    if (!address) return 'contractAddress must be an address.'
    rule.contractAddress = address
  }
  if (value.functionName !== undefined) {
    if (!isName(value.functionName))
      return `functionName must be a string of 1 to ${maxNameLength} characters.`
    rule.functionName = value.functionName
  }
  if (
    (rule.contractAddress === undefined) !==
    (rule.functionName === undefined)
  )
    return 'contractAddress and functionName go together.'
  if (value.delay !== undefined) {
    const { delay } = value
    if (
      typeof delay !== 'number' ||
      !Number.isFinite(delay) ||
      delay < 0 ||
      delay > maxDelay
    )
      return `delay must be a number of seconds from 0 to ${maxDelay}.`
    rule.delay = delay
  }
  for (const field of ['untilCheckCount', 'untilSendCount'] as const) {
    const count = value[field]
    if (count === undefined) continue
    if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0)
      return `${field} must be a non-negative integer.`
    rule[field] = count
  }
  return rule
}
