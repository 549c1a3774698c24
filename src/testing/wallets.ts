/**
 * The person in front of the page under test, for Playwright: types the
 * mailbox's codes into the iframe wallet's screens and the identity
 * provider's login page, approves or rejects the guardian's confirmation
 * popup, blocks popups or closes the next one. Each helper drives the
 * emulator's own pages, so it works the same for a dApp built on this
 * package and for one built on the published `magic-sdk` or
 * `@imtbl/passport`: both load those pages.
 *
 * @packageDocumentation
 */
import type { Frame, Page } from '@playwright/test'
import { normalizeContact } from '../emulator/contact.js'
import { type TestKit, TestKitError } from './kit.js'
import { totp } from './totp.js'
import { type Probe, waitFor } from './wait.js'

/** A user made by {@link Wallets.newUser}: an address and a phone number no other test uses. */
export type TestUser = {
  /** An email address on `example.com`, unique to the worker and the test. */
  readonly email: string
  /** An E.164 phone number (`+1555…`), unique to the worker and the test. */
  readonly phone: string
}

/** Options of the helpers that wait. */
export type WaitOptions = {
  /** How long each step may take, ms. @default 15000 */
  timeoutMs?: number | undefined
}

/** The helpers of the `wallets` fixture. */
export type Wallets = {
  /**
   * A new user's email and phone number, unique to this worker and test
   * (nothing about them exists in the emulator until the user logs in).
   *
   * @example
   * ```ts
   * const user = wallets.newUser() // { email: 'user-w0-1-…@example.com', phone: '+1555…' }
   * ```
   */
  newUser(options?: { label?: string | undefined }): TestUser
  /** The iframe wallet's screens (the emulator's `/send` page in the dApp's iframe). */
  readonly magic: {
    /**
     * Finishes a login the dApp started with `loginWithEmailOTP`,
     * `loginWithSMS` (with the wallet's UI) or `wallet.connectWithUI()`
     * (the email typed into the wallet's own login screen): reads the code
     * from the mailbox, types it into the iframe's code screen, answers the MFA
     * screen with the authenticator's code when the user has MFA (its
     * secret from {@link Wallets.magic.enableMfa} or `mfaSecret`), and
     * waits until the wallet hides its screen.
     *
     * @example
     * ```ts
     * await page.getByRole('button', { name: 'Log in' }).click()
     * await wallets.magic.completeLogin(page, { email: user.email })
     * ```
     *
     * @throws {WaitTimeoutError} When a screen does not come, naming the
     *   screen awaited and the wallet's screens seen last.
     * @throws {TestKitError} When the wallet refuses the code.
     */
    completeLogin(
      page: Page,
      who: { email: string } | { phone: string },
      options?: WaitOptions & { mfaSecret?: string | undefined },
    ): Promise<void>
    /**
     * Finishes an MFA setup the dApp started with `user.enableMFA()`:
     * reads the secret off the setup screen, types its current code, and
     * closes the recovery codes screen. The secret is remembered for the
     * user's next {@link Wallets.magic.completeLogin}.
     *
     * @example
     * ```ts
     * await page.getByRole('button', { name: 'Enable MFA' }).click()
     * const { secret, recoveryCodes } = await wallets.magic.enableMfa(page)
     * ```
     *
     * @returns The secret (base32) and the recovery codes shown.
     */
    enableMfa(
      page: Page,
      options?: WaitOptions,
    ): Promise<{ secret: string; recoveryCodes: readonly string[] }>
  }
  /** The game wallet's pages: the identity provider's login and the guardian's confirmation. */
  readonly passport: {
    /**
     * Finishes a sign-in the dApp started with `login()` (the login popup)
     * or `login({ useRedirectFlow: true })` (this page goes to the
     * provider): types the email and the mailbox's code into the
     * provider's login page, then waits until the popup is closed, or until
     * the page is back at the dApp's redirect URI.
     *
     * @example
     * ```ts
     * await page.getByRole('button', { name: 'Sign in' }).click()
     * await wallets.passport.completeLogin(page, { email: user.email })
     * ```
     *
     * @throws {WaitTimeoutError} Naming the step awaited and the login
     *   page's address and message seen last.
     */
    completeLogin(
      page: Page,
      who: { email: string },
      options?: WaitOptions,
    ): Promise<void>
    /**
     * Approves the request shown in the guardian's confirmation popup the
     * dApp's signing request opened, once the popup lets the player
     * decide; resolves when the decision is recorded.
     *
     * @example
     * ```ts
     * await page.getByRole('button', { name: 'Send' }).click()
     * await wallets.passport.approve(page)
     * ```
     */
    approve(page: Page, options?: WaitOptions): Promise<void>
    /** Rejects it, as {@link Wallets.passport.approve} approves it. */
    reject(page: Page, options?: WaitOptions): Promise<void>
  }
  /**
   * From now on `window.open` in `page` returns `null`, as when a popup
   * blocker stops it (for the rest of the page's life, reloads included).
   *
   * @example
   * ```ts
   * await wallets.blockPopups(page)
   * await page.getByRole('button', { name: 'Sign in' }).click() // the SDK's popup-blocked error
   * ```
   */
  blockPopups(page: Page): Promise<void>
  /**
   * The next popup `page` opens is closed by the user once it has loaded
   * its page (the SDK then reports the popup closed).
   *
   * @example
   * ```ts
   * await wallets.closeNextPopup(page)
   * await page.getByRole('button', { name: 'Sign in' }).click()
   * ```
   */
  closeNextPopup(page: Page, options?: WaitOptions): Promise<void>
}

/** The mailbox kinds of the codes the helpers read. */
const codeKinds = {
  email: 'email-otp',
  phone: 'sms-otp',
  passport: 'passport-email-otp',
} as const

const defaultTimeoutMs = 15_000

/** Users made per worker process, for unique addresses. */
let usersMade = 0

/**
 * The helpers over the pages of a test, against the emulator `kit` talks
 * to. `worker` (the worker's parallel index) goes into the users'
 * addresses with a serial number of this process, so a user never collides
 * with another worker's or another test's.
 *
 * @example
 * ```ts
 * const wallets = createWallets({ kit, worker: testInfo.parallelIndex })
 * ```
 */
export function createWallets(options: {
  kit: TestKit
  worker: number
}): Wallets {
  const { kit, worker } = options
  const { info } = kit
  /** MFA secrets by the contact they were set up for (normalised). */
  const mfaSecrets = new Map<string, string>()

  const magicOrigin = new URL(info.magic.endpoint).origin
  const authOrigin = new URL(info.passport.authenticationDomain).origin
  const confirmationOrigin = new URL(info.passport.passportDomain).origin

  /** The iframe wallet's frames on `page` (one per SDK instance). */
  const magicFrames = (page: Page) =>
    page.frames().filter((frame) => {
      const url = safeUrl(frame.url())
      return url?.origin === magicOrigin && url.pathname === '/send'
    })

  /** What one wallet frame shows: its screen, visible or not, and its error line. */
  async function frameState(frame: Frame) {
    const element = await frame.frameElement()
    const visible = await element.isVisible()
    const { screen, error } = await frame.evaluate(() => {
      const root = document.querySelector<HTMLElement>('[data-screen]')
      const error = document.querySelector('[data-testid$="-error"]')
      return {
        screen: root?.dataset.screen ?? '',
        error: error?.textContent?.trim() ?? '',
      }
    })
    return { visible, screen, error }
  }

  /** The wallet's screens on `page` in words, for a time-out's message. */
  async function describeFrames(frames: readonly Frame[]) {
    if (frames.length === 0)
      return `no iframe of the wallet (${magicOrigin}/send) on the page`
    const states = await Promise.all(
      frames.map((frame) => frameState(frame).catch(() => undefined)),
    )
    return states
      .map((state) =>
        state === undefined
          ? 'a wallet iframe going away'
          : `a ${state.visible ? 'shown' : 'hidden'} wallet iframe on ${state.screen ? `its ${state.screen} screen` : 'no screen'}${state.error ? ` saying "${state.error}"` : ''}`,
      )
      .join(', ')
  }

  /** Waits for a shown wallet frame on one of `screens`. */
  function shownScreen(
    page: Page,
    screens: readonly string[],
    timeoutMs: number,
  ) {
    return waitFor(
      `shown ${screens.join(' or ')} screen of the iframe wallet`,
      timeoutMs,
      async (): Promise<Probe<{ frame: Frame; screen: string }>> => {
        const frames = magicFrames(page)
        for (const frame of frames) {
          const state = await frameState(frame).catch(() => undefined)
          if (state?.visible && screens.includes(state.screen))
            return { value: { frame, screen: state.screen } }
        }
        return { saw: await describeFrames(frames) }
      },
    )
  }

  /**
   * The services' time: the authenticator's code must be the one for the
   * time the wallet checks it at, which a test may have moved forward
   * (`GET /clock` on the dev origin). An emulator without that route runs
   * on the real time.
   */
  async function servicesNow(): Promise<Date> {
    const devOrigin = info.mailbox.replace(/\/mailbox$/, '')
    try {
      const response = await fetch(`${devOrigin}/clock`)
      if (response.ok) {
        const { now } = (await response.json()) as { now?: unknown }
        const at = typeof now === 'string' ? new Date(now) : undefined
        if (at && !Number.isNaN(at.getTime())) return at
      }
    } catch {
      // No clock route: the real time.
    }
    return new Date()
  }

  /** The current code of `secret`, at the services' time. */
  async function mfaCode(secret: string) {
    return totp(secret, await servicesNow())
  }

  async function answerMfa(frame: Frame, secret: string | undefined) {
    if (secret === undefined)
      throw new TestKitError(
        'The iframe wallet asks for an MFA code, and no secret is known for this user: enable MFA with wallets.magic.enableMfa(page), or pass { mfaSecret }.',
      )
    await frame.getByTestId('mfa-code-input').fill(await mfaCode(secret))
    await frame.getByTestId('mfa-code-submit').click()
  }

  const magic: Wallets['magic'] = {
    async completeLogin(page, who, options = {}) {
      const { timeoutMs = defaultTimeoutMs } = options
      const byEmail = 'email' in who
      const to = normalizeContact(byEmail ? who.email : who.phone)
      const screen = byEmail ? codeKinds.email : codeKinds.phone
      // `connectWithUI()` (the wagmi connector's default) shows the
      // wallet's own login screen first, where the person types the email.
      const shown = await shownScreen(
        page,
        byEmail ? ['login', screen] : [screen],
        timeoutMs,
      )
      let { frame } = shown
      if (shown.screen === 'login') {
        await frame.getByTestId('login-email-input').fill(to)
        await frame.getByTestId('login-email-submit').click()
        ;({ frame } = await shownScreen(page, [screen], timeoutMs))
      }
      // The screen shows once the code is delivered: the newest code is
      // this login's.
      const code = await kit.waitForCode(to, { kind: screen, timeoutMs })
      await frame.getByTestId(`${screen}-input`).fill(code)
      await frame.getByTestId(`${screen}-submit`).click()
      const secret = options.mfaSecret ?? mfaSecrets.get(to)
      let mfaAnswered = false
      await waitFor(
        `end of the iframe wallet's login of ${to}`,
        timeoutMs,
        async (): Promise<Probe<true>> => {
          const state = await frameState(frame)
          if (!state.visible || state.screen === '') return { value: true }
          if (state.screen === screen && state.error)
            throw new TestKitError(
              `The iframe wallet refused the code ${code} for ${to}: "${state.error}"`,
            )
          if (state.screen === 'mfa-code') {
            if (state.error && mfaAnswered)
              throw new TestKitError(
                `The iframe wallet refused the MFA code for ${to}: "${state.error}"`,
              )
            if (!mfaAnswered) {
              mfaAnswered = true
              await answerMfa(frame, secret)
            }
          }
          return { saw: await describeFrames([frame]) }
        },
      )
    },

    async enableMfa(page, options = {}) {
      const { timeoutMs = defaultTimeoutMs } = options
      const { frame } = await shownScreen(page, ['enable-mfa'], timeoutMs)
      const secret = (
        (await frame.getByTestId('mfa-secret').textContent()) ?? ''
      ).trim()
      const uri = (await frame.getByTestId('mfa-uri').textContent()) ?? ''
      await frame.getByTestId('mfa-code-input').fill(await mfaCode(secret))
      await frame.getByTestId('mfa-code-submit').click()
      const codes = frame.getByTestId('mfa-recovery-codes')
      await waitFor(
        "iframe wallet's recovery codes",
        timeoutMs,
        async (): Promise<Probe<true>> =>
          (await codes.isVisible())
            ? { value: true }
            : { saw: await describeFrames([frame]) },
      )
      const recoveryCodes = await codes.evaluate((list) =>
        [...list.children].map((item) => item.textContent?.trim() ?? ''),
      )
      // The otpauth URI's label is the user's email or phone number.
      const label = decodeURIComponent(
        safeUrl(uri)?.pathname.split(':').at(-1) ?? '',
      )
      if (label !== '') mfaSecrets.set(normalizeContact(label), secret)
      await frame.getByTestId('mfa-done').click()
      return { secret, recoveryCodes }
    },
  }

  /** The provider's login page: this page (a redirect) or a popup of its context. */
  function loginPage(page: Page, timeoutMs: number) {
    return waitFor(
      `login page of the identity provider (${authOrigin}) in the page or a popup`,
      timeoutMs,
      async (): Promise<Probe<Page>> => {
        const pages = [
          page,
          ...page
            .context()
            .pages()
            .filter((other) => other !== page),
        ]
        const found = pages.find(
          (candidate) =>
            !candidate.isClosed() &&
            safeUrl(candidate.url())?.origin === authOrigin,
        )
        if (found) return { value: found }
        // The published @imtbl/passport asks for the login method in an
        // iframe of the provider first, a hosted page with no emulated
        // counterpart: the sign-in would wait for it forever.
        const prompt = page.frames().find((frame) => {
          const url = safeUrl(frame.url())
          return (
            url?.origin === authOrigin &&
            url.pathname === '/im-embedded-login-prompt'
          )
        })
        if (prompt)
          throw new TestKitError(
            'The published @imtbl/passport shows its embedded login prompt, a hosted page the emulator does not serve: set popupOverlayOptions: { disableHeadlessLoginPromptOverlay: true } in its configuration.',
          )
        return {
          saw: `pages at ${pages
            .filter((candidate) => !candidate.isClosed())
            .map((candidate) => candidate.url())
            .join(', ')}`,
        }
      },
    )
  }

  /** What the login page shows, for a time-out's message. */
  async function loginState(login: Page) {
    if (login.isClosed()) return 'the login popup closed'
    const error = login.getByTestId('error')
    const message = (await error.count())
      ? ` saying "${(await error.first().textContent())?.trim()}"`
      : ''
    return `${login.url()}${message}`
  }

  /** Waits until the login page shows the field `testId`. */
  function loginField(login: Page, testId: string, timeoutMs: number) {
    return waitFor(
      `${testId} field on the identity provider's login page`,
      timeoutMs,
      async (): Promise<Probe<true>> =>
        !login.isClosed() && (await login.getByTestId(testId).isVisible())
          ? { value: true }
          : { saw: await loginState(login) },
    )
  }

  /** The confirmation popup waiting for a decision. */
  function confirmationPopup(page: Page, timeoutMs: number) {
    return waitFor(
      "guardian's confirmation popup ready for a decision",
      timeoutMs,
      async (): Promise<Probe<Page>> => {
        const popups = page
          .context()
          .pages()
          .filter((candidate) => {
            const url = safeUrl(candidate.url())
            return (
              !candidate.isClosed() &&
              url?.origin === confirmationOrigin &&
              url.pathname.startsWith('/transaction-confirmation/')
            )
          })
        const seen: string[] = []
        for (const popup of popups) {
          const approve = popup.getByTestId('confirmation-approve')
          if ((await approve.count()) && (await approve.isEnabled()))
            return { value: popup }
          seen.push(await confirmationState(popup))
        }
        return {
          saw:
            seen.length === 0
              ? 'no confirmation popup open'
              : `confirmation popups at ${seen.join(', ')}`,
        }
      },
    )
  }

  async function confirmationState(popup: Page) {
    const path = safeUrl(popup.url())?.pathname ?? popup.url()
    const status = popup.getByTestId('confirmation-status')
    const text = (await status.count())
      ? ((await status.textContent()) ?? '').trim()
      : ''
    return text ? `${path} ("${text}")` : path
  }

  async function decide(
    page: Page,
    decision: 'approve' | 'reject',
    options: WaitOptions,
  ) {
    const { timeoutMs = defaultTimeoutMs } = options
    const popup = await confirmationPopup(page, timeoutMs)
    await popup.getByTestId(`confirmation-${decision}`).click()
    const done = decision === 'approve' ? 'Approved.' : 'Rejected.'
    await waitFor(
      `"${done}" in the guardian's confirmation popup`,
      timeoutMs,
      async (): Promise<Probe<true>> => {
        // The wallet may close the popup as soon as it hears the decision.
        if (popup.isClosed()) return { value: true }
        const status = (
          (await popup.getByTestId('confirmation-status').textContent()) ?? ''
        ).trim()
        if (status === done) return { value: true }
        if (status.startsWith('Something went wrong'))
          throw new TestKitError(
            `The confirmation popup could not ${decision}: "${status}"`,
          )
        return { saw: await confirmationState(popup) }
      },
    )
  }

  return {
    newUser(options = {}) {
      const label =
        (options.label ?? '')
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .replace(/^-+|-+$/g, '')
          .slice(0, 32) || 'user'
      const serial = ++usersMade
      const random = crypto.getRandomValues(new Uint32Array(1))[0] ?? 0
      const nonce = random.toString(36).padStart(7, '0').slice(-7)
      // +1 555 then the worker (2 digits), the serial (4) and a random
      // tail (3): 15 digits at most, as E.164 allows.
      const phone = `+1555${String(worker % 100).padStart(2, '0')}${String(serial % 10_000).padStart(4, '0')}${String(random % 1000).padStart(3, '0')}`
      return {
        email: `${label}-w${worker}-${serial}-${nonce}@example.com`,
        phone,
      }
    },

    magic,

    passport: {
      async completeLogin(page, who, options = {}) {
        const { timeoutMs = defaultTimeoutMs } = options
        const email = normalizeContact(who.email)
        const login = await loginPage(page, timeoutMs)
        const inPopup = login !== page
        await loginField(login, 'login-email', timeoutMs)
        await login.getByTestId('login-email').fill(email)
        await login.getByTestId('login-send-code').click()
        await loginField(login, 'login-code', timeoutMs)
        // The code form shows once the code is delivered: the newest code
        // is this sign-in's.
        const code = await kit.waitForCode(email, {
          kind: codeKinds.passport,
          timeoutMs,
        })
        await login.getByTestId('login-code').fill(code)
        await login.getByTestId('login-verify').click()
        await waitFor(
          inPopup
            ? 'close of the login popup after the sign-in'
            : "return from the identity provider's login page to the dApp",
          timeoutMs,
          async (): Promise<Probe<true>> => {
            if (inPopup ? login.isClosed() : !isOn(login, authOrigin))
              return { value: true }
            if (isOn(login, authOrigin)) {
              const error = login.getByTestId('error')
              if (await error.count())
                throw new TestKitError(
                  `The identity provider refused the sign-in of ${email}: "${(await error.first().textContent())?.trim()}"`,
                )
            }
            return { saw: await loginState(login) }
          },
        )
      },
      approve: (page, options = {}) => decide(page, 'approve', options),
      reject: (page, options = {}) => decide(page, 'reject', options),
    },

    async blockPopups(page) {
      const block = () => {
        window.open = () => null
      }
      // Every document from now on, frames included, and those already
      // loaded.
      await page.addInitScript(block)
      await Promise.all(
        page.frames().map((frame) => frame.evaluate(block).catch(() => {})),
      )
    },

    async closeNextPopup(page, options = {}) {
      const { timeoutMs = defaultTimeoutMs } = options
      page.once('popup', (popup) => {
        // As a person does: once the popup shows its page (an SDK may open
        // it blank and send it on), not while it is being opened.
        void popup
          .waitForURL((url) => url.protocol !== 'about:', {
            waitUntil: 'domcontentloaded',
            timeout: timeoutMs,
          })
          .catch(() => undefined)
          .then(() => popup.close())
          .catch(() => undefined)
      })
    },
  }
}

function safeUrl(url: string): URL | undefined {
  try {
    return new URL(url)
  } catch {
    return undefined
  }
}

function isOn(page: Page, origin: string): boolean {
  return !page.isClosed() && safeUrl(page.url())?.origin === origin
}
