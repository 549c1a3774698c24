import type { PassportEvents, UserProfile } from 'embedded-wallets/passport'
import { useCallback, useEffect, useState } from 'react'
import type { LogEntry } from '../components/EventLog.js'
import type { LogoutMode, Passports } from './config.js'
import { appendEvent, loadEvents } from './events.js'

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

/** Runs one of the panel's actions (see {@link usePassportSession}). */
export type Run = (
  what: string,
  action: () => Promise<unknown>,
) => Promise<void>

/**
 * The game-wallet panel's state: the session (read through the facade's
 * getters, again after each action and on `loggedIn` / `loggedOut`), the
 * running action, its result or error, and the event log of both Passport
 * instances (kept across page loads, see events.ts).
 */
export function usePassportSession(passports: Passports) {
  const [session, setSession] = useState<SessionState>({ status: 'loading' })
  const [busy, setBusy] = useState<string>()
  const [error, setError] = useState<string>()
  const [output, setOutput] = useState<Output>()
  const [log, setLog] = useState<readonly LogEntry[]>(loadEvents)

  // Stored at once, not in an effect: a redirect logout emits `loggedOut`
  // and leaves the page in the same turn.
  const record = useCallback(
    (source: string, event: string, detail?: unknown) => {
      appendEvent(source, event, detail)
      setLog(loadEvents())
    },
    [],
  )

  const reload = useCallback(async () => {
    const passport = passports.redirect
    try {
      const profile = await passport.getUserInfo()
      if (!profile) {
        setSession({ status: 'signed-out' })
        return
      }
      const [idToken, accessToken] = await Promise.all([
        passport.getIdToken(),
        passport.getAccessToken(),
      ])
      setSession({
        status: 'signed-in',
        user: { profile, idToken, accessToken },
      })
    } catch (failure) {
      setError(`Reading the session: ${messageOf(failure)}`)
      setSession({ status: 'signed-out' })
    }
  }, [passports])

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
      const source = `passport (${mode})`
      on('loggedIn', (user) => {
        record(source, 'loggedIn', { sub: user.profile.sub })
        void reload()
      })
      on('loggedOut', () => {
        record(source, 'loggedOut')
        void reload()
      })
      on('tokenRefreshed', (user) =>
        record(source, 'tokenRefreshed', { sub: user.profile.sub }),
      )
      on('userRemoved', (event) => record(source, 'userRemoved', event))
    }
    void reload()
    return () => {
      for (const remove of removers) remove()
    }
  }, [passports, record, reload])

  const run: Run = useCallback(
    async (what, action) => {
      setBusy(what)
      setError(undefined)
      try {
        const value = await action()
        setOutput({
          label: what,
          value: JSON.stringify(value ?? null, null, 2),
        })
      } catch (failure) {
        setError(`${what} failed: ${messageOf(failure)}`)
        record('error', what, messageOf(failure))
      } finally {
        setBusy(undefined)
        await reload()
      }
    },
    [record, reload],
  )

  return { session, busy, error, output, log, run }
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const type = (error as { type?: unknown }).type
  return typeof type === 'string' ? `${type}: ${error.message}` : error.message
}
