/**
 * `magic.auth`: the login flows (email OTP, SMS, magic link, credential),
 * `setAuthorizationToken` and `updateEmailWithUI`.
 */
import * as Rpc from '../../core/Rpc.js'
import { type Client, type Handle, intermediary, request } from '../request.js'
import * as Events from '../wire/events.js'
import * as Methods from '../wire/methods.js'

/** `loginWithMagicLink` options. */
export type LoginWithMagicLinkConfiguration = {
  email: string
  /** @default true */
  showUI?: boolean | undefined
  redirectURI?: string | undefined
  overrides?: { variation?: string | undefined } | undefined
  /** DID token lifespan in seconds. */
  lifespan?: number | undefined
}

/** `loginWithSMS` options. */
export type LoginWithSmsConfiguration = {
  phoneNumber: string
  /** @default true */
  showUI?: boolean | undefined
  lifespan?: number | undefined
}

/** `loginWithEmailOTP` options. */
export type LoginWithEmailOTPConfiguration = {
  email: string
  showUI?: boolean | undefined
  deviceCheckUI?: boolean | undefined
  overrides?:
    | {
        variation?: string | undefined
        appName?: string | undefined
        assetUrl?: string | undefined
      }
    | undefined
  lifespan?: number | undefined
}

/** `loginWithCredential` options. */
export type LoginWithCredentialConfiguration = {
  /** A credential, or a query string starting with `?` or `#`. */
  credentialOrQueryString?: string | undefined
  lifespan?: number | undefined
}

/** `updateEmailWithUI` options. */
export type UpdateEmailConfiguration = {
  email: string
  /** @default true */
  showUI?: boolean | undefined
}

/** Events of the email OTP flow. */
export type EmailOtpEvents =
  | Events.EmailOtp
  | Events.Device
  | typeof Events.idTokenCreated
  | 'Wallet/wallet-info-fetched'
  | 'mfa-passkey-options'
/** Events of the SMS flow. */
export type SmsEvents = Events.Sms | Events.Device
/** Events of the magic link flow. */
export type MagicLinkEvents = Events.MagicLink | Events.Device
/** Events of the update-email flow. */
export type UpdateEmailEvents = Events.UpdateEmail

/** The `auth` module. */
export type AuthModule = ReturnType<typeof create>

/** Builds the `auth` module of a client. */
export function create(client: Client) {
  const method = (name: string) => Methods.wireMethod(name, client.testMode)
  return {
    /** Logs in with a link sent by email; resolves to a DID token. */
    loginWithMagicLink(
      configuration: LoginWithMagicLinkConfiguration,
    ): Handle<string | null, MagicLinkEvents> {
      const {
        email,
        showUI = true,
        redirectURI,
        overrides,
        lifespan,
      } = configuration
      return request(
        client,
        Rpc.createRequest(method(Methods.loginWithMagicLink), [
          { email, showUI, redirectURI, overrides, lifespan },
        ]),
        { forward: showUI ? [] : Events.magicLink.emit },
      )
    },

    /** Logs in with a passcode sent by SMS; resolves to a DID token. */
    loginWithSMS(
      configuration: LoginWithSmsConfiguration,
    ): Handle<string | null, SmsEvents> {
      const { phoneNumber, showUI = true, lifespan } = configuration
      return request(
        client,
        Rpc.createRequest(method(Methods.loginWithSms), [
          { phoneNumber, showUI, lifespan },
        ]),
        { forward: showUI ? [] : Events.sms.emit },
      )
    },

    /** Logs in with a passcode sent by email; resolves to a DID token. */
    loginWithEmailOTP(
      configuration: LoginWithEmailOTPConfiguration,
    ): Handle<string | null, EmailOtpEvents> {
      const { email, showUI, deviceCheckUI, overrides, lifespan } =
        configuration
      const payload = Rpc.createRequest(method(Methods.loginWithEmailOtp), [
        { email, showUI, deviceCheckUI, overrides, lifespan },
      ])
      const handle = request<string | null, EmailOtpEvents>(client, payload, {
        forward: [
          ...(deviceCheckUI ? [] : Events.device.emit),
          ...(showUI ? [] : Events.emailOtp.emit),
        ],
      })
      handle.on(
        'mfa-passkey-options',
        async (options: { webauthnOptions: unknown }) => {
          const { assert } = await import('./passkey.js')
          intermediary(
            client,
            payload.id,
            ...(await assert(options.webauthnOptions)),
          )
        },
      )
      return handle
    },

    /**
     * Completes a redirect login with a one-time credential. Without one,
     * the page's query string is used and then removed from the address
     * bar (outside a browser there is none, and the credential is empty).
     */
    loginWithCredential(
      configuration?: LoginWithCredentialConfiguration,
    ): Handle<string | null> {
      const { credentialOrQueryString, lifespan } = configuration ?? {}
      let credential = credentialOrQueryString ?? ''
      if (!credentialOrQueryString && typeof window !== 'undefined') {
        const { location, history } = window
        credential = location.search
        history.replaceState(null, '', location.origin + location.pathname)
      }
      return request(
        client,
        Rpc.createRequest(method(Methods.loginWithCredential), [
          credential,
          lifespan,
        ]),
      )
    },

    /** Logs in with a JWT issued by the app's own identity provider. */
    setAuthorizationToken(jwt: string): Handle<boolean> {
      return request(
        client,
        Rpc.createRequest(Methods.setAuthorizationToken, [{ jwt }]),
      )
    },

    /** Changes the user's email, verifying both addresses. */
    updateEmailWithUI(
      configuration: UpdateEmailConfiguration,
    ): Handle<string | null, UpdateEmailEvents> {
      const { email, showUI = true } = configuration
      return request(
        client,
        Rpc.createRequest(method(Methods.updateEmail), [{ email, showUI }]),
        { forward: showUI ? [] : Events.updateEmail.emit },
      )
    },
  }
}
