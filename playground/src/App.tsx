import type { Magic } from 'embedded-wallets/magic'
import type { ZkEvmProvider } from 'embedded-wallets/passport'
import { useCallback, useState } from 'react'
import type { Address } from 'viem'
import { useConnection } from 'wagmi'
import { AccountChip } from './components/AccountChip.js'
import { AccountPanel } from './components/AccountPanel.js'
import {
  ConnectButton,
  ConnectModalProvider,
  useOpenConnect,
} from './components/ConnectPanel.js'
import { DevDrawer } from './components/DevDrawer.js'
import { Intro } from './components/Intro.js'
import { IframeWalletScreens } from './components/magic/IframeWalletScreens.js'
import { Panel, Section, sections } from './components/Panel.js'
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
import { useConnectionLog } from './wallet/useConnectionLog.js'
import { useSessionWatch } from './wallet/useSessionWatch.js'

/**
 * The playground page: a top bar (the sections, Connect or the account
 * chip, the dev drawer's button), then one section per thing a visitor can
 * do: the wallet (whichever is connected), the marketplace, StarkEx, the
 * game wallet's and the iframe wallet's own features. The wallet section
 * follows wagmi's connection; its panels are keyed by the connection so
 * that nothing they showed outlives the account they describe.
 */
export function App(props: {
  info: Info
  pageMagic: Magic
  emailLogin: EmailLogin
  passports: Passports
  /**
   * The game wallet's zkEVM provider, made with the page so that it
   * announces itself (EIP-6963) and the Connect modal lists it.
   */
  gameProvider: Promise<ZkEvmProvider>
}) {
  const { info, pageMagic, emailLogin, passports } = props
  useConnectionLog(emailLogin)
  useSessionWatch()
  const { status, address, connector } = useConnection()
  const connected = status === 'connected' && address && connector
  const [devOpen, setDevOpen] = useState(false)
  const closeDev = useCallback(() => setDevOpen(false), [])

  return (
    <ConnectModalProvider emailLogin={emailLogin} mailbox={info.mailbox}>
      <header className="top-bar" data-testid="top-bar">
        <div className="top-bar-inner">
          <a className="brand" href="#top">
            embedded-wallets <span className="muted">playground</span>
          </a>
          <nav aria-label="Sections" className="nav" data-testid="nav">
            {sections.map((section) => (
              <a
                key={section.id}
                href={`#${section.id}`}
                data-testid={`nav-${section.id}`}
              >
                {section.title}
              </a>
            ))}
          </nav>
          <div className="connect-bar" data-testid="connect-bar">
            {connected ? <AccountChip /> : <ConnectButton />}
            <button
              type="button"
              className="dev-button"
              aria-expanded={devOpen}
              data-testid="dev-open"
              onClick={() => setDevOpen(true)}
            >
              Dev
            </button>
          </div>
        </div>
        <ErrorBanner />
      </header>
      <main className="page" id="top">
        <Intro />
        <Section
          id="wallet"
          title="Wallet"
          description="The connected account: its balances, sending, signing and the transactions this page sent from it."
        >
          {connected ? (
            <div className="panels">
              <AccountPanels
                key={`${connector.uid}:${address}`}
                info={info}
                address={address}
                pageMagic={pageMagic}
              />
            </div>
          ) : (
            <ConnectCallToAction />
          )}
        </Section>
        <Section
          id="marketplace"
          title="Marketplace"
          description="NFTs listed for sale on the platform’s order book: list yours, buy one, see the trade."
        >
          <div className="section-body" data-testid="panel-market">
            <MarketplaceView info={info} />
          </div>
        </Section>
        <Section
          id="starkex"
          title="StarkEx"
          description="The player’s StarkEx account on the platform: registration, balances, transfers, orders and trades."
        >
          <div className="section-body" data-testid="panel-starkex">
            <StarkExView info={info} passport={passports.silent} />
          </div>
        </Section>
        <Section
          id="game-wallet"
          title="Game wallet"
          description="What only the game wallet has: its sign-in methods, its tokens, the guardian’s rules, the relayer, session activity and linked wallets."
        >
          <PassportPanel info={info} passports={passports} />
        </Section>
        <Section
          id="iframe-wallet"
          title="Iframe wallet"
          description="The iframe wallet’s own screens, opened over this page: its wallet, MFA, email, recovery, NFT checkout, key and settings."
        >
          <IframeWalletScreens info={info} magic={pageMagic} />
        </Section>
      </main>
      <DevDrawer info={info} open={devOpen} onClose={closeDev} />
    </ConnectModalProvider>
  )
}

/** The wallet section while nothing is connected: the way in. */
function ConnectCallToAction() {
  const open = useOpenConnect()
  const { status } = useConnection()
  return (
    <div className="call-to-action" data-testid="wallet-connect-cta">
      <p>
        Connect a wallet to see your account, send, sign and follow your
        transactions: the iframe wallet with an email code, the game wallet with
        its sign-in, or any wallet announced on this page.
      </p>
      <button
        type="button"
        className="primary"
        disabled={status === 'reconnecting'}
        data-testid="wallet-connect-cta-button"
        onClick={open}
      >
        Connect a wallet
      </button>
    </div>
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
