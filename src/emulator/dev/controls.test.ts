import { describe, expect, test } from 'vitest'
import * as Clock from '../clock.js'
import * as Scenarios from '../scenarios.js'
import * as Mailbox from './mailbox.js'
import { createDevApp } from './service.js'

function setup(chains: { chainId: number; nodeUrl: string }[] = []) {
  let wall = Date.UTC(2026, 0, 1)
  const clock = Clock.create({ wall: () => wall })
  const scenarios = Scenarios.create()
  const app = createDevApp({
    mailbox: Mailbox.create(),
    controls: { clock, scenarios, chains },
  })
  const send = (method: string, path: string, body?: unknown) =>
    app.request(path, {
      method,
      ...(body === undefined
        ? {}
        : {
            headers: { 'content-type': 'application/json' },
            body: typeof body === 'string' ? body : JSON.stringify(body),
          }),
    })
  return { app, clock, scenarios, send, tick: (ms: number) => (wall += ms) }
}

describe('scenario routes', () => {
  test('default: GET /scenarios lists every scenario off', async () => {
    const { send } = setup()
    const response = await send('GET', '/scenarios')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual(Scenarios.create().list())
  })

  test('behavior: PUT /scenarios/:name switches it and answers its entry; POST /scenarios/reset turns all off', async () => {
    const { send, scenarios } = setup()
    const put = await send('PUT', '/scenarios/relayer-failing', { on: true })
    expect(put.status).toBe(200)
    expect(await put.json()).toEqual({
      name: 'relayer-failing',
      on: true,
      ...Scenarios.catalogue['relayer-failing'],
    })
    expect(scenarios.isOn('relayer-failing')).toBe(true)
    const reset = await send('POST', '/scenarios/reset')
    expect(reset.status).toBe(200)
    const list = (await reset.json()) as Scenarios.Entry[]
    expect(list.some((entry) => entry.on)).toBe(false)
    expect(scenarios.isOn('relayer-failing')).toBe(false)
  })

  test('error: an unknown name is 404 with the scenarios named', async () => {
    const { send } = setup()
    for (const path of ['/scenarios/popup-blocked', '/scenarios/reset']) {
      const response = await send('PUT', path, { on: true })
      expect(response.status).toBe(404)
      expect(((await response.json()) as { error: string }).error).toMatch(
        /^There is no scenario "(popup-blocked|reset)"; the scenarios are refresh-token-rejected, /,
      )
    }
  })

  test('error: a malformed or huge name is 404, never a crash', async () => {
    const { send } = setup()
    for (const name of ['%E0%A4%A', 'x'.repeat(5000), '%00']) {
      const response = await send('PUT', `/scenarios/${name}`, { on: true })
      expect(response.status).toBe(404)
      const { error } = (await response.json()) as { error: string }
      expect(error.length).toBeLessThan(300)
    }
  })

  test.each([
    ['not JSON', '{on: true'],
    ['no on', {}],
    ['on a string', { on: 'true' }],
    ['an array', [true]],
    ['null', 'null'],
  ])(
    'error: a body that is %s is 400 and switches nothing',
    async (_, body) => {
      const { send, scenarios } = setup()
      const response = await send('PUT', '/scenarios/node-down', body)
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({
        error: 'Expected { "on": true } or { "on": false }.',
      })
      expect(scenarios.isOn('node-down')).toBe(false)
    },
  )
})

describe('clock routes', () => {
  test('default: GET /clock is the wall clock, offset 0', async () => {
    const { send } = setup()
    const response = await send('GET', '/clock')
    expect(await response.json()).toEqual({
      now: '2026-01-01T00:00:00.000Z',
      offsetMs: 0,
    })
  })

  test('behavior: POST /clock/advance moves the services clock by whole seconds', async () => {
    const { send, clock } = setup()
    const response = await send('POST', '/clock/advance', { seconds: 86_400 })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      now: '2026-01-02T00:00:00.000Z',
      offsetMs: 86_400_000,
    })
    expect(clock.offsetMs).toBe(86_400_000)
    expect(await (await send('GET', '/clock')).json()).toEqual({
      now: '2026-01-02T00:00:00.000Z',
      offsetMs: 86_400_000,
    })
  })

  test.each([
    ['not JSON', 'seconds=5'],
    ['no seconds', {}],
    ['negative', { seconds: -1 }],
    ['fractional', { seconds: 1.5 }],
    ['a string', { seconds: '60' }],
    ['unsafe', { seconds: 2 ** 60 }],
  ])('error: a body that is %s is 400 and moves nothing', async (_, body) => {
    const { send, clock } = setup()
    const response = await send('POST', '/clock/advance', body)
    expect(response.status).toBe(400)
    expect(((await response.json()) as { error: string }).error).toBe(
      'Expected { "seconds": n } with n a whole number of seconds from 0 (the clock only moves forward).',
    )
    expect(clock.offsetMs).toBe(0)
  })

  test('error: beyond the clock range is 400', async () => {
    const { send, clock } = setup()
    const response = await send('POST', '/clock/advance', {
      seconds: Clock.maxOffsetMs / 1000 + 1,
    })
    expect(response.status).toBe(400)
    expect(((await response.json()) as { error: string }).error).toMatch(
      /^The clock may be at most 3153600000 seconds ahead; it is 0 seconds ahead now\.$/,
    )
    expect(clock.offsetMs).toBe(0)
  })

  test('error: a chain that does not answer is 502 and the services clock stays', async () => {
    const { send, clock } = setup([
      { chainId: 31337, nodeUrl: 'http://127.0.0.1:1' },
    ])
    const response = await send('POST', '/clock/advance', { seconds: 60 })
    expect(response.status).toBe(502)
    expect(((await response.json()) as { error: string }).error).toMatch(
      /^Chain 31337 did not move its time: evm_increaseTime got no answer \(/,
    )
    expect(clock.offsetMs).toBe(0)
  })
})
