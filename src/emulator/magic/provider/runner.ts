/**
 * The flow runner: a flow is an async function that streams events, overlay
 * and screen lines to the iframe app (NDJSON, see protocol.ts), waits for
 * intermediary answers, and ends with one `response` line.
 *
 * Whatever a flow does, its stream ends with one well-formed `response`
 * line (or is already gone because the caller went away), and no promise
 * of the runner is left to reject unhandled: a line that cannot be
 * serialised becomes a JSON-RPC error, a write after the stream closed
 * does nothing.
 */
import { RpcError } from '../../../core/RpcErrors.js'
import { failures } from './errors.js'
import type { FlowLine, Screen, ScreenData } from './protocol.js'

/**
 * How many answers a flow keeps while it is not waiting for them: the
 * latest 16. A flow takes one answer per step and its steps ask for at
 * most a handful of types, so 16 covers an answer posted a little early
 * (the host may answer before the flow reaches its `waitFor`) while a page
 * posting answers in a loop cannot grow the buffer.
 */
export const maxBufferedAnswers = 16

/**
 * How many flows may wait for an answer at once: 256. A waiting flow is a
 * screen or a headless step a person (or a test) answers; a developer has a
 * few at a time, a test suite a few dozen. A flow that begins to wait
 * beyond this cancels the one that has waited longest (-10014), so a page
 * opening flows in a loop cannot hold memory for ten minutes each, and the
 * newest request, the one someone is looking at, still runs.
 */
export const maxWaitingFlows = 256

/** An answer posted to a running flow. */
export type Answer<type extends string = string> = {
  eventType: type
  args: unknown
}

/** What a flow can do while it runs. */
export type Controls = {
  /** The flow id (also the `x-flow-id` header). */
  readonly id: string
  /** Whether the request asked for the provider UI. */
  readonly showUI: boolean
  /** Sends a flow event to the host (`MAGIC_HANDLE_EVENT`). */
  emit(event: string, ...params: unknown[]): void
  /** Shows or hides the iframe overlay. */
  overlay(show: boolean): void
  /** Renders an iframe screen; does nothing when `showUI` is false. */
  screen<screen extends Screen>(screen: screen, data: ScreenData<screen>): void
  /**
   * Waits for the next answer of one of `types` (answers of other types
   * are dropped). Rejects with -10014 on time-out or when the stream closes.
   */
  waitFor<const type extends string>(
    types: readonly type[],
    options?: { timeout?: number | undefined },
  ): Promise<Answer<type>>
}

/** The last line of a flow, without its `kind`. */
export type Final = Omit<Extract<FlowLine, { kind: 'response' }>, 'kind'>

type Running = {
  deliver(answer: Answer): void
  /** Cancels the flow's wait, if it waits. */
  evict(): void
}

/** A registry of running flows. */
export type Runner = {
  /**
   * Starts a flow; the returned stream carries its NDJSON lines. Errors
   * the flow throws must be turned into a `Final` by `run` itself.
   */
  start(
    run: (controls: Controls) => Promise<Final>,
    options: { showUI: boolean },
  ): { id: string; body: ReadableStream<Uint8Array> }
  /** Delivers an answer; `false` if the flow is unknown or finished. */
  answer(id: string, answer: Answer): boolean
  /** How many flows are running. */
  size(): number
}

/**
 * Creates a flow runner.
 *
 * @param options.timeout - How long `waitFor` waits by default (ms). @default 600_000
 */
export function createRunner(
  options: { timeout?: number | undefined } = {},
): Runner {
  const { timeout: defaultTimeout = 600_000 } = options
  const flows = new Map<string, Running>()
  // Ids of the flows waiting for an answer, the longest-waiting first.
  const waiting = new Set<string>()

  return {
    start(run, { showUI }) {
      const id = crypto.randomUUID()
      const encoder = new TextEncoder()
      let controller!: ReadableStreamDefaultController<Uint8Array>
      let closed = false
      let overlayShown = false
      const buffered: Answer[] = []
      let waiter:
        | {
            types: readonly string[]
            resolve: (answer: Answer) => void
            reject: (error: unknown) => void
          }
        | undefined

      const write = (line: FlowLine) => {
        if (closed) return
        const text = serialize(line)
        if (text === undefined) return
        try {
          controller.enqueue(encoder.encode(`${text}\n`))
        } catch {
          // The stream is gone (the caller went away): the flow ends.
          finish()
        }
      }
      const finish = () => {
        closed = true
        flows.delete(id)
        waiting.delete(id)
        const pending = waiter
        waiter = undefined
        pending?.reject(failures.cancelled())
      }

      const body = new ReadableStream<Uint8Array>({
        start(c) {
          controller = c
        },
        cancel() {
          finish()
        },
      })

      flows.set(id, {
        deliver(answer) {
          if (waiter?.types.includes(answer.eventType)) {
            const { resolve } = waiter
            waiter = undefined
            resolve(answer)
            return
          }
          buffered.push(answer)
          if (buffered.length > maxBufferedAnswers) buffered.shift()
        },
        evict() {
          const pending = waiter
          waiter = undefined
          pending?.reject(failures.evicted())
        },
      })

      const controls: Controls = {
        id,
        showUI,
        emit(event, ...params) {
          write({ kind: 'event', event, params })
        },
        overlay(show) {
          overlayShown = show
          write({ kind: 'overlay', show })
        },
        screen(screen, data) {
          if (!showUI) return
          if (!overlayShown) controls.overlay(true)
          write({ kind: 'screen', screen, data } as FlowLine)
        },
        waitFor(types, options = {}) {
          if (closed) return Promise.reject(failures.cancelled())
          const index = buffered.findIndex((answer) =>
            types.includes(answer.eventType as never),
          )
          if (index !== -1) {
            const [answer] = buffered.splice(0, index + 1).slice(-1)
            return Promise.resolve(answer as Answer<never>)
          }
          buffered.length = 0
          return new Promise((resolve, reject) => {
            const done = () => {
              clearTimeout(timer)
              waiting.delete(id)
            }
            const timer = setTimeout(() => {
              waiter = undefined
              done()
              reject(failures.timedOut())
            }, options.timeout ?? defaultTimeout)
            waiter = {
              types,
              resolve: (answer) => {
                done()
                resolve(answer as Answer<never>)
              },
              reject: (error) => {
                done()
                reject(error)
              },
            }
            waiting.add(id)
            if (waiting.size > maxWaitingFlows) {
              const [oldest] = waiting
              if (oldest !== undefined) {
                flows.get(oldest)?.evict()
                waiting.delete(oldest)
              }
            }
          })
        },
      }

      void Promise.resolve()
        .then(() => run(controls))
        .catch(
          (error: unknown): Final => ({
            response: {
              jsonrpc: '2.0',
              id: null,
              error: toErrorObject(error),
            },
          }),
        )
        .then((final) => {
          if (overlayShown) write({ kind: 'overlay', show: false })
          write({ kind: 'response', ...final })
        })
        .finally(() => {
          if (!closed)
            try {
              controller.close()
            } catch {
              // Already closed by the other side.
            }
          finish()
        })

      return { id, body }
    },
    answer(id, answer) {
      const flow = flows.get(id)
      if (!flow) return false
      flow.deliver(answer)
      return true
    },
    size: () => flows.size,
  }
}

/**
 * Any thrown value as a JSON-RPC error object: a core RPC error (an
 * RpcFailure among them) as it is, anything else -32603.
 */
export function toErrorObject(error: unknown) {
  if (error instanceof RpcError) return error.toObject()
  const reason =
    error instanceof Error
      ? error.message
      : typeof error === 'string'
        ? error
        : 'unknown failure'
  return failures
    .internal(`Internal error: ${reason.split('\n')[0]}`)
    .toObject()
}

/**
 * One line as JSON. A line JSON cannot carry (a value nested too deep for
 * `JSON.stringify`, a bigint, a cycle) is dropped, except the `response`:
 * it becomes a -32603 error for the same request, so the stream still ends
 * with its answer.
 */
function serialize(line: FlowLine): string | undefined {
  try {
    return JSON.stringify(line)
  } catch {
    if (line.kind !== 'response') return undefined
    const { id } = line.response
    return JSON.stringify({
      kind: 'response',
      response: {
        jsonrpc: '2.0',
        id: typeof id === 'string' || typeof id === 'number' ? id : null,
        error: failures
          .internal('Internal error: the answer cannot be sent as JSON.')
          .toObject(),
      },
    })
  }
}
