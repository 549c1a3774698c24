/**
 * The game wallet's rows: `eth_sendTransaction` end to end on Anvil (ours,
 * the published @imtbl/passport, and a plain EOA send through viem),
 * `personal_sign`, and many reads at once through the wallet's provider
 * against viem's http transport straight to the node. Each SDK runs in a
 * browser context of its own, signed in through its real login popup as a
 * fresh player of the emulator.
 */
import type { Browser, BrowserContext, Page, Request } from 'playwright-core'
import { type Address, getAddress, toHex } from 'viem'
import type { Emulator, Info } from '../src/emulator/index.js'
import {
  createBrowser,
  signIn,
} from '../src/emulator/passport/identity/testkit.js'
import { fund } from '../src/emulator/registry/index.js'
import { paths } from '../src/passport/wire/identity.js'
import type { DappPage, Site } from './browser.js'
import type { Iterations, Names } from './iframeWallet.js'
import type { GameConfig, Span } from './pages/gameHarness.js'
import { type Row, row, type Side, summarise } from './report.js'

/**
 * Anvil's account 1 (`0x70997970C51812dc3A010C7d01b50e0d17dc79C8`), which no
 * part of the emulator sends from: the EOA baseline's sender. Public test
 * key, funded by Anvil.
 */
const eoaKey =
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'

/** What each send moves: a small transfer, which the guardian passes. */
const value = '1000'

/** Sends are timed in slices of this many, the sides taking turns. */
const slice = 5

/** A signed-in game wallet page in a browser context of its own. */
type Player = {
  page: Page
  context: BrowserContext
  wallet: Address
  errors: Error[]
  /** Every popup the page opened, with the URLs its main frame showed. */
  popups: { page: Page; urls: string[] }[]
}

/**
 * Signs in through the popup the page opened on the emulated provider:
 * the login page's forms are filled from Node (the dev mailbox gives the
 * code, src/emulator/passport/identity/testkit.ts), then the popup is sent
 * where the provider redirects, the dApp's callback page.
 */
async function signInPopup(
  page: Page,
  context: BrowserContext,
  emulator: Emulator,
  email: string,
): Promise<void> {
  const issuer = emulator.info.passport.authenticationDomain
  const [popup, request] = await Promise.all([
    page.waitForEvent('popup', { timeout: 30_000 }),
    context.waitForEvent('request', {
      predicate: (request) =>
        request.url().startsWith(`${issuer}${paths.authorize}?`),
      timeout: 30_000,
    }),
  ])
  const browser = createBrowser(issuer)
  const start = await browser.get(request.url())
  const interaction = start.headers.get('location')
  if (start.status !== 303 || !interaction)
    throw new Error(`/authorize answered ${start.status}`)
  const resume = await signIn(browser, interaction, emulator.mailbox, email)
  const callback = (await browser.get(resume)).headers.get('location')
  if (!callback) throw new Error('The provider sent the browser nowhere.')
  // Let the popup's own navigation to the login page commit first, or it
  // may win over ours.
  await popup.waitForURL((url) => url.origin === new URL(issuer).origin)
  // The popup navigates itself, as the provider's redirect would: a
  // navigation from outside the page (the address bar's, Playwright's
  // `goto`) to another site cuts the popup off from its opener.
  await popup.evaluate((href) => {
    location.href = href
  }, callback)
}

/**
 * Opens `subject`'s page in a fresh context, signs a fresh player in,
 * registers and funds the wallet.
 */
async function connect(
  browser: Browser,
  site: Site,
  emulator: Emulator,
  subject: DappPage,
  options: {
    bridge?: boolean | undefined
    onDemand?: boolean | undefined
  } = {},
): Promise<Player> {
  const { info } = emulator
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    const errors: Error[] = []
    page.on('pageerror', (error) => errors.push(error))
    const popups: Player['popups'] = []
    page.on('popup', (popup) => {
      const urls: string[] = []
      popups.push({ page: popup, urls })
      popup.on('framenavigated', (frame) => {
        if (frame === popup.mainFrame()) urls.push(frame.url())
      })
    })
    await page.goto(site.url(subject))
    await page.waitForFunction(() => 'game' in window)
    const config: GameConfig = {
      authenticationDomain: info.passport.authenticationDomain,
      clientId: info.passport.clientId,
      overrides: info.passport.overrides,
      rpcUrl: info.rpcUrl,
      chainId: info.chainId,
      eoaKey,
      bridge: options.bridge,
      onDemand: options.onDemand,
    }
    await page.evaluate((config) => window.game.start(config), config)
    const email = `bench-${subject}-${crypto.randomUUID().slice(0, 8)}@example.com`
    const [wallet] = await Promise.all([
      page.evaluate(() => window.game.connect()),
      signInPopup(page, context, emulator, email),
    ])
    await fund(info.rpcUrl, wallet, 10n ** 18n)
    popups.length = 0
    return { page, context, wallet: getAddress(wallet), errors, popups }
  } catch (error) {
    await context.close()
    throw error
  }
}

/**
 * Checks that no signing request of `player` since `from` needed the
 * player: no popup it opened left the loading page (both SDKs open it
 * before asking the guardian, and close it when nothing needs confirming).
 * Answers how many popups were opened.
 */
function noConfirmation(player: Player, name: string, from: number): number {
  const opened = player.popups.slice(from)
  for (const { urls } of opened) {
    const shown = urls.filter(
      (url) =>
        url !== 'about:blank' &&
        new URL(url).pathname !== '/transaction-confirmation/loading',
    )
    if (shown.length > 0)
      throw new Error(`${name} asked the player to confirm: ${shown[0]}`)
  }
  return opened.length
}

/** A request of the page's, named by the emulated service and method. */
type Step = { what: string; start: number; end: number }

/** The emulated service each origin is, to name the requests. */
function servicesOf(info: Info): Map<string, string> {
  const { passport } = info
  const overrides = passport.overrides as Record<string, unknown>
  const named: [unknown, string][] = [
    [info.rpcUrl, 'rpc'],
    [passport.relayerUrl, 'relayer'],
    [passport.apiUrl, 'api'],
    [overrides.magicTeeBasePath, 'tee'],
    [passport.passportDomain, 'passport'],
    [passport.authenticationDomain, 'identity'],
  ]
  return new Map(
    named
      .filter(
        (entry): entry is [string, string] => typeof entry[0] === 'string',
      )
      .map(([url, name]) => [new URL(url).origin, name]),
  )
}

/** `service method` of a JSON-RPC request (a batch: its methods), else `service path`. */
function stepName(request: Request, services: Map<string, string>): string {
  const url = new URL(request.url())
  const service = services.get(url.origin) ?? url.origin
  const body = request.postData()
  try {
    const parsed = JSON.parse(body ?? '') as unknown
    const methods = (Array.isArray(parsed) ? parsed : [parsed])
      .map((call) => (call as { method?: unknown })?.method)
      .filter((method) => typeof method === 'string')
    if (methods.length > 0)
      return `${service} ${Array.isArray(parsed) ? `[${methods.join(',')}]` : methods[0]}`
  } catch {}
  return `${service} ${request.method()} ${url.pathname}`
}

/**
 * Sends through `player`, `count` times, recording the page's requests
 * (fetch and XHR alike, its popups' too) from the network's side: each
 * step's median duration over the sends, and its median start from the
 * request (`<step> @`), in ms.
 */
async function traceSends(
  player: Player,
  info: Info,
  count: number,
  to: Address,
): Promise<Record<string, number>> {
  const services = servicesOf(info)
  const seen: Step[] = []
  const record = (request: Request) => {
    const timing = request.timing()
    seen.push({
      what: stepName(request, services),
      start: timing.startTime,
      end: timing.startTime + timing.responseEnd,
    })
  }
  player.context.on('requestfinished', record)
  let spans: Span[]
  try {
    spans = await player.page.evaluate(
      ([count, to, value]) => window.game.traceSend(count, to, value),
      [count, to, value] as const,
    )
    // The last request's event may still be on its way.
    await player.page.waitForTimeout(200)
  } finally {
    player.context.off('requestfinished', record)
  }
  const durations = new Map<string, number[]>()
  const starts = new Map<string, number[]>()
  for (const span of spans) {
    const perSend = new Map<string, { duration: number; start: number }>()
    for (const step of seen) {
      if (step.start < span.start || step.start > span.end) continue
      const entry = perSend.get(step.what)
      perSend.set(step.what, {
        duration: (entry?.duration ?? 0) + step.end - step.start,
        start: entry?.start ?? step.start - span.start,
      })
    }
    for (const [what, { duration, start }] of perSend) {
      durations.set(what, [...(durations.get(what) ?? []), duration])
      starts.set(what, [...(starts.get(what) ?? []), start])
    }
  }
  const detail: Record<string, number> = {
    total: summarise(spans.map((span) => span.end - span.start)).p50,
  }
  const order = [...starts].sort(
    ([, a], [, b]) => summarise(a).p50 - summarise(b).p50,
  )
  for (const [what, samples] of order) {
    detail[`${what} @`] = summarise(samples).p50
    detail[what] = summarise(durations.get(what) ?? []).p50
  }
  return detail
}

function latencySide(
  name: string,
  role: Side['role'],
  samples: number[],
  detail?: Record<string, number>,
): Side {
  const stat = summarise(samples)
  return { name, role, value: stat.p50, stat, detail }
}

/** Every row of the game wallet. */
export async function gameWalletRows(options: {
  browser: Browser
  site: Site
  emulator: Emulator
  names: Names
  iterations: Iterations
}): Promise<Row[]> {
  const { browser, site, emulator, names, iterations } = options
  const info: Info = emulator.info
  const to = getAddress(toHex(crypto.getRandomValues(new Uint8Array(20))))
  const eoaName = 'EOA send (viem wallet client, local key)'
  const directName = 'viem http transport to the node'
  const batchedName = 'viem http transport to the node, `batch: true`'

  const ours = await connect(browser, site, emulator, 'gameOurs')
  let theirs: Player | undefined
  let onDemand: Player | undefined
  try {
    theirs = await connect(browser, site, emulator, 'gameTheirs')
    // Ours with `confirmationPopup: 'on-demand'`: no window for a send the
    // guardian lets through.
    onDemand = await connect(browser, site, emulator, 'gameOurs', {
      onDemand: true,
    })
    const players = { ours, theirs, onDemand }

    // Warm-up: the first send deploys each wallet; the EOA's warms viem.
    for (const player of [ours, theirs, onDemand])
      await player.page.evaluate(
        ([count, to, value]) => window.game.send(count, to, value),
        [iterations.sendWarmup, to, value] as const,
      )
    await ours.page.evaluate(
      ([count, to, value]) => window.game.sendEoa(count, to, value),
      [iterations.sendWarmup, to, value] as const,
    )
    const marks = { ours: ours.popups.length, theirs: theirs.popups.length }

    const sends = {
      ours: [] as number[],
      theirs: [] as number[],
      onDemand: [] as number[],
    }
    const eoa: number[] = []
    for (let done = 0; done < iterations.sends; done += slice) {
      const count = Math.min(slice, iterations.sends - done)
      for (const key of ['ours', 'theirs', 'onDemand'] as const)
        sends[key].push(
          ...(await players[key].page.evaluate(
            ([count, to, value]) => window.game.send(count, to, value),
            [count, to, value] as const,
          )),
        )
      eoa.push(
        ...(await ours.page.evaluate(
          ([count, to, value]) => window.game.sendEoa(count, to, value),
          [count, to, value] as const,
        )),
      )
    }
    const traced = {
      ours: await traceSends(ours, info, iterations.traced, to),
      theirs: await traceSends(theirs, info, iterations.traced, to),
      onDemand: await traceSends(onDemand, info, iterations.traced, to),
    }

    const signs = { ours: [] as number[], theirs: [] as number[] }
    for (const key of ['ours', 'theirs'] as const)
      await players[key].page.evaluate(() => window.game.sign(1))
    for (let done = 0; done < iterations.signs; done += slice) {
      const count = Math.min(slice, iterations.signs - done)
      for (const key of ['ours', 'theirs'] as const)
        signs[key].push(
          ...(await players[key].page.evaluate(
            (count) => window.game.sign(count),
            count,
          )),
        )
    }
    const popups = {
      ours: noConfirmation(ours, names.ours, marks.ours),
      theirs: noConfirmation(theirs, names.theirs, marks.theirs),
    }

    // Ours, viem straight to the node (both ways) and the published SDK's
    // provider, taking turns round by round.
    const readers = [
      { key: 'wallet', page: ours.page, via: 'wallet' },
      { key: 'direct', page: ours.page, via: 'direct' },
      { key: 'batched', page: ours.page, via: 'batched' },
      { key: 'published', page: theirs.page, via: 'wallet' },
    ] as const
    const reads = {
      wallet: [] as number[],
      direct: [] as number[],
      batched: [] as number[],
      published: [] as number[],
    }
    for (const { page, via } of readers)
      await page.evaluate(([count, via]) => window.game.reads(count, 1, via), [
        iterations.reads,
        via,
      ] as const)
    for (let round = 0; round < iterations.readRounds; round++)
      for (const { key, page, via } of readers)
        reads[key].push(
          ...(await page.evaluate(
            ([count, via]) => window.game.reads(count, 1, via),
            [iterations.reads, via] as const,
          )),
        )
    for (const player of [ours, theirs, onDemand])
      if (player.errors.length > 0) throw player.errors[0]
    if (onDemand.popups.length > 0)
      throw new Error(
        'The on-demand popup opened for a send with nothing to confirm.',
      )

    // The game bridge mode (`crossSdkBridgeEnabled`, as game engines embed
    // the wallet) never opens the confirmation popup: what a send costs
    // without that window, beside EOA sends from the same page.
    const bridge = await connect(browser, site, emulator, 'gameOurs', {
      bridge: true,
    })
    const bridged = { ours: [] as number[], eoa: [] as number[] }
    try {
      await bridge.page.evaluate(
        ([count, to, value]) => window.game.send(count, to, value),
        [iterations.sendWarmup, to, value] as const,
      )
      await bridge.page.evaluate(
        ([count, to, value]) => window.game.sendEoa(count, to, value),
        [iterations.sendWarmup, to, value] as const,
      )
      for (let done = 0; done < iterations.sends; done += slice) {
        const count = Math.min(slice, iterations.sends - done)
        bridged.ours.push(
          ...(await bridge.page.evaluate(
            ([count, to, value]) => window.game.send(count, to, value),
            [count, to, value] as const,
          )),
        )
        bridged.eoa.push(
          ...(await bridge.page.evaluate(
            ([count, to, value]) => window.game.sendEoa(count, to, value),
            [count, to, value] as const,
          )),
        )
      }
      if (bridge.popups.length > 0)
        throw new Error('The bridge mode opened a popup.')
      if (bridge.errors.length > 0) throw bridge.errors[0]
    } finally {
      await bridge.context.close()
    }

    const sendTitle =
      '`eth_sendTransaction` of a small transfer on Anvil, deployed wallet, request to receipt'
    return [
      row(
        {
          group: 'game-wallet',
          id: 'game.send.eoa',
          title: `${sendTitle}, eager confirmation popup (the default): ours vs a plain EOA send`,
          unit: 'ms',
          sides: [
            latencySide(names.ours, 'ours', sends.ours, traced.ours),
            latencySide(eoaName, 'theirs', eoa),
          ],
        },
        (ours, eoa) => ({
          text: `ours ${(ours.value / eoa.value).toFixed(2)}× the EOA send ≤ 5×`,
          pass: ours.value <= 5 * eoa.value,
        }),
      ),
      row(
        {
          group: 'game-wallet',
          id: 'game.send.on-demand',
          title: `${sendTitle}, \`confirmationPopup: 'on-demand'\` (no popup unless the guardian asks): ours vs a plain EOA send`,
          unit: 'ms',
          sides: [
            latencySide(
              `${names.ours}, on demand`,
              'ours',
              sends.onDemand,
              traced.onDemand,
            ),
            latencySide(eoaName, 'theirs', eoa),
          ],
        },
        (ours, eoa) => ({
          text: `on demand ${(ours.value / eoa.value).toFixed(2)}× the EOA send ≤ 3×`,
          pass: ours.value <= 3 * eoa.value,
        }),
      ),
      row({
        group: 'game-wallet',
        id: 'game.send.on-demand-published',
        title: `${sendTitle}: ours on demand vs the published SDK (eager)`,
        unit: 'ms',
        sides: [
          latencySide(`${names.ours}, on demand`, 'ours', sends.onDemand),
          latencySide(names.theirs, 'theirs', sends.theirs, traced.theirs),
        ],
      }),
      row({
        group: 'game-wallet',
        id: 'game.send.bridge',
        title: `${sendTitle}, game bridge mode (\`crossSdkBridgeEnabled\`: no confirmation popup): ours vs a plain EOA send`,
        unit: 'ms',
        sides: [
          latencySide(names.ours, 'ours', bridged.ours),
          latencySide(eoaName, 'theirs', bridged.eoa),
        ],
      }),
      row({
        group: 'game-wallet',
        id: 'game.send.published',
        title: `${sendTitle}: ours vs the published SDK`,
        unit: 'ms',
        sides: [
          latencySide(names.ours, 'ours', sends.ours, traced.ours),
          latencySide(names.theirs, 'theirs', sends.theirs, traced.theirs),
        ],
      }),
      row({
        group: 'game-wallet',
        id: 'game.personalSign',
        title: '`personal_sign` of a short text, deployed wallet',
        unit: 'ms',
        sides: [
          // Popups opened over the sends and signs: the loading page, each
          // closed again with nothing to confirm.
          latencySide(names.ours, 'ours', signs.ours, {
            popups: popups.ours,
          }),
          latencySide(names.theirs, 'theirs', signs.theirs, {
            popups: popups.theirs,
          }),
        ],
      }),
      row(
        {
          group: 'game-wallet',
          id: 'game.reads.parallel',
          title: `${iterations.reads} \`eth_getBalance\` at once: all answered`,
          unit: 'ms',
          sides: [
            latencySide(names.ours, 'ours', reads.wallet),
            latencySide(directName, 'theirs', reads.direct),
          ],
        },
        (ours, direct) => ({
          text: `${(ours.value / direct.value).toFixed(2)}× viem direct ≤ 1.2×`,
          pass: ours.value <= 1.2 * direct.value,
        }),
      ),
      // The same against viem with batching on, as our provider batches
      // (the published SDK's chain client does too): the fair comparison
      // of the transports themselves, beside the issue's.
      row({
        group: 'game-wallet',
        id: 'game.reads.parallel-batched',
        title: `${iterations.reads} \`eth_getBalance\` at once, against viem batching too: all answered`,
        unit: 'ms',
        sides: [
          latencySide(names.ours, 'ours', reads.wallet),
          latencySide(batchedName, 'theirs', reads.batched),
        ],
      }),
      row({
        group: 'game-wallet',
        id: 'game.reads.published',
        title: `${iterations.reads} \`eth_getBalance\` at once through the wallet's provider: ours vs the published SDK`,
        unit: 'ms',
        sides: [
          latencySide(names.ours, 'ours', reads.wallet),
          latencySide(names.theirs, 'theirs', reads.published),
        ],
      }),
    ]
  } finally {
    await ours.context.close()
    await theirs?.context.close()
    await onDemand?.context.close()
  }
}
