import type { EIP6963ProviderDetail } from 'mipd'
import { type FormEvent, useState, useSyncExternalStore } from 'react'
import type { EIP1193Provider } from 'viem'
import {
  type Connector,
  type CreateConnectorFn,
  injected,
  useConnect,
  useConnection,
  useConnectors,
} from 'wagmi'
import { useFailures } from '../ui/errors.js'
import {
  type EmailLogin,
  LoginCancelled,
  type LoginChoice,
} from '../wallet/emailLogin.js'
import { useWalletLog } from '../wallet/log.js'
import { useAnnouncedWallets } from '../wallet/useAnnouncedWallets.js'

/**
 * How to connect while no account is connected: the iframe wallet's wagmi
 * connector (with the page's email-code form, or the wallet's own login
 * screens), any other connector wagmi has, and every wallet announced on
 * the page through EIP-6963.
 */
export function ConnectPanel(props: {
  emailLogin: EmailLogin
  /** The dev mailbox's URL. */
  mailbox: string
}) {
  const { emailLogin, mailbox } = props
  const connectors = useConnectors()
  const { status } = useConnection()
  const connect = useConnect()
  const failures = useFailures('wallet')
  const { record } = useWalletLog()
  const magicConnector = connectors.find(
    (connector) => connector.type === 'magic',
  )
  const others = connectors.filter((connector) => connector !== magicConnector)

  const start = async (
    what: string,
    connector: Connector | CreateConnectorFn,
    choice?: LoginChoice | undefined,
  ) => {
    failures.clear()
    if (choice) emailLogin.choose(choice)
    try {
      await connect.mutateAsync({ connector })
    } catch (error) {
      if (error instanceof LoginCancelled) record('login', 'cancelled')
      else failures.report(what, error)
    }
  }
  const busy = connect.isPending || status === 'reconnecting'

  return (
    <div className="connect">
      {status === 'reconnecting' && (
        <p className="muted" data-testid="connect-reconnecting">
          Looking for the session of your last visit…
        </p>
      )}
      {magicConnector && (
        <MagicConnect
          connector={magicConnector}
          emailLogin={emailLogin}
          busy={busy}
          mailbox={mailbox}
          onConnect={(what, choice) => start(what, magicConnector, choice)}
        />
      )}
      {others.length > 0 && (
        <section aria-labelledby="other-connectors">
          <h3 id="other-connectors">Other connectors</h3>
          <ul className="wallets">
            {others.map((connector) => (
              <li key={connector.uid}>
                <WalletButton
                  name={connector.name}
                  icon={connector.icon}
                  detail={rdnsOf(connector.rdns)}
                  disabled={busy}
                  testId="connector"
                  onClick={() =>
                    start(`Connecting ${connector.name}`, connector)
                  }
                />
              </li>
            ))}
          </ul>
        </section>
      )}
      <AnnouncedWallets
        disabled={busy}
        onConnect={(wallet) =>
          start(
            `Connecting ${wallet.info.name} (EIP-6963)`,
            connectorOf(wallet),
          )
        }
      />
    </div>
  )
}

/** The iframe wallet's connector: the email-code form and the screens. */
function MagicConnect(props: {
  connector: Connector
  emailLogin: EmailLogin
  busy: boolean
  mailbox: string
  onConnect: (what: string, choice: LoginChoice) => void
}) {
  const { connector, emailLogin, busy, mailbox, onConnect } = props
  const login = useSyncExternalStore(emailLogin.subscribe, emailLogin.getState)
  const [email, setEmail] = useState('player@example.com')
  const [code, setCode] = useState('')

  const sendCode = (event: FormEvent) => {
    event.preventDefault()
    setCode('')
    onConnect(`Logging in ${email}`, { kind: 'email', email: email.trim() })
  }
  const verify = (event: FormEvent) => {
    event.preventDefault()
    emailLogin.submitCode(code.trim())
  }

  return (
    <section className="magic-connect" aria-labelledby="magic-connect-title">
      <h3 id="magic-connect-title" className="with-icon">
        {connector.icon && <img src={connector.icon} alt="" />}
        {connector.name}: the iframe wallet, through its wagmi connector
      </h3>
      {login.step === 'idle' && (
        <>
          <form className="row" onSubmit={sendCode}>
            <label htmlFor="magic-email">Email</label>
            <input
              id="magic-email"
              data-testid="magic-email"
              type="email"
              required
              autoComplete="email"
              value={email}
              disabled={busy}
              onChange={(event) => setEmail(event.target.value)}
            />
            <button
              type="submit"
              disabled={busy}
              data-testid="magic-login-headless"
            >
              Email me a code
            </button>
          </form>
          <p className="hint">
            The code lands in the dev mailbox on this page. Any address works; a
            new one gets a new wallet with 100 test ETH. The published SDK’s
            test address <code>test+success@example.com</code> skips the code
            only for a client created with <code>testMode: true</code>, which
            this page does not use.
          </p>
          <p className="row">
            <button
              type="button"
              disabled={busy}
              data-testid="magic-login-ui"
              onClick={() =>
                onConnect('Logging in with the wallet’s screens', {
                  kind: 'screens',
                })
              }
            >
              Use the wallet’s own login screens
            </button>
          </p>
          <p className="hint">
            The screens cover this page while they ask for your email and code:
            open the{' '}
            <a href={`${mailbox}/view`} target="_blank" rel="noreferrer">
              dev mailbox in a new tab ↗
            </a>{' '}
            first.
          </p>
        </>
      )}
      {login.step === 'sending' && (
        <p data-testid="magic-working">Sending a code to {login.email}…</p>
      )}
      {(login.step === 'code' || login.step === 'checking') && (
        <form className="row" onSubmit={verify}>
          <label htmlFor="magic-code">Code sent to {login.email}</label>
          <input
            id="magic-code"
            data-testid="magic-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            required
            value={code}
            disabled={login.step === 'checking'}
            aria-invalid={login.step === 'code' && login.problem !== undefined}
            aria-describedby="magic-code-problem"
            onChange={(event) => setCode(event.target.value)}
          />
          <button
            type="submit"
            disabled={login.step === 'checking'}
            data-testid="magic-code-submit"
          >
            {login.step === 'checking' ? 'Checking…' : 'Verify'}
          </button>
          <button
            type="button"
            data-testid="magic-code-cancel"
            onClick={() => emailLogin.cancel()}
          >
            Cancel
          </button>
          {login.step === 'code' && login.problem && (
            <span
              className="error"
              id="magic-code-problem"
              data-testid="magic-code-problem"
            >
              {login.problem === 'invalid'
                ? 'Wrong code, try again.'
                : 'That code expired: use the newest one in the mailbox.'}
            </span>
          )}
        </form>
      )}
      {login.step === 'device' && (
        <p data-testid="magic-device">
          {login.email} is known on another device: open the approval link in
          the dev mailbox to let this browser in.
        </p>
      )}
    </section>
  )
}

/** Every wallet announced through EIP-6963, each a button that connects. */
function AnnouncedWallets(props: {
  disabled: boolean
  onConnect: (wallet: EIP6963ProviderDetail) => void
}) {
  const wallets = useAnnouncedWallets()
  return (
    <section aria-labelledby="announced-title">
      <h3 id="announced-title">Wallets announced on this page (EIP-6963)</h3>
      <p className="hint">
        Every wallet that announces itself, connected as wagmi’s{' '}
        <code>injected</code> wallet. The iframe wallet embedded on this page
        announces its provider; connecting opens its own login screens.
      </p>
      {wallets.length === 0 ? (
        <p className="muted" data-testid="providers-empty">
          None announced yet.
        </p>
      ) : (
        <ul className="wallets" data-testid="announced-wallets">
          {wallets.map((wallet) => (
            <li key={wallet.info.uuid}>
              <WalletButton
                name={wallet.info.name}
                icon={wallet.info.icon}
                detail={wallet.info.rdns}
                disabled={props.disabled}
                testId="announced-wallet"
                onClick={() => props.onConnect(wallet)}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

/** A wallet to connect: its icon, name and rdns on one button. */
function WalletButton(props: {
  name: string
  icon: string | undefined
  detail: string
  disabled: boolean
  testId: string
  onClick: () => void
}) {
  const { name, icon, detail, disabled, testId, onClick } = props
  return (
    <button
      type="button"
      className="wallet"
      disabled={disabled}
      data-testid={testId}
      data-rdns={detail}
      onClick={onClick}
    >
      {isImage(icon) ? (
        <img src={icon} alt="" width={32} height={32} />
      ) : (
        <span className="icon-placeholder" aria-hidden="true" />
      )}
      <span className="wallet-name" data-testid="provider-name">
        Connect {name}
      </span>
      <code data-testid="provider-rdns">{detail}</code>
    </button>
  )
}

/**
 * wagmi's `injected` connector for one announced wallet, as wagmi's own
 * discovery builds it (id and name from the announcement).
 */
function connectorOf(wallet: EIP6963ProviderDetail): CreateConnectorFn {
  const { info, provider } = wallet
  return injected({
    target: {
      id: info.rdns,
      name: info.name,
      icon: info.icon,
      provider: provider as EIP1193Provider,
    },
  })
}

function rdnsOf(rdns: string | readonly string[] | undefined): string {
  if (rdns === undefined) return '—'
  return typeof rdns === 'string' ? rdns : rdns.join(', ')
}

/** Only data-URI images (as EIP-6963 requires) or http(s) URLs are shown. */
function isImage(icon: string | undefined): icon is string {
  return icon !== undefined && /^(data:image\/|https?:\/\/)/.test(icon)
}
