import { afterEach, describe, expect, test, vi } from 'vitest'
import type { FlowLine } from './protocol.js'
import { createRunner } from './runner.js'

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
})
