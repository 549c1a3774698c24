import { getAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { answerOf, maxSessionActivityChecks } from './session.js'
import { startApi, type TestApi } from './testkit.js'

let api: TestApi

beforeAll(async () => {
  api = await startApi()
})
afterAll(() => api?.stop())

const wallet = getAddress('0x00000000000000000000000000000000000000aa')
const contract = getAddress('0x00000000000000000000000000000000000c0ffe')

const checkPath = (query: Record<string, string>) =>
  `/v1/sdk/session-activity/check?${new URLSearchParams(query)}`

const check = (clientId: string, checkCount = 0, sendCount = 0) =>
  api.get(
    checkPath({
      clientId,
      wallet,
      checkCount: String(checkCount),
      sendCount: String(sendCount),
    }),
  )

describe('GET /v1/sdk/session-activity/check', () => {
  test('default: with no rule for the client it is 404, and the check is recorded', async () => {
    const response = await check('game-404', 2, 1)
    expect(response.status).toBe(404)
    expect(response.body).toEqual({
      code: 'RESOURCE_NOT_FOUND',
      message: 'No session activity is wanted for client game-404.',
      details: null,
    })
    const recorded = await api.get('/dev/session-activity?clientId=game-404')
    const { checks } = recorded.body as { checks: { at: string }[] }
    expect(recorded.body).toEqual({
      rules: {},
      checks: [
        {
          clientId: 'game-404',
          wallet,
          checkCount: 2,
          sendCount: 1,
          at: checks[0]?.at,
        },
      ],
    })
  })

  test("behavior: a rule's contract and function are answered while the sends are below untilSendCount", async () => {
    const rule = {
      contractAddress: contract.toLowerCase(),
      functionName: 'ping',
      delay: 5,
      untilSendCount: 2,
    }
    const put = await api.put('/dev/session-activity', {
      clientId: 'game-send',
      rule,
    })
    expect(put.body).toEqual({
      clientId: 'game-send',
      rule: { ...rule, contractAddress: contract },
    })
    expect((await check('game-send', 0, 0)).body).toEqual({
      contractAddress: contract,
      functionName: 'ping',
      delay: 5,
    })
    expect((await check('game-send', 0, 1)).body).toEqual({
      contractAddress: contract,
      functionName: 'ping',
      delay: 5,
    })
    expect((await check('game-send', 0, 2)).body).toEqual({ delay: 5 })
  })

  test('behavior: delay is answered while the checks since the last send are below untilCheckCount, then 0', async () => {
    await api.put('/dev/session-activity', {
      clientId: 'game-stop',
      rule: { delay: 1, untilCheckCount: 2 },
    })
    expect((await check('game-stop', 0)).body).toEqual({ delay: 1 })
    expect((await check('game-stop', 1)).body).toEqual({ delay: 1 })
    expect((await check('game-stop', 2)).body).toEqual({ delay: 0 })
    const recorded = await api.get('/dev/session-activity?clientId=game-stop')
    expect(
      (recorded.body as { checks: { checkCount: number }[] }).checks.map(
        (c) => c.checkCount,
      ),
    ).toEqual([0, 1, 2])
  })

  test('behavior: a rule set to null is removed (404 again); GET lists every rule', async () => {
    await api.put('/dev/session-activity', {
      clientId: 'game-gone',
      rule: {},
    })
    expect((await check('game-gone')).body).toEqual({ delay: 0 })
    const all = await api.get('/dev/session-activity')
    expect((all.body as { rules: object }).rules).toMatchObject({
      'game-gone': {},
    })
    const removed = await api.put('/dev/session-activity', {
      clientId: 'game-gone',
      rule: null,
    })
    expect(removed.body).toEqual({ clientId: 'game-gone', rule: null })
    expect((await check('game-gone')).status).toBe(404)
  })

  test('behavior: any page may check, without a credential', async () => {
    const response = await fetch(
      `${api.url}${checkPath({ clientId: 'x', wallet, checkCount: '0', sendCount: '0' })}`,
      { headers: { origin: 'https://game.example' } },
    )
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
  })

  test('error: a query without a client id, a wallet or counts is 400, and not recorded', async () => {
    const before = (
      (await api.get('/dev/session-activity')).body as { checks: unknown[] }
    ).checks.length
    for (const query of [
      { wallet, checkCount: '0', sendCount: '0' },
      { clientId: 'g', checkCount: '0', sendCount: '0' },
      { clientId: 'g', wallet: 'x', checkCount: '0', sendCount: '0' },
      { clientId: 'g', wallet, checkCount: '-1', sendCount: '0' },
      { clientId: 'g', wallet, checkCount: '0', sendCount: '1.5' },
      { clientId: 'g'.repeat(257), wallet, checkCount: '0', sendCount: '0' },
    ]) {
      const response = await api.get(checkPath(query))
      expect(response.status).toBe(400)
      expect(response.body).toEqual({
        code: 'VALIDATION_ERROR',
        message:
          'Expected the query clientId, wallet (an address), checkCount and sendCount (counts).',
        details: null,
      })
    }
    const after = (
      (await api.get('/dev/session-activity')).body as { checks: unknown[] }
    ).checks.length
    expect(after).toBe(before)
  })
})

describe('/dev/session-activity', () => {
  test('error: an invalid rule is 400 and sets nothing', async () => {
    for (const [rule, message] of [
      [[], 'rule must be an object or null.'],
      [
        { contractAddress: 'x', functionName: 'f' },
        'contractAddress must be an address.',
      ],
      [
        { contractAddress: contract },
        'contractAddress and functionName go together.',
      ],
      [{ delay: -1 }, 'delay must be a number of seconds from 0 to 86400.'],
      [{ delay: '5' }, 'delay must be a number of seconds from 0 to 86400.'],
      [
        { untilSendCount: 1.5 },
        'untilSendCount must be a non-negative integer.',
      ],
      [
        { every: 5 },
        'Unknown rule fields: every. Known: contractAddress, functionName, delay, untilCheckCount, untilSendCount.',
      ],
    ] as const) {
      const response = await api.put('/dev/session-activity', {
        clientId: 'game-bad',
        rule,
      })
      expect(response.status).toBe(400)
      expect(response.body).toEqual({
        code: 'VALIDATION_ERROR',
        message,
        details: null,
      })
    }
    const missing = await api.put('/dev/session-activity', { rule: {} })
    expect(missing.status).toBe(400)
    expect((await check('game-bad')).status).toBe(404)
  })

  test('error: a page on another origin can neither read nor set', async () => {
    for (const method of ['GET', 'PUT']) {
      const response = await api.request(method, '/dev/session-activity', {
        ...(method === 'PUT'
          ? { body: { clientId: 'evil', rule: { delay: 1 } } }
          : {}),
        headers: { origin: 'https://evil.example' },
      })
      expect(response.status).toBe(403)
    }
    expect((await check('evil')).status).toBe(404)
  })

  test(`behavior: only the newest ${maxSessionActivityChecks} checks are kept`, async () => {
    // In batches: a thousand requests at once can outlast the default
    // test time-out on a loaded machine.
    for (let i = 0; i < maxSessionActivityChecks + 5; i += 50)
      await Promise.all(
        Array.from({ length: 50 }, (_, j) => check('game-many', i + j)),
      )
    const all = await api.get('/dev/session-activity')
    const { checks } = all.body as { checks: { clientId: string }[] }
    expect(checks).toHaveLength(maxSessionActivityChecks)
    expect(checks.every((c) => c.clientId === 'game-many')).toBe(true)
  }, 60_000)
})

describe('answerOf', () => {
  test('behavior: no contract without a function, and delay defaults to 0', () => {
    expect(answerOf({}, { checkCount: 0, sendCount: 0 })).toEqual({ delay: 0 })
  })
})
