// The part of swagger2openapi (no types of its own) that generate-api.ts uses.
declare module 'swagger2openapi' {
  type Options = {
    /** Fix small errors of the input instead of refusing it. */
    patch?: boolean
    /** Report problems as warnings. */
    warnOnly?: boolean
    /** The extension that keeps each body parameter's name. */
    rbname?: string
  }
  const converter: {
    convertObj(swagger: object, options: Options): Promise<{ openapi: object }>
  }
  export default converter
}
