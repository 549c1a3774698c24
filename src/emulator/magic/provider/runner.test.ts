import { afterEach, describe, expect, test, vi } from 'vitest'
import * as RpcErrors from '../../../core/RpcErrors.js'
import { RpcFailure } from './errors.js'
import type { FlowLine } from './protocol.js'
import {
  createRunner,
  maxBufferedAnswers,
  maxWaitingFlows,
  toErrorObject,
} from './runner.js'

async function read(body: ReadableStream<Uint8Array>): Promise<FlowLine[]> {
  const text = await new Response(body).text()
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as FlowLine)
}

const ok = { response: { jsonrpc: '2.0' as const, id: 1, result: 'done' } }

afterEach(() => {
  vi.useRealTimers()
})

describe('createRunner', () => {
  test('behavior: events, overlay and the response are streamed in order; the overlay is hidden at the end', async () => {
    const runner = createRunner()
    const { id, body } = runner.start(
      async (ctx) => {
        ctx.emit('hello', 1, 'two')
        ctx.screen('address', { address: '0x1' })
        const answer = await ctx.waitFor(['close'])
        ctx.emit('answered', answer.args)
        return ok
      },
      { showUI: true },
    )
    expect(runner.size()).toBe(1)
    expect(runner.answer(id, { eventType: 'close', args: 'x' })).toBe(true)
    expect(await read(body)).toEqual([
      { kind: 'event', event: 'hello', params: [1, 'two'] },
      { kind: 'overlay', show: true },
      { kind: 'screen', screen: 'address', data: { address: '0x1' } },
      { kind: 'event', event: 'answered', params: ['x'] },
      { kind: 'overlay', show: false },
      { kind: 'response', ...ok },
    ])
    expect(runner.size()).toBe(0)
    expect(runner.answer(id, { eventType: 'close', args: undefined })).toBe(
      false,
    )
  })

  test('behavior: without showUI screens are not sent', async () => {
    const runner = createRunner()
    const { body } = runner.start(
      async (ctx) => {
        ctx.screen('address', { address: '0x1' })
        return ok
      },
      { showUI: false },
    )
    expect(await read(body)).toEqual([{ kind: 'response', ...ok }])
  })

  test('behavior: an answer posted before waitFor is kept; other types are dropped', async () => {
    const runner = createRunner()
    let release!: () => void
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const { id, body } = runner.start(
      async (ctx) => {
        await gate
        const answer = await ctx.waitFor(['verify'])
        return { response: { jsonrpc: '2.0', id: 1, result: answer.args } }
      },
      { showUI: false },
    )
    runner.answer(id, { eventType: 'other', args: 1 })
    runner.answer(id, { eventType: 'verify', args: '123456' })
    release()
    expect(await read(body)).toEqual([
      {
        kind: 'response',
        response: { jsonrpc: '2.0', id: 1, result: '123456' },
      },
    ])
  })

  test('error: waitFor times out with -10014', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const runner = createRunner({ timeout: 1000 })
    const { body } = runner.start(
      async (ctx) => {
        await ctx.waitFor(['never'])
        return ok
      },
      { showUI: false },
    )
    await vi.advanceTimersByTimeAsync(1000)
    expect(await read(body)).toEqual([
      {
        kind: 'response',
        response: {
          jsonrpc: '2.0',
          id: null,
          error: {
            code: -10014,
            message: 'The request timed out waiting for an answer.',
          },
        },
      },
    ])
  })

  test('behavior: closing the stream ends the flow and forgets it', async () => {
    const runner = createRunner()
    let failure: unknown
    const { id, body } = runner.start(
      async (ctx) => {
        try {
          await ctx.waitFor(['never'])
        } catch (error) {
          failure = error
        }
        return ok
      },
      { showUI: false },
    )
    await body.cancel()
    await vi.waitFor(() => expect(failure).toBeDefined())
    expect((failure as { code: number }).code).toBe(-10014)
    expect(runner.answer(id, { eventType: 'never', args: undefined })).toBe(
      false,
    )
  })

  test('behavior: a flow keeps only the latest 16 answers it is not waiting for', async () => {
    const runner = createRunner()
    let release!: () => void
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const taken: unknown[] = []
    const { id, body } = runner.start(
      async (ctx) => {
        await gate
        for (let step = 0; step < 2; step++)
          taken.push((await ctx.waitFor(['pick'], { timeout: 50 })).args)
        return ok
      },
      { showUI: false },
    )
    for (let index = 0; index < 40; index++)
      runner.answer(id, { eventType: 'pick', args: index })
    release()
    const lines = await read(body)
    expect(maxBufferedAnswers).toBe(16)
    // The oldest 24 were dropped; waitFor takes the first kept answer and
    // forgets everything before it, so the second wait finds the next one.
    expect(taken).toEqual([24, 25])
    expect(lines).toEqual([{ kind: 'response', ...ok }])
  })

  test('behavior: the 257th waiting flow cancels the one that waited longest with -10014', async () => {
    const runner = createRunner()
    const bodies: ReadableStream<Uint8Array>[] = []
    const ids: string[] = []
    for (let index = 0; index <= maxWaitingFlows; index++) {
      const { id, body } = runner.start(
        async (ctx) => {
          const answer = await ctx.waitFor(['go'])
          return {
            response: { jsonrpc: '2.0', id: index, result: answer.args },
          }
        },
        { showUI: false },
      )
      ids.push(id)
      bodies.push(body)
      // Let the flow reach its waitFor before the next one starts.
      await Promise.resolve()
      await Promise.resolve()
    }
    expect(maxWaitingFlows).toBe(256)
    // The flow throws the failure; the runner alone does not know its id
    // (the service's flows catch it and answer with theirs).
    expect(await read(bodies[0]!)).toEqual([
      {
        kind: 'response',
        response: {
          jsonrpc: '2.0',
          id: null,
          error: {
            code: -10014,
            message:
              'The request was cancelled: too many requests were waiting for an answer.',
          },
        },
      },
    ])
    expect(runner.size()).toBe(maxWaitingFlows)
    for (const [index, id] of ids.entries())
      if (index > 0) runner.answer(id, { eventType: 'go', args: index })
    expect(await read(bodies[1]!)).toEqual([
      { kind: 'response', response: { jsonrpc: '2.0', id: 1, result: 1 } },
    ])
    expect(await read(bodies[maxWaitingFlows]!)).toEqual([
      {
        kind: 'response',
        response: { jsonrpc: '2.0', id: maxWaitingFlows, result: 256 },
      },
    ])
  })

  test('error: a response JSON cannot carry becomes a -32603 line for the same id; an event it cannot carry is dropped', async () => {
    const runner = createRunner()
    const deep = JSON.parse(`${'['.repeat(20_000)}${']'.repeat(20_000)}`)
    const { body } = runner.start(
      async (ctx) => {
        ctx.emit('deep', deep)
        ctx.emit('after')
        return { response: { jsonrpc: '2.0', id: 'a', result: 10n } }
      },
      { showUI: false },
    )
    expect(await read(body)).toEqual([
      { kind: 'event', event: 'after', params: [] },
      {
        kind: 'response',
        response: {
          jsonrpc: '2.0',
          id: 'a',
          error: {
            code: -32603,
            message: 'Internal error: the answer cannot be sent as JSON.',
          },
        },
      },
    ])
  })

  test('behavior: a flow that throws ends with -32603; writing after the caller left rejects nothing', async () => {
    const rejections: unknown[] = []
    const onRejection = (reason: unknown) => rejections.push(reason)
    process.on('unhandledRejection', onRejection)
    try {
      const runner = createRunner()
      const thrown = runner.start(
        async () => {
          throw new Error('boom\nsecond line')
        },
        { showUI: false },
      )
      expect(await read(thrown.body)).toEqual([
        {
          kind: 'response',
          response: {
            jsonrpc: '2.0',
            id: null,
            error: { code: -32603, message: 'Internal error: boom' },
          },
        },
      ])
      let finished!: () => void
      const done = new Promise<void>((resolve) => {
        finished = resolve
      })
      const left = runner.start(
        async (ctx) => {
          await new Promise((resolve) => setTimeout(resolve, 10))
          ctx.emit('late')
          ctx.screen('address', { address: '0x1' })
          finished()
          return ok
        },
        { showUI: true },
      )
      await left.body.cancel()
      await done
      await new Promise((resolve) => setTimeout(resolve, 10))
      expect(runner.size()).toBe(0)
      expect(rejections).toEqual([])
    } finally {
      process.off('unhandledRejection', onRejection)
    }
  })
})

describe('toErrorObject', () => {
  test("behavior: the backend's RpcFailure and any core RPC error keep their code, message and data; anything else is -32603", () => {
    const failure = new RpcFailure(-10003, 'The user is already logged in.', {
      a: 1,
    })
    expect(failure).toBeInstanceOf(RpcErrors.RpcError)
    expect(toErrorObject(failure)).toEqual({
      code: -10003,
      message: 'The user is already logged in.',
      data: { a: 1 },
    })
    expect(
      toErrorObject(new RpcErrors.InvalidParamsError({ message: 'no' })),
    ).toEqual({ code: -32602, message: 'no' })
    expect(toErrorObject('odd')).toEqual({
      code: -32603,
      message: 'Internal error: odd',
    })
  })
})
