/**
 * The emulator's observation hub: where the services show what they hold
 * (users, sessions, verdicts, relayed transactions, …) to the dev service's
 * UI, without the dev service importing any of them. One hub per emulator,
 * handed to every service in its context, like the registry.
 *
 * A service registers a named {@link Source}: a snapshot of its state (JSON,
 * bounded, no secrets), and the actions the UI may take on it (end a
 * session, settle a verdict). When its state changes it calls
 * {@link Hub.changed}; the dev service listens ({@link Hub.subscribe}) and
 * pushes the new snapshot to the open pages, so nothing polls.
 *
 * @packageDocumentation
 */
import { BaseError } from '../core/Errors.js'

/**
 * The names sources are registered under: the UI's panels read them, and
 * each service registers its own.
 */
export const sources = {
  /** The registry's users (and their wallets). */
  users: 'users',
  /** The dev mailbox. */
  mailbox: 'mailbox',
  /** The guardian's verdicts; action `settle`. */
  verdicts: 'verdicts',
  /** The iframe wallet provider's sessions; action `end`. */
  magicSessions: 'magic.sessions',
  /** The game wallet identity provider's sessions; action `end`. */
  passportSessions: 'passport.sessions',
  /** The relayer's transactions, queued and done. */
  relayer: 'relayer',
  /** The platform API's session-activity rules and checks. */
  activity: 'activity',
  /** The external wallets players linked, by player id. */
  links: 'links',
  /** The main chain's latest blocks (the dev service's own). */
  chain: 'chain',
  /**
   * The scenario switches (their list): announced on change, when the UI
   * reads them from `GET /scenarios` again.
   */
  scenarios: 'scenarios',
} as const

/** What a service shows the UI under one name. */
export type Source = {
  /** Its state now, as JSON: bounded, and without tokens or keys. */
  snapshot(): unknown
  /**
   * What the UI may do to it, by name. An action gets the page's input
   * (untrusted JSON) and returns its answer (JSON), or throws an
   * {@link ActionError} saying why it refused.
   */
  readonly actions?: { readonly [name: string]: Action } | undefined
}

/** One action of a {@link Source}. */
export type Action = (input: unknown) => unknown

/** The observation hub. */
export type Hub = {
  /**
   * Registers `source` under `name` (e.g. `'relayer'`), replacing one of
   * the same name, and tells the listeners it changed.
   *
   * @returns A function that removes it again.
   */
  register(name: string, source: Source): () => void
  /** Tells the listeners that the source `name` changed. */
  changed(name: string): void
  /**
   * Listens to changes: `listener` gets the name of each source that
   * changed (or was registered or removed).
   *
   * @returns A function that stops listening.
   */
  subscribe(listener: (name: string) => void): () => void
  /** The names of the sources registered now. */
  names(): readonly string[]
  /** The snapshot of source `name`, `undefined` when there is none. */
  snapshot(name: string): unknown
  /**
   * Runs the action `action` of source `name` on `input`.
   *
   * @throws {ActionError} If there is no such source or action, or the
   *   action refused.
   */
  act(name: string, action: string, input: unknown): Promise<unknown>
}

/**
 * Creates an empty hub.
 *
 * @example
 * ```ts
 * const hub = Inspect.create()
 * hub.register('mailbox', { snapshot: () => mailbox.list() })
 * hub.subscribe((name) => console.log(name, hub.snapshot(name)))
 * mailbox.deliver({ to: 'ada@example.com', kind: 'email-otp', code: '123456' })
 * hub.changed('mailbox')
 * ```
 */
export function create(): Hub {
  const sources = new Map<string, Source>()
  const listeners = new Set<(name: string) => void>()
  const changed = (name: string) => {
    for (const listener of [...listeners])
      try {
        listener(name)
      } catch {
        // A listener's failure (a page gone mid-write) must not reach the
        // service whose change it was told of.
      }
  }
  return {
    register(name, source) {
      sources.set(name, source)
      changed(name)
      return () => {
        if (sources.get(name) !== source) return
        sources.delete(name)
        changed(name)
      }
    },
    changed,
    subscribe(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
    names: () => [...sources.keys()],
    snapshot: (name) => sources.get(name)?.snapshot(),
    async act(name, action, input) {
      const source = sources.get(name)
      const run =
        source?.actions && Object.hasOwn(source.actions, action)
          ? source.actions[action]
          : undefined
      if (!run)
        throw new ActionError(`There is no action ${action} on ${name}.`, 404)
      return await run(input)
    },
  }
}

/**
 * Thrown by an action that refuses its input; `status` is the HTTP status
 * the dev service answers with (400 bad input, 404 nothing of that id, 409
 * already done).
 */
export class ActionError extends BaseError<undefined> {
  override readonly name = 'Inspect.ActionError'
  readonly status: 400 | 404 | 409
  constructor(message: string, status: 400 | 404 | 409 = 400) {
    super(message)
    this.status = status
  }
}

/** The most rows a snapshot lists of anything that grows (newest first). */
export const maxRows = 200

/**
 * The string field `name` of an action's input, or an {@link ActionError}
 * (400) naming it.
 */
export function stringField(input: unknown, name: string): string {
  const value =
    typeof input === 'object' && input !== null
      ? (input as Record<string, unknown>)[name]
      : undefined
  if (typeof value !== 'string' || value === '' || value.length > 200)
    throw new ActionError(`${name} must be a string of 1 to 200 characters.`)
  return value
}
