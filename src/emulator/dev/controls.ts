/**
 * The dev service's control routes for scenarios and time travel. They
 * steer every service, so only loopback pages and local programs may use
 * them (the server's `localOnly` rule over {@link controlPaths}), and a
 * write must be a JSON request.
 *
 * - `GET /scenarios` → `[{ name, on, title, effect }]`
 * - `PUT /scenarios/:name` `{ "on": boolean }` → that entry; 404 `{ error }`
 *   for an unknown name, 400 for another body
 * - `POST /scenarios/reset` → the list, every scenario off
 * - `GET /clock` → `{ now, offsetMs }` (`now` in ISO 8601)
 * - `POST /clock/advance` `{ "seconds": number }` → `{ now, offsetMs }`:
 *   moves the services' clock and every chain's time (`evm_increaseTime`,
 *   then a block mined at the new time), so blocks and tokens agree; 400
 *   for another body, 502 when a chain refuses (the services' clock is then
 *   not moved)
 *
 * @packageDocumentation
 */
import type { Hono, Context as HonoContext } from 'hono'
import { type Clock, maxOffsetMs } from '../clock.js'
import * as Scenarios from '../scenarios.js'
import type { Chain } from '../service.js'

/** The path prefixes of these routes, for the server's `localOnly` rule. */
export const controlPaths = ['/scenarios', '/clock'] as const

/**
 * How long a chain has to answer a time-travel call: 10 s (Anvil answers
 * in milliseconds; a node that does not is reported, not waited for).
 */
export const chainTimeoutMs = 10_000

/** The largest `seconds` one advance takes: the clock's whole range. */
export const maxAdvanceSeconds = maxOffsetMs / 1000

/**
 * Mounts the scenario and clock routes on the dev service's app.
 *
 * @example
 * ```ts
 * controlRoutes(app, {
 *   scenarios: Scenarios.create(),
 *   clock: Clock.create(),
 *   chains: [{ chainId: 31337, nodeUrl: 'http://127.0.0.1:8546' }],
 * })
 * ```
 */
export function controlRoutes(app: Hono, options: controlRoutes.Options): void {
  const { scenarios, clock, chains } = options
  const time = () => ({
    now: clock.now().toISOString(),
    offsetMs: clock.offsetMs,
  })

  app.get('/scenarios', (c) => c.json(scenarios.list()))

  // Before `/scenarios/:name`, which would take `reset` as a name.
  app.post('/scenarios/reset', (c) => c.json(scenarios.reset()))

  app.put('/scenarios/:name', async (c) => {
    const name = c.req.param('name')
    if (!Scenarios.isName(name))
      return c.json(
        { error: new Scenarios.UnknownScenarioError(name).shortMessage },
        404,
      )
    const body = await readJson(c)
    if (!isRecord(body) || typeof body.on !== 'boolean')
      return c.json(
        { error: 'Expected { "on": true } or { "on": false }.' },
        400,
      )
    return c.json(scenarios.set(name, body.on))
  })

  app.get('/clock', (c) => c.json(time()))

  app.post('/clock/advance', async (c) => {
    const body = await readJson(c)
    const seconds = isRecord(body) ? body.seconds : undefined
    if (
      typeof seconds !== 'number' ||
      !Number.isSafeInteger(seconds) ||
      seconds < 0
    )
      return c.json(
        {
          error:
            'Expected { "seconds": n } with n a whole number of seconds from 0 (the clock only moves forward).',
        },
        400,
      )
    const ms = seconds * 1000
    if (clock.offsetMs + ms > maxOffsetMs)
      return c.json(
        {
          error: `The clock may be at most ${maxAdvanceSeconds} seconds ahead; it is ${clock.offsetMs / 1000} seconds ahead now.`,
        },
        400,
      )
    if (seconds > 0) {
      // The chains first: if one refuses, the services' clock stays.
      for (const chain of chains) {
        const refused = await moveChain(chain, seconds)
        if (refused !== undefined)
          return c.json(
            {
              error: `Chain ${chain.chainId} did not move its time: ${refused}`,
            },
            502,
          )
      }
      clock.advance(ms)
    }
    return c.json(time())
  })
}

export declare namespace controlRoutes {
  type Options = {
    /** The scenario switches. */
    scenarios: Scenarios.Store
    /** The services' clock. */
    clock: Clock
    /** The chains whose time moves with the clock (their node's own URL). */
    chains: readonly Pick<Chain, 'chainId' | 'nodeUrl'>[]
  }
}

/**
 * Moves a chain's time by `seconds` and mines a block at the new time.
 *
 * @returns Why the node refused, or `undefined` once it moved.
 */
async function moveChain(
  chain: Pick<Chain, 'nodeUrl'>,
  seconds: number,
): Promise<string | undefined> {
  for (const [method, params] of [
    ['evm_increaseTime', [`0x${seconds.toString(16)}`]],
    ['evm_mine', []],
  ] as const) {
    try {
      const response = await fetch(chain.nodeUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        signal: AbortSignal.timeout(chainTimeoutMs),
      })
      const answer = (await response.json().catch(() => undefined)) as
        | { error?: { message?: unknown } }
        | undefined
      if (!response.ok || answer === undefined || answer.error !== undefined)
        return `${method} answered ${response.status}${
          typeof answer?.error?.message === 'string'
            ? ` (${answer.error.message.slice(0, 200)})`
            : ''
        }.`
    } catch (error) {
      return `${method} got no answer (${error instanceof Error ? error.message : String(error)}).`
    }
  }
  return undefined
}

/** The request's JSON body, or `undefined` when it is not JSON. */
async function readJson(c: HonoContext): Promise<unknown> {
  try {
    return await c.req.json()
  } catch {
    return undefined
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
