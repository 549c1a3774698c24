import * as Emitter from './Emitter.js'

/** The events every PromiEvent emits: `done` or `error`, then `settled`. */
export type DefaultEvents<result> = {
  /** The promise fulfilled with `result`. */
  done: (result: result) => void
  /** The promise rejected with `reason`. */
  error: (reason: unknown) => void
  /** Emitted after `done` or `error`. */
  settled: () => void
}

/** Custom events merged with the {@link DefaultEvents}. */
export type Events<
  result,
  events extends Emitter.EventMap = Record<never, never>,
> = Omit<events, keyof DefaultEvents<result>> & DefaultEvents<result>

/**
 * A native Promise that is also an event emitter. `result` is what it
 * resolves to; `events` is the full event map of its (shared) emitter.
 */
export type PromiEvent<
  result,
  events extends Emitter.EventMap = DefaultEvents<result>,
> = Omit<Promise<result>, 'then' | 'catch' | 'finally'> & {
  then<fulfilled = result, rejected = never>(
    onfulfilled?:
      | ((value: result) => fulfilled | PromiseLike<fulfilled>)
      | null
      | undefined,
    onrejected?:
      | ((reason: unknown) => rejected | PromiseLike<rejected>)
      | null
      | undefined,
  ): PromiEvent<fulfilled | rejected, events>
  catch<rejected = never>(
    onrejected?:
      | ((reason: unknown) => rejected | PromiseLike<rejected>)
      | null
      | undefined,
  ): PromiEvent<result | rejected, events>
  finally(
    onfinally?: (() => void) | null | undefined,
  ): PromiEvent<result, events>
  on: Listen<result, events>
  once: Listen<result, events>
  addListener: Listen<result, events>
  off: Listen<result, events>
  removeListener: Listen<result, events>
  removeAllListeners(
    event?: keyof events | undefined,
  ): PromiEvent<result, events>
  emit: Emitter.Emitter<events>['emit']
  listenerCount: Emitter.Emitter<events>['listenerCount']
  listeners: Emitter.Emitter<events>['listeners']
  eventNames: Emitter.Emitter<events>['eventNames']
}

type Listen<result, events extends Emitter.EventMap> = <
  event extends keyof events,
>(
  event: event,
  listener: events[event],
) => PromiEvent<result, events>

const brand = Symbol('PromiEvent')
const nativeThen = Promise.prototype.then
const ignore = () => {}

/**
 * Creates a PromiEvent: a real `Promise` (awaitable, `instanceof Promise`)
 * carrying an emitter. When the executor settles it emits `done(result)` or
 * `error(reason)`, then `settled()`; awaiting code resumes after them.
 * `then`/`catch`/`finally` return new PromiEvents sharing the same emitter.
 *
 * Unhandled rejections: if the promise rejects while it has at least one
 * `error` listener, the rejection counts as handled (no `unhandledrejection`),
 * because the caller chose to hear about it through the event. Without an
 * `error` listener a rejection nobody catches is reported as usual.
 *
 * @example
 * ```ts
 * import { PromiEvent } from 'embedded-wallets/core'
 *
 * const login = PromiEvent.create<string, { 'otp-sent': () => void }>(
 *   (resolve) => setTimeout(() => resolve('did-token'), 100),
 * )
 * login.on('otp-sent', () => {}).on('done', (token) => {})
 * const token = await login
 * ```
 */
export function create<
  result,
  events extends Emitter.EventMap = Record<never, never>,
>(
  executor: create.Executor<result>,
): PromiEvent<result, Events<result, events>> {
  const emitter = Emitter.create<Events<result, events>>()
  const emit = emitter.emit as (event: string, ...args: unknown[]) => boolean
  const base = new Promise<result>((resolve, reject) => {
    const returned = executor(resolve, reject)
    if (returned) nativeThen.call(returned, undefined, reject)
  })
  const settled: Promise<result> = nativeThen.call(
    base,
    (value) => {
      emit('done', value)
      emit('settled')
      return value
    },
    (reason) => {
      if (emitter.listenerCount('error') > 0)
        nativeThen.call(settled, undefined, ignore)
      emit('error', reason)
      emit('settled')
      throw reason
    },
  ) as Promise<result>
  return decorate(settled, emitter)
}

export declare namespace create {
  /** Like a Promise executor; may be async (a rejection rejects). */
  type Executor<result> = (
    resolve: (value: result | PromiseLike<result>) => void,
    reject: (reason?: unknown) => void,
  ) => void | Promise<void>
}

/**
 * Whether `value` is a PromiEvent made by {@link create} (checked with a
 * hidden brand symbol, not by shape).
 *
 * @example
 * ```ts
 * import { PromiEvent } from 'embedded-wallets/core'
 *
 * PromiEvent.isPromiEvent(PromiEvent.create((resolve) => resolve(1))) // true
 * PromiEvent.isPromiEvent(Promise.resolve(1)) // false
 * ```
 */
export function isPromiEvent(
  value: unknown,
): value is PromiEvent<unknown, Emitter.EventMap> {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { [brand]?: unknown })[brand] === true
  )
}

/** Adds the emitter methods and chaining `then`/`catch`/`finally`. */
function decorate<result, events extends Emitter.EventMap>(
  promise: Promise<result>,
  emitter: Emitter.Emitter<events>,
): PromiEvent<result, events> {
  const self = promise as unknown as PromiEvent<result, events>
  const chain =
    (method: 'on' | 'once' | 'off' | 'removeAllListeners') =>
    (...args: never[]) => {
      ;(emitter[method] as (...args: never[]) => unknown)(...args)
      return self
    }
  const methods = {
    [brand]: true,
    // biome-ignore lint/suspicious/noThenProperty: a PromiEvent is a Promise; its then chains the emitter.
    then: (onfulfilled?: unknown, onrejected?: unknown) =>
      decorate(
        nativeThen.call(promise, onfulfilled as never, onrejected as never),
        emitter,
      ),
    catch: (onrejected?: unknown) =>
      decorate(
        nativeThen.call(promise, undefined, onrejected as never),
        emitter,
      ),
    finally: (onfinally?: (() => void) | null) =>
      decorate(
        nativeThen.call(
          promise,
          (value) => nativeThen.call(run(onfinally), () => value),
          (reason) =>
            nativeThen.call(run(onfinally), () => {
              throw reason
            }),
        ),
        emitter,
      ),
    on: chain('on'),
    addListener: chain('on'),
    once: chain('once'),
    off: chain('off'),
    removeListener: chain('off'),
    removeAllListeners: chain('removeAllListeners'),
    emit: emitter.emit,
    listenerCount: emitter.listenerCount,
    listeners: emitter.listeners,
    eventNames: emitter.eventNames,
  }
  for (const key of Reflect.ownKeys(methods))
    Object.defineProperty(promise, key, {
      configurable: true,
      value: methods[key as keyof typeof methods],
      writable: true,
    })
  return self
}

/** Runs a `finally` callback as a promise of its completion. */
function run(onfinally: (() => void) | null | undefined): Promise<unknown> {
  return new Promise((resolve) => resolve(onfinally?.()))
}
