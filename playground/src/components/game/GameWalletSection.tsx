import type { Passport } from 'embedded-wallets/passport'
import type { ReactNode } from 'react'
import type { Info } from '../../emulator.js'
import type { GameWallet } from '../../passport/useGameWallet.js'
import { EventLog } from '../EventLog.js'
import { GameWalletAccount } from './GameWalletAccount.js'
import { GameWalletSend } from './GameWalletSend.js'
import { GameSignMessage, GameSignTypedData } from './GameWalletSign.js'
import { GuardianRules } from './GuardianRules.js'
import { LinkedWallets } from './LinkedWallets.js'
import { SessionActivity } from './SessionActivity.js'

/**
 * The signed-in player's zkEVM wallet, through its EIP-1193 provider
 * (`passport.connectEvm()`), used directly: connect, send, sign and check
 * signatures on the chain, the guardian's rules, linked wallets and
 * session activity.
 */
export function GameWalletSection(props: {
  passport: Passport
  info: Info
  wallet: GameWallet
}) {
  const { passport, info, wallet } = props
  const { address } = wallet
  return (
    <div className="game-wallet" data-testid="game-wallet">
      <Part title="zkEVM wallet" testId="game-part-account">
        <GameWalletAccount info={info} wallet={wallet} />
      </Part>
      {address && (
        <>
          <Part title="Send" testId="game-part-send">
            <GameWalletSend info={info} wallet={wallet} address={address} />
          </Part>
          <Part title="Sign a message" testId="game-part-sign-message">
            <GameSignMessage wallet={wallet} address={address} />
          </Part>
          <Part title="Sign typed data" testId="game-part-sign-typed">
            <GameSignTypedData
              wallet={wallet}
              address={address}
              chainId={info.chainId}
            />
          </Part>
          <Part title="Linked wallets" testId="game-part-linked">
            <LinkedWallets passport={passport} wallet={address} />
          </Part>
          <Part title="Session activity" testId="game-part-activity">
            <SessionActivity info={info} wallet={wallet} />
          </Part>
        </>
      )}
      <Part title="Guardian rules" testId="game-part-rules">
        <GuardianRules apiUrl={info.passport.apiUrl} />
      </Part>
    </div>
  )
}

function Part(props: { title: string; testId: string; children: ReactNode }) {
  return (
    <section className="game-part" data-testid={props.testId}>
      <h3>{props.title}</h3>
      {props.children}
    </section>
  )
}

/** The provider's events, kept across sign-ins and logouts. */
export function GameWalletEvents(props: { wallet: GameWallet }) {
  const { wallet } = props
  return (
    <section className="game-part" data-testid="game-part-events">
      <h3>zkEVM provider events</h3>
      <EventLog
        entries={wallet.events}
        onClear={wallet.clearEvents}
        testId="game-event-log"
      />
    </section>
  )
}
