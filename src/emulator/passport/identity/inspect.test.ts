import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import * as Inspect from '../../inspect.js'
import {
  startIdentity,
  type TestIdentity,
  tokenRequest,
  tokensFor,
} from './testkit.js'

describe("the identity provider's sessions on the observation hub", () => {
  const hub = Inspect.create()
  const heard: string[] = []
  hub.subscribe((name) => heard.push(name))
  let identity: TestIdentity
  beforeAll(async () => {
    identity = await startIdentity({ inspect: hub })
  })
  afterAll(() => identity.stop())

  test('behavior: a sign-in shows as a session of its player; ending it refuses its refresh token', async () => {
    const email = 'ada@example.com'
    heard.length = 0
    const tokens = await tokensFor(identity, email)
    expect(heard).toContain(Inspect.sources.passportSessions)
    const sessions = hub.snapshot(Inspect.sources.passportSessions) as {
      id: string
      who: string
      userId: string
      refreshTokens: number
    }[]
    expect(sessions).toEqual([
      expect.objectContaining({
        who: email,
        userId: tokens.sub,
        clientId: identity.clientId,
        refreshTokens: 1,
      }),
    ])

    await hub.act(Inspect.sources.passportSessions, 'end', {
      id: sessions[0]!.id,
    })
    expect(hub.snapshot(Inspect.sources.passportSessions)).toEqual([])
    const refresh = await tokenRequest(identity.issuer, {
      grant_type: 'refresh_token',
      client_id: identity.clientId,
      refresh_token: tokens.refreshToken,
    })
    expect(refresh).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    })
  })

  test('error: ending an unknown session is a 404', async () => {
    await expect(
      hub.act(Inspect.sources.passportSessions, 'end', { id: 'nope' }),
    ).rejects.toMatchObject({ status: 404, shortMessage: 'No such session.' })
  })
})
