import type { MagicInstance } from 'embedded-wallets/connectors'

/**
 * Where the page's own email-code login is. The connector runs it (its
 * `login` option) and the page's form answers it.
 */
export type EmailLoginState =
  | { step: 'idle' }
  | { step: 'sending'; email: string }
  /** The code is in the mailbox; `problem` tells why it is asked again. */
  | { step: 'code'; email: string; problem?: 'invalid' | 'expired' }
  | { step: 'checking'; email: string }
  /** A known user on a new device: approve it through the emailed link. */
  | { step: 'device'; email: string }

/** How the next `connect` of the iframe wallet's connector logs in. */
export type LoginChoice =
  | { kind: 'email'; email: string }
  /** The wallet's own login screens (`magic.wallet.connectWithUI()`). */
  | { kind: 'screens' }

/** The login events the page logs (those of `loginWithEmailOTP`). */
const loggedEvents = [
  'email-otp-sent',
  'invalid-email-otp',
  'expired-email-otp',
  'login-throttled',
  'max-attempts-reached',
  'device-needs-approval',
  'device-verification-email-sent',
  'device-approved',
  'device-verification-link-expired',
  'done',
  'error',
] as const

/** How `connect` fails when the user cancelled the page's email login. */
export class LoginCancelled extends Error {
  override name = 'LoginCancelled'
  constructor() {
    super('The login was cancelled.')
  }
}

/** The email-code login; see {@link createEmailLogin}. */
export type EmailLogin = ReturnType<typeof createEmailLogin>

/**
 * The bridge between the connector's `login` option, which wagmi's
 * `connect` calls with the connector's client, and the page's form: the
 * page says how to log in (`choose`), then calls `connect`; `login` runs
 * the email-code flow headless (`showUI: false`) and waits for the code the
 * form submits, or opens the wallet's own screens.
 */
export function createEmailLogin() {
  let state: EmailLoginState = { step: 'idle' }
  let choice: LoginChoice = { kind: 'screens' }
  let answer: { code(code: string): void; cancel(): void } | undefined
  let cancelled = false
  const listeners = new Set<() => void>()
  const eventListeners = new Set<
    (event: string, args: readonly unknown[]) => void
  >()
  const set = (next: EmailLoginState) => {
    state = next
    for (const listener of [...listeners]) listener()
  }

  async function loginWithEmail(instance: MagicInstance, email: string) {
    set({ step: 'sending', email })
    const handle = instance.auth.loginWithEmailOTP({ email, showUI: false })
    for (const event of loggedEvents)
      handle.on(
        event as never,
        ((...args: unknown[]) => {
          for (const listener of [...eventListeners]) listener(event, args)
        }) as never,
      )
    answer = {
      code(code) {
        set({ step: 'checking', email })
        handle.emit('verify-email-otp', code)
      },
      cancel() {
        cancelled = true
        handle.emit('cancel')
      },
    }
    handle.on('email-otp-sent', () => set({ step: 'code', email }))
    handle.on('invalid-email-otp', () =>
      set({ step: 'code', email, problem: 'invalid' }),
    )
    handle.on('expired-email-otp', () =>
      set({ step: 'code', email, problem: 'expired' }),
    )
    handle.on('device-needs-approval', () => set({ step: 'device', email }))
    await handle
  }

  return {
    /** The current step, for `useSyncExternalStore`. */
    getState: () => state,
    subscribe(listener: () => void) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
    /** Calls `listener` with each event of an email login, for a log. */
    watchEvents(listener: (event: string, args: readonly unknown[]) => void) {
      eventListeners.add(listener)
      return () => {
        eventListeners.delete(listener)
      }
    },
    /** How the next `connect` logs in; it falls back to the screens after. */
    choose(next: LoginChoice) {
      choice = next
    },
    /** Submits the code the user typed. */
    submitCode(code: string) {
      answer?.code(code)
    },
    /**
     * Abandons the running email login: `connect` rejects with
     * {@link LoginCancelled}.
     */
    cancel() {
      answer?.cancel()
    },
    /** The connector's `login` option. */
    async login(instance: MagicInstance): Promise<void> {
      const chosen = choice
      choice = { kind: 'screens' }
      cancelled = false
      try {
        if (chosen.kind === 'email')
          await loginWithEmail(instance, chosen.email)
        else await instance.wallet.connectWithUI()
      } catch (error) {
        // The wallet answers a cancel with its "user cancelled" error, which
        // the connector would report as a rejection: the page asked for it.
        if (cancelled) throw new LoginCancelled()
        throw error
      } finally {
        answer = undefined
        set({ step: 'idle' })
      }
    },
  }
}
