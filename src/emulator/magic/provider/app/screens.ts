/**
 * Shows the iframe's screens: one at a time in the root element, replaced by
 * each `screen` line, by the "working…" state while an answer is on its way,
 * and cleared by a `close` screen or the flow's end.
 */
import type { Screen } from '../protocol.js'
import * as Account from './account.js'
import * as Auth from './auth.js'
import { card, paragraph, waiting } from './dom.js'
import * as Wallet from './wallet.js'

const renders: { [screen in Exclude<Screen, 'close'>]: Auth.Render<screen> } = {
  'email-otp': Auth.emailOtp,
  'sms-otp': Auth.smsOtp,
  'mfa-code': Auth.mfaCode,
  'recovery-code': Auth.recoveryCode,
  'device-approval': Auth.deviceApproval,
  'magic-link-sent': Auth.magicLinkSent,
  'update-email': Account.updateEmail,
  'enable-mfa': Account.enableMfa,
  'disable-mfa': Account.disableMfa,
  'recovery-factor': Account.recoveryFactor,
  'recover-account': Account.recoverAccount,
  login: Auth.login,
  wallet: Wallet.wallet,
  address: Wallet.address,
  balances: Wallet.balances,
  'send-tokens': Wallet.sendTokens,
  onramp: Wallet.onramp,
  nfts: Wallet.nfts,
  'nft-checkout': Wallet.nftCheckout,
  'reveal-key': Wallet.revealKey,
  settings: Wallet.settings,
  'user-info': Wallet.userInfo,
}

/** The screen area of the page. */
export type Screens = {
  /** Shows `screen` for flow `flowId`; `close` clears. */
  show(
    flowId: string,
    screen: string,
    data: unknown,
    ctx: Auth.ScreenContext,
  ): void
  /** Shows the "working…" state for flow `flowId`. */
  working(flowId: string): void
  /** Clears the screen if flow `flowId` owns it. */
  end(flowId: string): void
}

/** Creates the screen area in `root`. */
export function createScreens(root: HTMLElement): Screens {
  let owner: string | undefined
  const replace = (flowId: string | undefined, element?: HTMLElement) => {
    owner = flowId
    root.replaceChildren(...(element ? [element] : []))
    root.dataset.screen = element?.dataset.screen ?? ''
  }
  return {
    show(flowId, screen, data, ctx) {
      if (screen === 'close') return replace(undefined)
      const render = renders[screen as keyof typeof renders] as
        | Auth.Render
        | undefined
      const element = render
        ? render(typeof data === 'object' && data ? data : {}, ctx)
        : card('Unsupported screen', [
            paragraph(`This emulator cannot show "${screen}".`),
          ])
      element.dataset.screen = screen
      element.dataset.testid ??= `screen-${screen}`
      replace(flowId, element)
    },
    working(flowId) {
      const element = card('Working…', [
        waiting(),
        paragraph('One moment.', 'working'),
      ])
      element.dataset.screen = 'working'
      replace(flowId, element)
    },
    end(flowId) {
      if (owner === flowId) replace(undefined)
    },
  }
}
