/**
 * Passkey MFA during `loginWithEmailOTP`: on `mfa-passkey-options` the SDK
 * asks the browser for a WebAuthn assertion and answers the flow with
 * `mfa-passkey-assertion-response` (the credential as JSON) or
 * `mfa-passkey-assertion-error` (the error message).
 */
import * as Base64 from '../keys/base64.js'
import { type Client, intermediary } from '../request.js'

/** WebAuthn request options as JSON (base64url binary fields). */
type RequestOptionsJson = {
  challenge: string
  allowCredentials?: { id: string; type: string; transports?: string[] }[]
  [key: string]: unknown
}

/** Runs the assertion and answers request `payloadId`. */
export async function answer(
  client: Client,
  payloadId: number | string,
  webauthnOptions: unknown,
): Promise<void> {
  try {
    const credential = await navigator.credentials.get({
      publicKey: toRequestOptions(webauthnOptions as RequestOptionsJson),
    })
    intermediary(
      client,
      payloadId,
      'mfa-passkey-assertion-response',
      toJson(credential as PublicKeyCredential),
    )
  } catch (error) {
    intermediary(
      client,
      payloadId,
      'mfa-passkey-assertion-error',
      (error as Error | undefined)?.message ?? '',
    )
  }
}

function toRequestOptions(
  json: RequestOptionsJson,
): PublicKeyCredentialRequestOptions {
  const parse = (
    globalThis.PublicKeyCredential as
      | { parseRequestOptionsFromJSON?: (json: unknown) => unknown }
      | undefined
  )?.parseRequestOptionsFromJSON
  if (parse) return parse(json) as PublicKeyCredentialRequestOptions
  return {
    ...json,
    challenge: decode(json.challenge),
    allowCredentials: (json.allowCredentials ?? []).map((credential) => ({
      ...credential,
      id: decode(credential.id),
      type: 'public-key',
      transports: credential.transports as AuthenticatorTransport[],
    })),
  } as PublicKeyCredentialRequestOptions
}

function toJson(credential: PublicKeyCredential): unknown {
  if (typeof credential.toJSON === 'function') return credential.toJSON()
  const response = credential.response as AuthenticatorAssertionResponse
  return {
    id: credential.id,
    rawId: encode(credential.rawId),
    response: {
      authenticatorData: encode(response.authenticatorData),
      clientDataJSON: encode(response.clientDataJSON),
      signature: encode(response.signature),
      userHandle: response.userHandle ? encode(response.userHandle) : undefined,
    },
    authenticatorAttachment: credential.authenticatorAttachment,
    clientExtensionResults: {},
    type: credential.type,
  }
}
function encode(buffer: ArrayBuffer): string {
  return Base64.urlFromBytes(new Uint8Array(buffer))
}

function decode(text: string): ArrayBuffer {
  return Base64.urlToBytes(text).buffer
}
