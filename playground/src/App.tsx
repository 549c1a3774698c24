import type { Magic } from 'embedded-wallets/magic'
import type { ZkEvmProvider } from 'embedded-wallets/passport'
import type { Address } from 'viem'
import { useConnection } from 'wagmi'
import { AccountChip } from './components/AccountChip.js'
import { AccountPanel } from './components/AccountPanel.js'
import { ConnectButton } from './components/ConnectPanel.js'
import { EmulatorPanel } from './components/EmulatorPanel.js'
import { EventLog } from './components/EventLog.js'
import { Intro } from './components/Intro.js'
import { Mailbox } from './components/Mailbox.js'
import { Panel } from './components/Panel.js'
import { PassportPanel } from './components/PassportPanel.js'
import { SendForm } from './components/SendForm.js'
import { SignMessageForm, SignTypedDataForm } from './components/SignForms.js'
import { Transactions } from './components/Transactions.js'
import type { Info } from './emulator.js'
import { MarketplaceView } from './market/MarketplaceView.js'
import type { Passports } from './passport/config.js'
import { StarkExView } from './starkex/StarkExView.js'
import { ErrorBanner } from './ui/errors.js'
import type { EmailLogin } from './wallet/emailLogin.js'
import { useWalletLog } from './wallet/log.js'
import { useConnectionLog } from './wallet/useConnectionLog.js'
import { useSessionWatch } from './wallet/useSessionWatch.js'

/**
 * The playground page. It follows wagmi's connection: without an account
 * its bar offers the one Connect button; with one, the account chip and
 * the account's panels, which are
 * keyed by the connection so that nothing they showed (transactions,
 * signatures) outlives the account they describe.
 */
export function App(props: {
  info: Info
  pageMagic: Magic
  emailLogin: EmailLogin
  passports: Passports
  gameProvider: Promise<ZkEvmProvider>
}) {
  const { info, pageMagic, emailLogin, passports, gameProvider } = props
  useConnectionLog(emailLogin)
  useSessionWatch()
  const { status, address, connector } = useConnection()
  const log = useWalletLog()
  const connected = status === 'connected' && address && connector

  return (
    <main className="page">
      <div className="connect-bar" data-testid="connect-bar">
        {connected ? (
          <AccountChip />
        ) : (
          <ConnectButton emailLogin={emailLogin} mailbox={info.mailbox} />
        )}
      </div>
      <Intro />
      <ErrorBanner />
      <div className="panels">
        {connected ? (
          <AccountPanels
            key={`${connector.uid}:${address}`}
            info={info}
            address={address}
            pageMagic={pageMagic}
          />
        ) : (
          <Panel id="mailbox" title="Dev mailbox">
            <Mailbox mailbox={info.mailbox} />
          </Panel>
        )}
        <Panel id="events" title="Wallet events" wide={!connected}>
          <EventLog entries={log.entries} onClear={log.clear} />
        </Panel>
        {connected && (
          <Panel id="mailbox" title="Dev mailbox">
            <Mailbox mailbox={info.mailbox} />
          </Panel>
        )}
        <Panel id="market" title="Marketplace" wide>
          <MarketplaceView info={info} />
        </Panel>
        <Panel id="starkex" title="StarkEx" wide>
          <StarkExView info={info} passport={passports.silent} />
        </Panel>
        <Panel
          id="passport"
          title="Game wallet sign-in (@imtbl/passport protocol)"
          wide
        >
          <PassportPanel
            info={info}
            passports={passports}
            gameProvider={gameProvider}
          />
        </Panel>
        <Panel
          id="emulator"
          title="Emulator: the local chain and services"
          wide
        >
          <EmulatorPanel info={info} />
        </Panel>
      </div>
    </main>
  )
}

/**
 * The connected account's panels; the transactions they send are tracked
 * by the page's activity (`useActivity`), which the list filters by sender.
 */
function AccountPanels(props: {
  info: Info
  address: Address
  pageMagic: Magic
}) {
  const { info, address, pageMagic } = props
  return (
    <>
      <Panel id="account" title="Your account">
        <AccountPanel info={info} address={address} pageMagic={pageMagic} />
      </Panel>
      <Panel id="send" title="Send">
        <SendForm info={info} address={address} />
      </Panel>
      <Panel id="sign-message" title="Sign a message">
        <SignMessageForm address={address} />
      </Panel>
      <Panel id="sign-typed-data" title="Sign typed data">
        <SignTypedDataForm address={address} chainId={info.chainId} />
      </Panel>
      <Panel id="transactions" title="Recent transactions" wide>
        <Transactions info={info} address={address} />
      </Panel>
    </>
  )
}
