import type { DeviceConnectResponse } from 'embedded-wallets/passport'
import { useRef, useState } from 'react'
import type { Info } from '../emulator.js'
import type { LogoutMode, Passports } from '../passport/config.js'
import { useConnectedGameWallet } from '../passport/useConnectedGameWallet.js'
import { usePassportSession } from '../passport/usePassportSession.js'
import { EventLog } from './EventLog.js'
import { GuardianRules } from './game/GuardianRules.js'
import { LinkedWallets } from './game/LinkedWallets.js'
import { NeedsGameWallet } from './game/NeedsGameWallet.js'
import { RelayerOutcomes } from './game/RelayerOutcomes.js'
import { SessionActivity } from './game/SessionActivity.js'
import { WalletContract } from './game/WalletContract.js'
import { Panel } from './Panel.js'
import { PassportDevice } from './PassportDevice.js'
import { PassportSession } from './PassportSession.js'
import { PassportSignIn, type SignInActions } from './PassportSignIn.js'
import { PassportTokens } from './PassportTokens.js'

/** How long the device flow polls before giving up, ms. */
const deviceTimeoutMs = 10 * 60_000

/**
 * The game wallet's own features, each in a panel with one sentence: its
 * sign-in methods against the emulated identity provider (popup, redirect,
 * device code, PKCE, cached session; logout in both modes, from two
 * Passport instances sharing the user), the session's tokens, the wallet
 * contract, the guardian's rules, the relayer's outcomes, session activity
 * and linked wallets. Sending and signing are the wallet section's, once
 * the game wallet is connected through the Connect modal.
 */
export function PassportPanel(props: { info: Info; passports: Passports }) {
  const { info, passports } = props
  const passportInfo = info.passport
  const { session, busy, output, log, clearLog, run } =
    usePassportSession(passports)
  const [device, setDevice] = useState<DeviceConnectResponse>()
  const deviceAbort = useRef<AbortController | undefined>(undefined)
  const wallet = useConnectedGameWallet()

  const passport = passports.redirect
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
  const signedIn = session.status === 'signed-in' ? session.user : undefined

  return (
    <div className="panels passport" data-testid="game-wallet">
      {callbackOrigin !== location.origin && (
        <p className="error wide" data-testid="passport-origin-warning">
          The callback pages are on {callbackOrigin}, not on this page's origin:
          sign-in state would not be found.{' '}
          <a href={`${callbackOrigin}/`} data-testid="passport-origin-link">
            Open the playground there
          </a>
          .
        </p>
      )}
      <Panel
        id="game-signin"
        title="Sign-in methods"
        description="Signs the player in with the wallet’s identity provider by each of its flows, and out again, silently or by leaving the page; codes arrive in the dev mailbox."
      >
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
        {signedIn && (
          <PassportSession
            user={signedIn}
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
        {busy && <p data-testid="passport-working">{busy}…</p>}
        {output && (
          <details className="output" data-testid="passport-result">
            <summary>
              <span data-testid="passport-output-label">{output.label}</span>
              <span className="muted"> done: what it returned</span>
            </summary>
            <pre data-testid="passport-output">{output.value}</pre>
          </details>
        )}
        <details className="events">
          <summary>Session events ({log.length})</summary>
          <EventLog
            entries={log}
            onClear={clearLog}
            testId="passport-event-log"
          />
        </details>
      </Panel>
      <Panel
        id="game-tokens"
        title="ID and access tokens"
        description="The session’s two tokens, which the wallet checked when it received them, with their main claims."
      >
        {signedIn ? (
          <PassportTokens user={signedIn} />
        ) : (
          <p className="muted">Sign in (or connect the game wallet) first.</p>
        )}
      </Panel>
      <Panel
        id="game-contract"
        title="Wallet contract"
        description="The player’s wallet is a contract the relayer deploys with its first transaction; value it sends comes from its own ETH."
      >
        {wallet ? (
          <WalletContract info={info} address={wallet.address} />
        ) : (
          <NeedsGameWallet what="see its contract" />
        )}
      </Panel>
      <Panel
        id="game-rules"
        title="Guardian rules"
        description="When the guardian asks the player to confirm a send or a signature in the wallet’s popup (switches of the emulated guardian, for every player)."
      >
        <GuardianRules apiUrl={info.passport.apiUrl} />
      </Panel>
      <Panel
        id="game-relayer"
        title="Relayer outcomes"
        description="What the relayer made of each batch it relayed for the wallet (EIP-5792 wallet_sendCalls), and a dev switch for what it does with the next send."
      >
        <RelayerOutcomes info={info} address={wallet?.address} />
      </Panel>
      <Panel
        id="game-activity"
        title="Session activity"
        description="The background call the game asks its players’ wallets to send now and then, the rule the platform answers, and the checks it received."
      >
        <SessionActivity info={info} provider={wallet?.provider} />
      </Panel>
      <Panel
        id="game-linked"
        title="Linked wallets"
        description="The external wallets linked to the player, and linking a new one with a signature of that wallet."
      >
        {wallet && signedIn ? (
          <LinkedWallets
            key={wallet.address}
            passport={passports.silent}
            wallet={wallet.address}
          />
        ) : (
          <NeedsGameWallet what="see and link wallets" />
        )}
      </Panel>
    </div>
  )
}
