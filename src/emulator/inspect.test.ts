import { describe, expect, test } from 'vitest'
import * as Inspect from './inspect.js'

describe('Inspect.create', () => {
  test('behavior: a source registers, is read, changes and leaves, and listeners hear each', async () => {
    const hub = Inspect.create()
    const heard: string[] = []
    const stop = hub.subscribe((name) => heard.push(name))
    let count = 0
    const remove = hub.register('counter', {
      snapshot: () => ({ count }),
      actions: {
        add(input) {
          count += Number((input as { by: number }).by)
          hub.changed('counter')
          return { count }
        },
      },
    })
    expect(hub.names()).toEqual(['counter'])
    expect(await hub.act('counter', 'add', { by: 2 })).toEqual({ count: 2 })
    expect(hub.snapshot('counter')).toEqual({ count: 2 })
    remove()
    expect(hub.snapshot('counter')).toBeUndefined()
    stop()
    hub.changed('counter')
    expect(heard).toEqual(['counter', 'counter', 'counter'])
  })

  test("error: a listener's failure does not reach the service that changed", () => {
    const hub = Inspect.create()
    const heard: string[] = []
    hub.subscribe(() => {
      throw new Error('gone')
    })
    hub.subscribe((name) => heard.push(name))
    expect(() => hub.changed('mailbox')).not.toThrow()
    expect(heard).toEqual(['mailbox'])
  })

  test('error: an unknown source or action, or an inherited name, is a 404 ActionError', async () => {
    const hub = Inspect.create()
    hub.register('verdicts', { snapshot: () => [], actions: {} })
    for (const [source, action] of [
      ['nothing', 'end'],
      ['verdicts', 'settle'],
      ['verdicts', 'constructor'],
    ] as const) {
      const error = await hub.act(source, action, {}).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(Inspect.ActionError)
      expect(error).toMatchObject({
        status: 404,
        shortMessage: `There is no action ${action} on ${source}.`,
      })
    }
  })
})
