import type {
  DeviceConnectResponse,
  ZkEvmProvider,
} from 'embedded-wallets/passport'
import { useRef, useState } from 'react'
import type { Info } from '../emulator.js'
import type { LogoutMode, Passports } from '../passport/config.js'
import { useGameWallet } from '../passport/useGameWallet.js'
import { usePassportSession } from '../passport/usePassportSession.js'
import { EventLog } from './EventLog.js'
import {
  GameWalletEvents,
  GameWalletSection,
} from './game/GameWalletSection.js'
import { PassportDevice } from './PassportDevice.js'
import { PassportSession } from './PassportSession.js'
import { PassportSignIn, type SignInActions } from './PassportSignIn.js'

/** How long the device flow polls before giving up, ms. */
const deviceTimeoutMs = 10 * 60_000

/**
 * The game wallet's sign-in against the emulated identity provider: every
 * sign-in flow of the facade (popup, redirect, device code, PKCE), a silent
 * refresh, logout in both modes (two Passport instances sharing the user),
 * the profile and decoded token claims, and a log of the session's events;
 * once signed in, the player's zkEVM wallet (see GameWalletSection).
 */
export function PassportPanel(props: {
  info: Info
  passports: Passports
  /** The silent instance's zkEVM provider, made once with the page. */
  gameProvider: Promise<ZkEvmProvider>
}) {
  const { info, passports, gameProvider } = props
  const passportInfo = info.passport
  const { session, busy, output, log, clearLog, run } =
    usePassportSession(passports)
  const [device, setDevice] = useState<DeviceConnectResponse>()
  const deviceAbort = useRef<AbortController | undefined>(undefined)

  const passport = passports.redirect
  // The wallet follows the silent-logout instance's session: its logout
  // keeps the page, so the provider's `disconnect` shows in the log (a
  // redirect logout leaves the page as it happens).
  const wallet = useGameWallet(
    gameProvider,
    info,
    session.status === 'signed-in' ? session.user.profile.sub : undefined,
  )
  // The pending request and the user live in this origin's storage: the
  // callback pages must be on it.
  const callbackOrigin = new URL(passportInfo.redirectUri).origin

  const signIn: SignInActions = {
    popup: () => run('Sign in with popup', () => passport.login(), 'popup'),
    redirect: () =>
      run(
        'Sign in with redirect',
        () => passport.login({ useRedirectFlow: true }),
        'redirect',
      ),
    device: () =>
      run(
        'Device code',
        async () => {
          const started = await passport.loginWithDeviceFlow()
          const controller = new AbortController()
          deviceAbort.current = controller
          setDevice(started)
          try {
            return await passport.loginWithDeviceFlowCallback(
              started.deviceCode,
              started.interval,
              deviceTimeoutMs,
              { signal: controller.signal },
            )
          } finally {
            setDevice(undefined)
          }
        },
        'device code',
      ),
    pkce: () =>
      run(
        'PKCE',
        async () => {
          const url = await passport.loginWithPKCEFlow()
          location.assign(url)
          return url
        },
        'PKCE',
      ),
    cached: () =>
      run(
        'Cached session only',
        () => passport.login({ useCachedSession: true }),
        'cached session',
      ),
  }
  const logout = (mode: LogoutMode) =>
    run(`Log out (${mode})`, () => passports[mode].logout())

  return (
    <div className="passport">
      {callbackOrigin !== location.origin && (
        <p className="error" data-testid="passport-origin-warning">
          The callback pages are on {callbackOrigin}, not on this page's origin:
          sign-in state would not be found.{' '}
          <a href={`${callbackOrigin}/`} data-testid="passport-origin-link">
            Open the playground there
          </a>
          .
        </p>
      )}
      <p className="hint">
        The game wallet’s sign-in against the emulated identity provider. Popup
        and redirect open its sign-in page, the device code is approved in
        another tab, and PKCE leaves this page and comes back; the sign-in code
        arrives in the dev mailbox.
      </p>
      <p data-testid="passport-status" data-state={session.status}>
        {session.status === 'loading'
          ? 'Reading the session…'
          : session.status === 'signed-out'
            ? 'Signed out.'
            : `Signed in as ${session.user.profile.email ?? session.user.profile.sub}.`}
      </p>
      {session.status === 'signed-out' && (
        <PassportSignIn actions={signIn} disabled={busy !== undefined} />
      )}
      {device && (
        <PassportDevice
          device={device}
          onCancel={() => deviceAbort.current?.abort()}
        />
      )}
      {session.status === 'signed-in' && (
        <PassportSession
          user={session.user}
          disabled={busy !== undefined}
          onRefresh={() =>
            run(
              'Refresh',
              () => passport.login({ useSilentLogin: true }),
              'refresh',
            )
          }
          onLogout={logout}
        />
      )}
      {session.status === 'signed-in' && (
        <GameWalletSection
          key={session.user.profile.sub}
          passport={passports.silent}
          info={info}
          wallet={wallet}
        />
      )}
      {busy && <p data-testid="passport-working">{busy}…</p>}
      {output && (
        <div className="output">
          <h3 data-testid="passport-output-label">{output.label}</h3>
          <pre data-testid="passport-output">{output.value}</pre>
        </div>
      )}
      <EventLog
        entries={log}
        onClear={clearLog}
        title="Events"
        testId="passport-event-log"
      />
      <GameWalletEvents wallet={wallet} />
    </div>
  )
}
