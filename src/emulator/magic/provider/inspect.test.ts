import { describe, expect, test } from 'vitest'
import * as Mailbox from '../../dev/mailbox.js'
import * as Inspect from '../../inspect.js'
import { createRegistry } from '../../registry/index.js'
import { createMagicService } from './service.js'
import { call, createDevice, loginByEmail } from './testkit.js'

describe("the iframe wallet provider's sessions on the observation hub", () => {
  test('behavior: a login shows as a session of its user, without its refresh token; ending it logs the device out', async () => {
    const hub = Inspect.create()
    const heard: string[] = []
    hub.subscribe((name) => heard.push(name))
    const mailbox = Mailbox.create()
    const app = createMagicService({
      mailbox,
      registry: createRegistry(),
      chain: { rpcUrl: 'http://127.0.0.1:1', chainId: 31337 },
      inspect: hub,
    })
    const device = await createDevice()
    await loginByEmail(app, mailbox, 'ada@example.com', device)
    expect(heard).toContain(Inspect.sources.magicSessions)
    const sessions = hub.snapshot(Inspect.sources.magicSessions) as {
      id: string
      who: string
    }[]
    expect(sessions).toEqual([
      expect.objectContaining({ who: 'ada@example.com' }),
    ])
    expect(JSON.stringify(sessions)).not.toContain(device.rt)
    expect((await call(app, 'magic_is_logged_in', [], { device })).result).toBe(
      true,
    )

    await hub.act(Inspect.sources.magicSessions, 'end', {
      id: sessions[0]!.id,
    })
    expect(hub.snapshot(Inspect.sources.magicSessions)).toEqual([])
    expect((await call(app, 'magic_is_logged_in', [], { device })).result).toBe(
      false,
    )
    await expect(
      hub.act(Inspect.sources.magicSessions, 'end', { id: sessions[0]!.id }),
    ).rejects.toMatchObject({ status: 404, shortMessage: 'No such session.' })
  })
})
