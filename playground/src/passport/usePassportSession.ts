import type { PassportEvents, UserProfile } from 'embedded-wallets/passport'
import { useCallback, useEffect, useRef, useState } from 'react'
import type { LogEntry } from '../components/EventLog.js'
import { useFailures } from '../ui/errors.js'
import { messageOf, toJson } from '../ui/format.js'
import type { LogoutMode, Passports } from './config.js'
import { appendEvent, clearEvents, loadEvents } from './events.js'

/** The signed-in user as the panel shows it. */
export type SignedInUser = {
  profile: UserProfile
  idToken: string | undefined
  accessToken: string | undefined
}

/** What the panel knows about the session. */
export type SessionState =
  | { status: 'loading' }
  | { status: 'signed-out' }
  | { status: 'signed-in'; user: SignedInUser }

/** The last action's result. */
export type Output = { label: string; value: string }

/**
 * Runs one of the panel's actions (see {@link usePassportSession}); `flow`
 * names the sign-in it runs, if any, for the log.
 */
export type Run = (
  what: string,
  action: () => Promise<unknown>,
  flow?: SignInFlow | undefined,
) => Promise<void>

/** The sign-in flows the panel runs, as its log names them. */
export type SignInFlow =
  | 'popup'
  | 'redirect'
  | 'device code'
  | 'PKCE'
  | 'cached session'
  | 'refresh'

/**
 * The game-wallet panel's state: the session (read through the facade's
 * getters, again after each action and on `loggedIn` / `loggedOut`), the
 * running action, its result, and the event log of both Passport instances
 * (kept across page loads, see events.ts). Failures go to the page's error
 * banner. A result never outlives the session it came from: the session
 * ending, or another action starting, clears it.
 */
export function usePassportSession(passports: Passports) {
  const [session, setSession] = useState<SessionState>({ status: 'loading' })
  const [busy, setBusy] = useState<string>()
  const [output, setOutput] = useState<Output>()
  const [log, setLog] = useState<readonly LogEntry[]>(loadEvents)
  const { report, clear } = useFailures('passport')
  // Whether the last reading found a user: a result is dropped when that
  // session ends, not when a signed-out page stays signed out.
  const signedIn = useRef(false)
  // The sign-in running, so that its `loggedIn` is logged by its kind: both
  // instances emit the same event whichever flow signed in.
  const flow = useRef<SignInFlow | undefined>(undefined)
  const signedOut = useCallback(() => {
    if (signedIn.current) setOutput(undefined)
    signedIn.current = false
    setSession({ status: 'signed-out' })
  }, [])

  // Stored at once, not in an effect: a redirect logout emits `loggedOut`
  // and leaves the page in the same turn.
  const record = useCallback(
    (source: string, event: string, summary?: string, detail?: unknown) => {
      appendEvent(source, event, summary, detail)
      setLog(loadEvents())
    },
    [],
  )
  const clearLog = useCallback(() => {
    clearEvents()
    setLog([])
  }, [])

  const reload = useCallback(async () => {
    const passport = passports.redirect
    try {
      const profile = await passport.getUserInfo()
      if (!profile) {
        signedOut()
        return
      }
      const [idToken, accessToken] = await Promise.all([
        passport.getIdToken(),
        passport.getAccessToken(),
      ])
      signedIn.current = true
      setSession({
        status: 'signed-in',
        user: { profile, idToken, accessToken },
      })
    } catch (failure) {
      report('Reading the session', failure)
      signedOut()
    }
  }, [passports, report, signedOut])

  useEffect(() => {
    const removers: (() => void)[] = []
    for (const [mode, passport] of Object.entries(passports) as [
      LogoutMode,
      Passports[LogoutMode],
    ][]) {
      const on = <event extends keyof PassportEvents>(
        event: event,
        listener: PassportEvents[event],
      ) => {
        passport.on(event, listener)
        removers.push(() => passport.removeListener(event, listener))
      }
      // Outside a sign-in of the panel, an event is named by its instance.
      const source = () => `passport (${flow.current ?? `${mode} instance`})`
      on('loggedIn', (user) => {
        record(
          source(),
          'loggedIn',
          `signed in as ${user.profile.email ?? user.profile.sub}`,
          { sub: user.profile.sub },
        )
        void reload()
      })
      on('loggedOut', () => {
        // The instance's logout mode is how it logs out.
        record(`passport (${mode} logout)`, 'loggedOut', 'signed out')
        void reload()
      })
      on('tokenRefreshed', (user) =>
        record(source(), 'tokenRefreshed', 'new tokens', {
          sub: user.profile.sub,
        }),
      )
      on('userRemoved', (event) =>
        record(source(), 'userRemoved', 'the stored user was dropped', event),
      )
    }
    void reload()
    return () => {
      for (const remove of removers) remove()
    }
  }, [passports, record, reload])

  const run: Run = useCallback(
    async (what, action, signIn) => {
      setBusy(what)
      clear()
      setOutput(undefined)
      flow.current = signIn
      try {
        const value = await action()
        setOutput({ label: what, value: toJson(value ?? null) })
      } catch (failure) {
        report(what, failure)
        record('error', what, messageOf(failure))
      } finally {
        flow.current = undefined
        setBusy(undefined)
        await reload()
      }
    },
    [clear, record, reload, report],
  )

  return { session, busy, output, log, clearLog, run }
}
