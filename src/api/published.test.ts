import * as Published from '@imtbl/generated-clients'
import * as PublishedImx from 'imtbl-generated-clients-2.14.0'
import { describe, expect, test } from 'vitest'
import * as Entry from './index.js'

/**
 * Drop-in: every class, method and request-parameters field of the
 * published @imtbl/generated-clients (the `mr` namespace of 2.24.8, the
 * `imx` namespace of 2.14.0, the last version that had it) exists here,
 * and each method builds the same request as the published one for the
 * same call: method, URL (path and query, in order), headers and body.
 * The published request is read from a stand-in axios instance; ours from
 * a stand-in fetch.
 */

type Namespace = Record<string, unknown>
type ApiClass = new (
  configuration?: unknown,
  basePath?: string,
  transport?: unknown,
) => Record<string, (...args: unknown[]) => Promise<unknown>>

/** The classes of a namespace (`ChainsApi`, …) and their methods. */
function classesOf(namespace: Namespace) {
  return Object.entries(namespace)
    .filter(
      ([name, value]) => name.endsWith('Api') && typeof value === 'function',
    )
    .map(([name, value]) => ({
      name,
      type: value as ApiClass,
      methods: Object.getOwnPropertyNames((value as ApiClass).prototype)
        .filter((method) => method !== 'constructor')
        .sort(),
    }))
}

const basePath = 'https://api.example'
const credentials = { apiKey: 'sk_test_key', accessToken: 'token-1' }

/** The request a published method sends, through a stand-in axios. */
async function publishedRequest(
  namespace: Namespace,
  className: string,
  method: string,
  args: readonly unknown[],
) {
  let captured: Record<string, unknown> | undefined
  const axios = {
    defaults: {},
    request: async (config: Record<string, unknown>) => {
      captured = config
      return { data: {}, status: 200, statusText: 'OK', headers: {} }
    },
  }
  const Configuration = namespace.Configuration as new (
    options: object,
  ) => unknown
  const Class = namespace[className] as ApiClass
  const api = new Class(
    new Configuration({ basePath, ...credentials }),
    basePath,
    axios,
  )
  const error = await api[method]!(...args).then(
    () => undefined,
    (error: unknown) => error,
  )
  if (error) return { error: errorOf(error) }
  const headers = Object.fromEntries(
    Object.entries(
      (captured?.headers ?? {}) as Record<string, string | undefined>,
    )
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [name.toLowerCase(), String(value)]),
  )
  return {
    method: captured?.method,
    url: captured?.url,
    headers,
    body: captured?.data,
  }
}

/** The request our method sends, through a stand-in fetch. */
async function ourRequest(
  namespace: Namespace,
  className: string,
  method: string,
  args: readonly unknown[],
) {
  let captured: { url: string; init: RequestInit } | undefined
  const fetch = async (url: string, init: RequestInit) => {
    captured = { url, init }
    return new Response('{}', { status: 200 })
  }
  const Configuration = namespace.Configuration as new (
    options: object,
  ) => unknown
  const Class = namespace[className] as ApiClass
  const api = new Class(
    new Configuration({ basePath, ...credentials }),
    basePath,
    fetch,
  )
  const error = await api[method]!(...args).then(
    () => undefined,
    (error: unknown) => error,
  )
  if (error) return { error: errorOf(error) }
  const headers = Object.fromEntries(
    new Headers(captured?.init.headers).entries(),
  )
  expect(headers['x-sdk-version']).toBe('ts-immutable-sdk-2.2.0')
  delete headers['x-sdk-version']
  return {
    method: captured?.init.method,
    url: captured?.url,
    headers,
    body: captured?.init.body,
  }
}

function errorOf(error: unknown) {
  const { name, message, field } = error as {
    name: string
    message: string
    field?: string
  }
  return { name, message, field }
}

/**
 * The fields a published method reads from its request-parameters object,
 * in the order it reads them (which is the order of its positional
 * arguments, required ones first).
 */
async function fieldsOf(
  namespace: Namespace,
  className: string,
  method: string,
): Promise<string[]> {
  const fields: string[] = []
  const recorder = new Proxy(
    {},
    {
      get(_, key) {
        if (typeof key === 'string') fields.push(key)
        return undefined
      },
    },
  )
  await publishedRequest(namespace, className, method, [recorder])
  return fields
}

/** Three calls with every field set: strings, objects (a JSON body, dotted query keys), arrays (repeated query keys). */
function samples(fields: readonly string[]): Record<string, unknown>[] {
  const of = (value: (field: string) => unknown) =>
    Object.fromEntries(fields.map((field) => [field, value(field)]))
  return [
    of((field) => `v ${field}/é`),
    of((field) => ({ a: field, n: 1, nested: { b: true } })),
    of((field) => [`${field}-1`, `${field}-2`]),
  ]
}

const specs = [
  {
    name: 'mr',
    version: '@imtbl/generated-clients 2.24.8',
    published: Published.mr as unknown as Namespace,
    ours: Entry.mr as unknown as Namespace,
    // The newer spec gives each order item kind its own schema: the native
    // item's and the ERC-721 collection item's `type` have one value each
    // now (the whole set is `ItemType`).
    narrowed: [
      'ERC721CollectionItemTypeEnum.Erc1155Collection',
      'NativeItemTypeEnum.Erc20',
      'NativeItemTypeEnum.Erc721',
      'NativeItemTypeEnum.Erc1155',
      'NativeItemTypeEnum.Erc721Collection',
      'NativeItemTypeEnum.Erc1155Collection',
    ],
  },
  {
    name: 'imx',
    version: '@imtbl/generated-clients 2.14.0',
    published: PublishedImx.imx as unknown as Namespace,
    ours: Entry.imx as unknown as Namespace,
    narrowed: [],
  },
] as const

describe.each(specs)(
  '$name as in $version',
  ({ published, ours, narrowed }) => {
    const classes = classesOf(published)

    test('behavior: every published class has its methods here', () => {
      expect(classes.length).toBeGreaterThan(10)
      const missing = classes.flatMap(({ name, methods }) => {
        const type = ours[name] as ApiClass | undefined
        if (!type) return [name]
        const here = Object.getOwnPropertyNames(type.prototype)
        return methods
          .filter((method) => !here.includes(method))
          .map((method) => `${name}.${method}`)
      })
      expect(missing).toEqual([])
    })

    test('behavior: every published enumeration is here, with its members', () => {
      const enums = Object.entries(published).filter(
        ([, value]) => typeof value === 'object' && value !== null,
      )
      expect(enums.length).toBeGreaterThan(5)
      const differences: string[] = []
      for (const [name, value] of enums) {
        const here = (ours[name] ?? {}) as Record<string, string>
        for (const [key, member] of Object.entries(
          value as Record<string, string>,
        ))
          if (here[key] !== member) differences.push(`${name}.${key}`)
      }
      expect(differences).toEqual(narrowed)
    })

    test('behavior: each method reads the same request-parameters fields, and sends the same request', async () => {
      let compared = 0
      for (const { name, methods } of classes)
        for (const method of methods) {
          const fields = await fieldsOf(published, name, method)
          // A method without parameters reads `headers` of its options.
          const calls =
            fields.length === 1 && fields[0] === 'headers'
              ? [[]]
              : samples(fields).map((sample) => [sample])
          for (const args of calls) {
            const theirs = await publishedRequest(published, name, method, args)
            const mine = await ourRequest(ours, name, method, args)
            expect(mine, `${name}.${method}`).toEqual(theirs)
            compared++
          }
        }
      expect(compared).toBeGreaterThan(150)
    })

    test('error: a missing required parameter gives the published RequiredError', async () => {
      let compared = 0
      for (const { name, methods } of classes)
        for (const method of methods) {
          const theirs = await publishedRequest(published, name, method, [{}])
          if (!('error' in theirs)) continue
          const mine = await ourRequest(ours, name, method, [{}])
          expect(mine, `${name}.${method}`).toEqual(theirs)
          expect(theirs.error.name).toBe('RequiredError')
          compared++
        }
      expect(compared).toBeGreaterThan(40)
    })
  },
)
