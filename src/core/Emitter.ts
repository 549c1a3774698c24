/** Event names mapped to their listener signatures. */
export type EventMap = Record<string, (...args: never) => void>

/** A typed event emitter. `on`, `once`, `off` and `removeAllListeners` chain. */
export type Emitter<events extends EventMap> = {
  /** Adds a listener. */
  on<event extends keyof events>(
    event: event,
    listener: events[event],
  ): Emitter<events>
  /** Adds a listener that is removed before its first call. */
  once<event extends keyof events>(
    event: event,
    listener: events[event],
  ): Emitter<events>
  /** Removes every registration of a listener added with `on` or `once`. */
  off<event extends keyof events>(
    event: event,
    listener: events[event],
  ): Emitter<events>
  /**
   * Calls the event's listeners in the order they were added, with `args`.
   * Returns whether there were any.
   */
  emit<event extends keyof events>(
    event: event,
    ...args: Parameters<events[event]>
  ): boolean
  /** Number of listeners of `event`, or of all events. */
  listenerCount(event?: keyof events | undefined): number
  /** The listeners of `event`, in call order. */
  listeners<event extends keyof events>(event: event): events[event][]
  /** The events that have listeners. */
  eventNames(): (keyof events)[]
  /** Removes the listeners of `event`, or all listeners. */
  removeAllListeners(event?: keyof events | undefined): Emitter<events>
}

type Entry = { listener: unknown; once: boolean }

/**
 * Creates a typed event emitter.
 *
 * A listener that throws does not stop the others. Its error goes to
 * `options.onError` when given; otherwise it is rethrown from a microtask
 * (`queueMicrotask`), so it is reported like an error thrown by a DOM event
 * listener (`window.onerror` in a browser, `uncaughtException` in Node).
 *
 * @example
 * ```ts
 * import { Emitter } from 'embedded-wallets/core'
 *
 * const emitter = Emitter.create<{ message: (text: string) => void }>()
 * emitter.on('message', (text) => console.info(text))
 * emitter.emit('message', 'hello')
 * ```
 */
export function create<events extends EventMap>(
  options: create.Options<events> = {},
): Emitter<events> {
  const { onError = rethrow } = options
  const entries = new Map<keyof events, Entry[]>()

  function add(event: keyof events, listener: unknown, once: boolean) {
    const list = entries.get(event) ?? []
    list.push({ listener, once })
    entries.set(event, list)
    return emitter
  }

  function remove(event: keyof events, keep: (entry: Entry) => boolean) {
    const list = entries.get(event)?.filter(keep) ?? []
    if (list.length) entries.set(event, list)
    else entries.delete(event)
  }

  const emitter: Emitter<events> = {
    on: (event, listener) => add(event, listener, false),
    once: (event, listener) => add(event, listener, true),
    off(event, listener) {
      remove(event, (entry) => entry.listener !== listener)
      return emitter
    },
    emit(event, ...args) {
      const list = entries.get(event)
      if (!list) return false
      for (const entry of [...list]) {
        if (entry.once) remove(event, (item) => item !== entry)
        try {
          ;(entry.listener as (...args: unknown[]) => void)(...args)
        } catch (error) {
          onError(error, event)
        }
      }
      return true
    },
    listenerCount(event) {
      if (event !== undefined) return entries.get(event)?.length ?? 0
      let count = 0
      for (const list of entries.values()) count += list.length
      return count
    },
    listeners(event) {
      const list = entries.get(event) ?? []
      return list.map((entry) => entry.listener as events[typeof event])
    },
    eventNames: () => [...entries.keys()],
    removeAllListeners(event) {
      if (event === undefined) entries.clear()
      else entries.delete(event)
      return emitter
    },
  }
  return emitter
}

export declare namespace create {
  type Options<events extends EventMap = EventMap> = {
    /**
     * Receives errors thrown by listeners.
     * @default rethrows the error from a microtask
     */
    onError?: ((error: unknown, event: keyof events) => void) | undefined
  }
}

function rethrow(error: unknown) {
  queueMicrotask(() => {
    throw error
  })
}
