// `npm run generate:api`: writes the platform API's clients and wire under
// src/api/ from the two OpenAPI specs in scripts/openapi/.
//
//   npx tsx scripts/generate-api.ts           # write the files
//   npx tsx scripts/generate-api.ts --check   # fail if they are out of date
//
// For each spec (`mr`: the multi-rollup API, OpenAPI 3; `imx`: the legacy
// exchange API, Swagger 2, converted by swagger2openapi first):
//
// - src/api/wire/<spec>/schema.generated.ts: openapi-typescript's types
//   (`paths`, `components`, `operations`);
// - src/api/wire/<spec>/operations/<tag>.generated.ts: one table per tag,
//   operation id → method, path, parameters (request-object name, location,
//   wire name, required) and credentials; a module per tag so that a dApp
//   importing one tag's class pays for that tag only;
// - src/api/wire/<spec>/enums.generated.ts: every enumeration of the spec as
//   an `as const` object, named as the published clients name them;
// - src/api/<spec>/<tag>.generated.ts: the tag's class, one method per
//   operation taking one request-parameters object (`XxxApiYyyRequest`);
// - src/api/<spec>/models.generated.ts: a type per schema;
// - src/api/<spec>/index.generated.ts: the namespace (`mr`, `imx`).
//
// Names follow the published @imtbl/generated-clients (openapi-generator's
// typescript-axios with one request-parameters object), so that switching
// to ours is an import change: classes `<Tag>Api`, methods from the
// operation ids, fields from the parameter names, the body field from the
// body's schema (or the Swagger 2 body parameter's name), enums
// `<Model><Property>Enum` and `<Operation><Parameter>Enum`.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import openapiTS, { astToString } from 'openapi-typescript'
import converter from 'swagger2openapi'

/** The repository root (this file lives in `<root>/scripts`). */
export const repoRoot = fileURLToPath(new URL('..', import.meta.url))

/** One input spec. */
type Spec = {
  /** The namespace and folder name (`mr`, `imx`). */
  name: string
  /** The spec file, relative to the root. */
  file: string
  /** Swagger 2: convert to OpenAPI 3 first. */
  swagger2: boolean
  /** What the namespace is, for the generated files' TSDoc. */
  title: string
}

export const specs: readonly Spec[] = [
  {
    name: 'mr',
    file: 'scripts/openapi/mr-openapi.json',
    swagger2: false,
    title:
      'the multi-rollup platform API (indexer, order book, passport, guardian)',
  },
  {
    name: 'imx',
    file: 'scripts/openapi/imx-openapi.json',
    swagger2: true,
    title: 'the legacy exchange API (StarkEx)',
  },
]

/** The folders the generator owns: every `*.generated.ts` in them is its output. */
export const generatedDirs = specs.flatMap((spec) => [
  `src/api/wire/${spec.name}`,
  `src/api/wire/${spec.name}/operations`,
  `src/api/${spec.name}`,
])

// ---------------------------------------------------------------------------
// The specs, loosely typed: the generator checks every shape it relies on.

type Json = Record<string, unknown>

type Document = {
  servers?: { url: string }[]
  paths: Record<string, Record<string, unknown>>
  components?: {
    schemas?: Record<string, Json>
    parameters?: Record<string, Json>
    requestBodies?: Record<string, Json>
    securitySchemes?: Record<string, Json>
  }
  security?: Record<string, string[]>[]
}

type Param = {
  name: string
  in: 'path' | 'query' | 'header' | 'cookie'
  required?: boolean
  description?: string
  schema?: Json
}

/** One operation, as the generator reads it. */
type Op = {
  /** The spec's operation id (a key of openapi-typescript's `operations`). */
  operationId: string
  /** The method name (`getActivity`). */
  method: string
  /** The method in Pascal case, for type names (`GetActivity`). */
  pascal: string
  http: string
  path: string
  tags: string[]
  summary?: string | undefined
  description?: string | undefined
  deprecated: boolean
  /** Parameters and body, in the published clients' order. */
  fields: Field[]
  credentials: string[]
  /** The success answer's type (an expression over `operations`), or `void`. */
  response: string
}

type Field = {
  /** The request-parameters object's field. */
  name: string
  in: 'path' | 'query' | 'header' | 'body'
  /** The wire name (none for the body). */
  key?: string | undefined
  required: boolean
  description?: string | undefined
  /** The field's type: an expression over `operations`. */
  type: string
}

// ---------------------------------------------------------------------------
// Names, as openapi-generator's typescript-axios makes them.

/**
 * Joins the words of `text` (split at `_`, `-`, `.`, `/`, spaces and other
 * non-word characters), each word's first letter upper-cased, the rest
 * kept: `chain_name` → `ChainName`, `IMX-Signature` → `IMXSignature`.
 */
export function pascalCase(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('')
}

/** {@link pascalCase} with the first letter lower-cased: `iMXSignature`. */
export function camelCase(text: string): string {
  const pascal = pascalCase(text)
  return pascal[0]!.toLowerCase() + pascal.slice(1)
}

/**
 * An enumeration member's key: the value split into lower-case words at
 * case changes and separators, then joined in Pascal case: `ERC721` →
 * `Erc721`, `ERC1155_COLLECTION` → `Erc1155Collection`, `boost_percentage`
 * → `BoostPercentage`.
 */
export function enumKey(value: string): string {
  const words = value
    .replace(/^(\d)/, '_$1')
    .replace(/([A-Z]+)([A-Z][a-z][a-z]+)/g, '$1_$2')
    .replace(/([a-z\d])([A-Z])/g, '$1_$2')
    .toLowerCase()
  const key = pascalCase(words)
  return key === '' ? 'Empty' : /^\d/.test(key) ? `_${key}` : key
}

/** A schema's model name: `api.OrderV3` → `ApiOrderV3`. */
export function modelName(name: string): string {
  return pascalCase(name)
}

/** A tag's class name: `nft owners` → `NftOwnersApi`. */
export function className(tag: string): string {
  return `${pascalCase(tag)}Api`
}

/** A tag's module file name: `nft owners` → `nft-owners`. */
export function tagFile(tag: string): string {
  return tag
    .replace(/([a-z\d])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .join('-')
}

// ---------------------------------------------------------------------------
// Reading a spec.

const methods = ['get', 'put', 'post', 'delete', 'patch'] as const

function refName(ref: unknown): string | undefined {
  return typeof ref === 'string' ? ref.split('/').pop() : undefined
}

/** The object a `$ref` points at (`#/components/<kind>/<name>`), or `value`. */
function deref<type>(doc: Document, value: unknown): type {
  let current = value as Json
  for (let depth = 0; current && typeof current.$ref === 'string'; depth++) {
    if (depth > 10) throw new Error(`$ref cycle at ${String(current.$ref)}`)
    const [hash, kind, group, name] = (current.$ref as string).split('/')
    if (hash !== '#' || kind !== 'components' || !group || !name)
      throw new Error(`Unsupported $ref ${String(current.$ref)}`)
    const target = (doc.components as Record<string, Record<string, Json>>)?.[
      group
    ]?.[name]
    if (!target) throw new Error(`Dangling $ref ${String(current.$ref)}`)
    current = target
  }
  return current as type
}

/** A TSDoc block for `lines` (empty lines dropped), indented by `indent`. */
function tsdoc(lines: readonly (string | undefined)[], indent = ''): string {
  const text = lines
    .filter((line): line is string => Boolean(line?.trim()))
    .join('\n\n')
    .replaceAll('*/', '*\\/')
    .split('\n')
    .map((line) => line.trimEnd())
  if (text.length === 0) return ''
  if (text.length === 1) return `${indent}/** ${text[0]} */`
  return `${indent}/**\n${text.map((line) => `${indent} *${line ? ` ${line}` : ''}`).join('\n')}\n${indent} */`
}

/** `block` and a line break, or nothing for an empty block. */
const line = (block: string) => (block ? `${block}\n` : '')

/** A single-quoted string literal. */
const quote = (text: string) =>
  `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'").replaceAll('\n', '\\n')}'`
/** `operations["Get a list"]` and such: an index into openapi-typescript's types. */
const index = (key: string) => `[${quote(key)}]`
/** A property name, quoted when it is not an identifier. */
const prop = (key: string) =>
  /^[A-Za-z_$][\w$]*$/.test(key) ? key : quote(key)

/** The credentials of an operation of an OpenAPI 3 spec, from its security. */
function securityCredentials(doc: Document, op: Json): string[] {
  const requirements = (op.security ?? doc.security ?? []) as Record<
    string,
    string[]
  >[]
  const credentials = new Set<string>()
  for (const requirement of requirements)
    for (const scheme of Object.keys(requirement)) {
      const definition = doc.components?.securitySchemes?.[scheme]
      if (!definition) throw new Error(`Unknown security scheme ${scheme}`)
      if (definition.type === 'apiKey') {
        if (definition.in !== 'header' || definition.name !== apiKeyHeader)
          throw new Error(
            `Security scheme ${scheme}: only the ${apiKeyHeader} header is supported`,
          )
        credentials.add('apiKey')
      } else if (definition.type === 'http' && definition.scheme === 'bearer')
        credentials.add('bearer')
      else throw new Error(`Unsupported security scheme ${scheme}`)
    }
  return [...credentials]
}

/** The header names that carry credentials as parameters (legacy exchange API). */
const credentialHeaders: Record<string, string> = {
  'x-immutable-api-key': 'apiKey',
  authorization: 'bearer',
  'x-imx-eth-signature': 'imxEthSignature',
  'imx-signature': 'imxSignature',
}

const apiKeyHeader = 'x-immutable-api-key'

/** Whether a query parameter is a date filter (sent as an ISO timestamp). */
function isDate(doc: Document, param: Param): boolean {
  const schema = deref<Json>(doc, param.schema ?? {})
  return (
    schema.format === 'date-time' ||
    (param.in === 'query' && /_timestamp$/.test(param.name))
  )
}

/** Reads the operations of `doc`, in the spec's order. */
function readOperations(doc: Document, swagger2: boolean): Op[] {
  const operations: Op[] = []
  const seen = new Set<string>()
  for (const [path, item] of Object.entries(doc.paths)) {
    const shared = (item.parameters ?? []) as Json[]
    for (const http of methods) {
      const op = item[http] as Json | undefined
      if (!op) continue
      const operationId = op.operationId
      if (typeof operationId !== 'string')
        throw new Error(`${http.toUpperCase()} ${path} has no operationId`)
      if (seen.has(operationId))
        throw new Error(`Duplicate operationId ${operationId}`)
      seen.add(operationId)
      const method = camelCase(operationId)
      const pascal = pascalCase(operationId)
      const ts = `operations${index(operationId)}`

      // Parameters: the path item's, overridden by the operation's.
      const params = new Map<string, Param>()
      for (const raw of [...shared, ...((op.parameters ?? []) as Json[])]) {
        const param = deref<Param>(doc, raw)
        if (param.in === 'cookie')
          throw new Error(`${operationId}: cookie parameters are not supported`)
        params.set(`${param.in}:${param.name}`, param)
      }
      const fields: Field[] = [...params.values()].map((param) => {
        const group = `${ts}['parameters']${index(param.in)}`
        const container = param.required ? group : `NonNullable<${group}>`
        const type = `${container}${index(param.name)}`
        return {
          name: camelCase(param.name),
          in: param.in as Field['in'],
          key: param.name,
          required: Boolean(param.required),
          description: param.description,
          type: isDate(doc, param) ? `${type} | Date` : type,
        }
      })

      // The body, as openapi-generator names it: the Swagger 2 body
      // parameter's name, else the schema's (an array's items' schema).
      if (op.requestBody) {
        const body = deref<Json>(doc, op.requestBody)
        const content = (body.content ?? {}) as Record<string, Json>
        const types = Object.keys(content)
        if (types.length !== 1 || types[0] !== 'application/json')
          throw new Error(`${operationId}: only JSON bodies are supported`)
        const schema = (content['application/json']?.schema ?? {}) as Json
        const items = (schema.items ?? {}) as Json
        const named =
          (op['x-codegen-request-body-name'] as string | undefined) ??
          refName(schema.$ref) ??
          refName(items.$ref) ??
          `${pascal}Request`
        const group = `${ts}['requestBody']`
        fields.push({
          name: camelCase(named),
          in: 'body',
          required: Boolean(body.required),
          description: body.description as string | undefined,
          type: `${body.required ? group : `NonNullable<${group}>`}['content']['application/json']`,
        })
      }
      // Required first (a stable sort keeps the spec's order in each group).
      fields.sort((a, b) => Number(b.required) - Number(a.required))
      const names = new Set(fields.map((field) => field.name))
      if (names.size !== fields.length)
        throw new Error(`${operationId}: two parameters share a field name`)

      const credentials = swagger2
        ? [
            ...new Set(
              fields.flatMap((field) => {
                const kind =
                  field.in === 'header'
                    ? credentialHeaders[field.key!.toLowerCase()]
                    : undefined
                return kind ? [kind] : []
              }),
            ),
          ]
        : securityCredentials(doc, op)

      // The success answer: the first 2xx with a JSON body.
      const responses = (op.responses ?? {}) as Record<string, unknown>
      const success = Object.keys(responses).find((code) =>
        /^2\d\d$/.test(code),
      )
      const answer = success ? deref<Json>(doc, responses[success]) : undefined
      const json = (answer?.content as Json | undefined)?.['application/json']
      const response =
        success && json
          ? `${ts}['responses'][${success}]['content']['application/json']`
          : 'void'

      const tags = (op.tags as string[] | undefined) ?? ['default']
      operations.push({
        operationId,
        method,
        pascal,
        http: http.toUpperCase(),
        path,
        tags,
        summary: op.summary as string | undefined,
        description: op.description as string | undefined,
        deprecated: op.deprecated === true,
        fields,
        credentials,
        response,
      })
    }
  }
  return operations
}

// ---------------------------------------------------------------------------
// Enumerations, named as openapi-generator names them.

type Enum = { name: string; values: string[]; description?: string | undefined }

function readEnums(doc: Document, operations: readonly Op[]): Enum[] {
  const enums = new Map<string, Enum>()
  const add = (name: string, schema: Json) => {
    const values = (schema.enum as unknown[]).filter(
      (value): value is string => typeof value === 'string',
    )
    if (values.length === 0) return
    const existing = enums.get(name)
    if (existing) {
      if (existing.values.join() !== values.join())
        throw new Error(`Two enumerations named ${name}`)
      return
    }
    enums.set(name, {
      name,
      values,
      description: schema.description as string | undefined,
    })
  }
  // The enumerations of a model's properties, and of its inline parts.
  const visit = (model: string, schema: Json) => {
    if (Array.isArray(schema.enum)) {
      add(model, schema)
      return
    }
    const allOf = (schema.allOf ?? []) as Json[]
    const inline = allOf.filter((part) => !part.$ref)
    inline.forEach((part, i) => {
      visit(`${model}AllOf${i === 0 ? '' : i}`, part)
    })
    const properties = (schema.properties ?? {}) as Record<string, Json>
    for (const [key, property] of Object.entries(properties)) {
      if (property.$ref) continue
      const items = (property.items ?? {}) as Json
      if (Array.isArray(property.enum))
        add(`${model}${pascalCase(key)}Enum`, property)
      else if (Array.isArray(items.enum) && !items.$ref)
        add(`${model}${pascalCase(key)}Enum`, items)
      else if (property.properties || property.allOf)
        visit(`${model}${pascalCase(key)}`, property)
    }
  }
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {}))
    visit(modelName(name), schema)
  // Enumerations declared inline on an operation's parameters.
  for (const op of operations) {
    const item = doc.paths[op.path]!
    const raw = item[op.http.toLowerCase()] as Json
    for (const entry of (raw.parameters ?? []) as Json[]) {
      if (entry.$ref) continue
      const schema = (entry.schema ?? {}) as Json
      const items = (schema.items ?? {}) as Json
      if (schema.$ref) continue
      const name = `${op.pascal}${pascalCase(entry.name as string)}Enum`
      if (Array.isArray(schema.enum)) add(name, schema)
      else if (Array.isArray(items.enum) && !items.$ref) add(name, items)
    }
  }
  return [...enums.values()].sort((a, b) => a.name.localeCompare(b.name))
}

// ---------------------------------------------------------------------------
// Writing.

const banner = (spec: Spec, what: string) =>
  [
    `// Generated by scripts/generate-api.ts from ${spec.file}: ${what}.`,
    '// Do not edit: change the generator or the spec and run `npm run generate:api`.',
    '',
  ].join('\n')

/** The operations module of one tag: `export const getActivity = {…}`. */
function operationsModule(spec: Spec, tag: string, ops: readonly Op[]): string {
  const lines = [
    banner(spec, `the operations of the tag "${tag}"`),
    "import type { Operation } from '../../operation.js'",
    '',
  ]
  for (const op of ops) {
    const parameters = op.fields.map((field) => {
      const parts = [`name: ${quote(field.name)}`, `in: ${quote(field.in)}`]
      if (field.key !== undefined) parts.push(`key: ${quote(field.key)}`)
      if (field.required) parts.push('required: true')
      return `    { ${parts.join(', ')} },`
    })
    lines.push(
      `${line(tsdoc([`${op.http} ${op.path}`]))}export const ${op.method} = {`,
      `  id: ${quote(op.method)},`,
      `  method: ${quote(op.http)},`,
      `  path: ${quote(op.path)},`,
      parameters.length
        ? ['  parameters: [', ...parameters, '  ],'].join('\n')
        : '  parameters: [],',
      `  credentials: [${op.credentials.map(quote).join(', ')}],`,
      '} as const satisfies Operation',
      '',
    )
  }
  return lines.join('\n')
}

/** The class of one tag, with its request-parameters types. */
function classModule(spec: Spec, tag: string, ops: readonly Op[]): string {
  const name = className(tag)
  const lines = [
    banner(spec, `the class of the tag "${tag}"`),
    `import type { operations } from '../wire/${spec.name}/schema.generated.js'`,
    `import * as Operations from '../wire/${spec.name}/operations/${tagFile(tag)}.generated.js'`,
    "import type { ApiResponse, RequestOptions } from '../BaseAPI.js'",
    `import { BaseAPI } from './base.generated.js'`,
    '',
  ]
  for (const op of ops) {
    if (op.fields.length === 0) continue
    lines.push(
      `${line(tsdoc([`Request parameters for ${op.method} operation in ${name}.`]))}export type ${name}${op.pascal}Request = {`,
      ...op.fields.map(
        (field) =>
          `${line(tsdoc([field.description], '  '))}  readonly ${prop(field.name)}${field.required ? '' : '?'}: ${field.type}${field.required ? '' : ' | undefined'}`,
      ),
      '}',
      '',
    )
  }
  lines.push(
    `${line(tsdoc([`${pascalCase(tag)}: the operations of the tag "${tag}".`]))}export class ${name} extends BaseAPI {`,
  )
  for (const op of ops) {
    const request = `${name}${op.pascal}Request`
    const optional = op.fields.every((field) => !field.required)
    const signature =
      op.fields.length === 0
        ? 'options?: RequestOptions'
        : `requestParameters: ${request}${optional ? ' = {}' : ''}, options?: RequestOptions`
    const args =
      op.fields.length === 0
        ? 'undefined, options'
        : 'requestParameters, options'
    lines.push(
      `${line(
        tsdoc(
          [
            op.summary,
            op.description !== op.summary ? op.description : undefined,
            `\`${op.http} ${op.path}\``,
            op.deprecated ? '@deprecated' : undefined,
            '@throws {RequiredError} when a required parameter is missing',
          ],
          '  ',
        ),
      )}  ${op.method}(${signature}): Promise<ApiResponse<${op.response}>> {`,
      `    return this.send(Operations.${op.method}, ${args})`,
      '  }',
    )
  }
  lines.push('}', '')
  return lines.join('\n')
}

function enumsModule(spec: Spec, enums: readonly Enum[]): string {
  const lines = [banner(spec, 'its enumerations')]
  for (const { name, values, description } of enums) {
    const keys = new Set<string>()
    const members = values.flatMap((value) => {
      const key = enumKey(value)
      if (keys.has(key)) return []
      keys.add(key)
      return [`  ${prop(key)}: ${quote(value)},`]
    })
    lines.push(
      `${line(tsdoc([description]))}export const ${name} = {`,
      ...members,
      '} as const',
      `export type ${name} = (typeof ${name})[keyof typeof ${name}]`,
      '',
    )
  }
  return lines.join('\n')
}

function modelsModule(
  spec: Spec,
  doc: Document,
  enums: readonly Enum[],
): string {
  const taken = new Set(enums.map((entry) => entry.name))
  const lines = [
    banner(spec, 'a type per schema'),
    `import type { components } from '../wire/${spec.name}/schema.generated.js'`,
    '',
  ]
  for (const schema of Object.keys(doc.components?.schemas ?? {})) {
    const name = modelName(schema)
    // An enumeration is its `as const` object's type already.
    if (taken.has(name)) continue
    taken.add(name)
    lines.push(`export type ${name} = components['schemas']${index(schema)}`)
  }
  lines.push('')
  return lines.join('\n')
}

function baseModule(spec: Spec, basePath: string): string {
  return [
    banner(spec, "the base class of its tags' classes"),
    "import { BaseAPI as Base, type Fetch } from '../BaseAPI.js'",
    "import type { Configuration } from '../Configuration.js'",
    '',
    `${line(tsdoc([`The default base path: the spec's first server.`]))}export const BASE_PATH = ${quote(basePath)}`,
    '',
    `${line(tsdoc([`The base class of the classes of ${spec.title}.`]))}export class BaseAPI extends Base {`,
    '  constructor(',
    '    configuration?: Configuration,',
    '    basePath: string = BASE_PATH,',
    '    fetch?: Fetch,',
    '  ) {',
    '    super(configuration, basePath, fetch)',
    '  }',
    '}',
    '',
  ].join('\n')
}

function indexModule(spec: Spec, tags: readonly string[]): string {
  return [
    banner(spec, 'the namespace'),
    ...tags.map((tag) => `export * from './${tagFile(tag)}.generated.js'`),
    `export * from '../wire/${spec.name}/enums.generated.js'`,
    "export * from './models.generated.js'",
    "export { Configuration, type ConfigurationParameters } from '../Configuration.js'",
    '',
  ].join('\n')
}

/** Reads a spec, as OpenAPI 3. */
async function load(spec: Spec): Promise<Document> {
  const text = readFileSync(join(repoRoot, spec.file), 'utf8')
  const input = JSON.parse(text) as Json
  if (!spec.swagger2) return input as Document
  const { openapi } = (await converter.convertObj(input, {
    patch: true,
    warnOnly: true,
    // Keeps each Swagger 2 body parameter's name: the body field's name.
    rbname: 'x-codegen-request-body-name',
  })) as { openapi: Document }
  return openapi
}

/**
 * Every generated file, by path from the root, as it should be on disk.
 */
export async function generate(): Promise<Map<string, string>> {
  const files = new Map<string, string>()
  for (const spec of specs) {
    const doc = await load(spec)
    const types = astToString(
      await openapiTS(doc as unknown as Parameters<typeof openapiTS>[0]),
    )
    files.set(
      `src/api/wire/${spec.name}/schema.generated.ts`,
      `${banner(spec, "openapi-typescript's types")}\n${types}`,
    )
    const operations = readOperations(doc, spec.swagger2)
    const tags = [...new Set(operations.flatMap((op) => op.tags))]
    const byFile = new Map<string, string>()
    for (const tag of tags) {
      const file = tagFile(tag)
      if (byFile.has(file))
        throw new Error(`Tags ${tag} and ${byFile.get(file)} share a file`)
      byFile.set(file, tag)
      const ops = operations.filter((op) => op.tags.includes(tag))
      const methodNames = new Set(ops.map((op) => op.method))
      if (methodNames.size !== ops.length)
        throw new Error(`Tag ${tag}: two operations share a method name`)
      // The base class's own members are not operation names.
      for (const reserved of ['send', 'basePath', 'configuration', 'fetch'])
        if (methodNames.has(reserved))
          throw new Error(`Tag ${tag}: an operation is named ${reserved}`)
      files.set(
        `src/api/wire/${spec.name}/operations/${file}.generated.ts`,
        operationsModule(spec, tag, ops),
      )
      files.set(
        `src/api/${spec.name}/${file}.generated.ts`,
        classModule(spec, tag, ops),
      )
    }
    const enums = readEnums(doc, operations)
    files.set(
      `src/api/wire/${spec.name}/enums.generated.ts`,
      enumsModule(spec, enums),
    )
    files.set(
      `src/api/${spec.name}/models.generated.ts`,
      modelsModule(spec, doc, enums),
    )
    const server = doc.servers?.[0]?.url
    if (!server) throw new Error(`${spec.file} names no server`)
    files.set(
      `src/api/${spec.name}/base.generated.ts`,
      baseModule(spec, server.replace(/\/+$/, '')),
    )
    files.set(
      `src/api/${spec.name}/index.generated.ts`,
      indexModule(spec, tags),
    )
  }
  return files
}

/** The generated files on disk now, by path from the root. */
export function onDisk(): Map<string, string> {
  const files = new Map<string, string>()
  for (const dir of generatedDirs) {
    const absolute = join(repoRoot, dir)
    if (!existsSync(absolute)) continue
    for (const entry of readdirSync(absolute, { withFileTypes: true }))
      if (entry.isFile() && entry.name.endsWith('.generated.ts'))
        files.set(
          `${dir}/${entry.name}`,
          readFileSync(join(absolute, entry.name), 'utf8'),
        )
  }
  return files
}

async function main() {
  const files = await generate()
  const current = onDisk()
  if (process.argv.includes('--check')) {
    const stale = [
      ...[...files]
        .filter(([path, text]) => current.get(path) !== text)
        .map(([path]) => path),
      ...[...current.keys()].filter((path) => !files.has(path)),
    ]
    if (stale.length) {
      process.stderr.write(
        `Out of date (run npm run generate:api):\n${stale.map((path) => `  ${path}`).join('\n')}\n`,
      )
      process.exitCode = 1
    }
    return
  }
  for (const path of current.keys())
    if (!files.has(path)) rmSync(join(repoRoot, path))
  for (const [path, text] of files) {
    mkdirSync(dirname(join(repoRoot, path)), { recursive: true })
    if (current.get(path) !== text) writeFileSync(join(repoRoot, path), text)
  }
  process.stdout.write(`Wrote ${files.size} files under src/api/.\n`)
}

if (import.meta.url === `file://${process.argv[1]}`) await main()
