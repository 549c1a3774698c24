import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createPublicClient, http } from 'viem'
import { privateKeyToAddress } from 'viem/accounts'
import { expect, test } from './fixtures.js'

/**
 * Two workers side by side (this file's two tests are the run's first two,
 * one per worker): each leaves state in its emulator (a user logged in, a
 * code in the mailbox, a balance on the chain), waits for the other's
 * record, and finds none of the other's state in its own emulator.
 */

/** What a test leaves behind, for the other worker to look for. */
type Record = {
  parallelIndex: number
  urls: string[]
  email: string
  address: `0x${string}`
}

test.describe.configure({ mode: 'parallel' })

for (const [mine, theirs] of [
  ['a', 'b'],
  ['b', 'a'],
] as const)
  test(`behavior: worker ${mine} shares no emulator and no state with worker ${theirs}`, async ({
    open,
    page,
    emulator,
    kit,
    wallets,
  }, testInfo) => {
    test.skip(
      testInfo.config.workers < 2,
      'Two workers meet here: run with at least two.',
    )
    const dir = process.env.ISOLATION_DIR
    if (!dir)
      throw new Error(
        'ISOLATION_DIR is not set: run the suite through its config.',
      )
    const user = wallets.newUser({ label: `isolation-${mine}` })
    await open('magic')
    await page.getByTestId('email').fill(user.email)
    await page.getByTestId('login-email').click()
    await wallets.magic.completeLogin(page, { email: user.email })
    await expect(page.getByTestId('output')).toContainText(user.email)
    const address = privateKeyToAddress(
      `0x${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex')}`,
    )
    await kit.fund(address, { eth: '1' })

    const record: Record = {
      parallelIndex: testInfo.parallelIndex,
      urls: [
        emulator.rpcUrl,
        emulator.mailbox,
        emulator.magic.endpoint,
        emulator.passport.authenticationDomain,
      ],
      email: user.email,
      address,
    }
    await writeFile(join(dir, `${mine}.json`), JSON.stringify(record))
    let other: Record | undefined
    await expect
      .poll(
        async () =>
          (other = await readFile(join(dir, `${theirs}.json`), 'utf8').then(
            (text) => JSON.parse(text) as Record,
            () => undefined,
          )),
        { timeout: 30_000, message: `worker ${theirs}'s record` },
      )
      .toBeDefined()
    if (!other) return

    expect(other.parallelIndex).not.toBe(record.parallelIndex)
    for (const url of other.urls) expect(record.urls).not.toContain(url)
    // Their user's code went to their mailbox only; their balance is on
    // their chain only.
    expect(await kit.mailbox(other.email)).toEqual([])
    expect((await kit.mailbox(user.email)).length).toBeGreaterThan(0)
    const chain = createPublicClient({ transport: http(emulator.rpcUrl) })
    expect(await chain.getBalance({ address: other.address })).toBe(0n)
    expect(await chain.getBalance({ address })).toBe(10n ** 18n)
  })
