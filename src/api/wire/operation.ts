/**
 * What a generated client needs to know of one operation of the platform's
 * HTTP APIs, and what an emulated route can check a request against: its
 * method and path, each parameter of its request-parameters object with
 * where it goes on the wire, and the credentials it takes. The tables of
 * `src/api/wire/<spec>/operations/` are generated from the OpenAPI specs
 * (`npm run generate:api`), one module per tag.
 */

/** An HTTP method the specs use. */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

/**
 * A credential an operation takes:
 * - `apiKey`: a secret API key in `x-immutable-api-key`;
 * - `bearer`: an access token in `Authorization: Bearer …`;
 * - `imxEthSignature`: the signed wallet headers `x-imx-eth-address` and
 *   `x-imx-eth-signature` (legacy exchange API);
 * - `imxSignature`: the project owner's `IMX-Signature` and
 *   `IMX-Timestamp` (legacy exchange API: collection and project writes).
 */
export type Credential =
  | 'apiKey'
  | 'bearer'
  | 'imxEthSignature'
  | 'imxSignature'

/** Where a parameter goes. */
export type Location = 'path' | 'query' | 'header' | 'body'

/** One field of an operation's request-parameters object. */
export type Parameter = {
  /** The field's name in the request-parameters object (`chainName`). */
  readonly name: string
  readonly in: Location
  /** Its name on the wire (`chain_name`, `x-imx-eth-address`); none for the body. */
  readonly key?: string
  /** A missing required parameter is refused before any request is sent. */
  readonly required?: true
}

/** One operation. */
export type Operation = {
  /** The operation's method name in the published clients (`getActivity`). */
  readonly id: string
  readonly method: Method
  /** The path template (`/v1/chains/{chain_name}/activities/{activity_id}`). */
  readonly path: string
  /**
   * Its parameters in the order the published clients check them: the
   * required ones first, each group in the spec's order, the body last.
   */
  readonly parameters: readonly Parameter[]
  /**
   * The credentials it takes, any one of them (empty: a public route). The
   * client sends the API key and access token of its configuration for
   * `apiKey` and `bearer`; the legacy exchange API's signed headers are
   * parameters of the call.
   */
  readonly credentials: readonly Credential[]
}
