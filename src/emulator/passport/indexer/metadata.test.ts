import { describe, expect, test } from 'vitest'
import {
  contentKey,
  contentOfInput,
  contentOfJson,
  erc1155Uri,
  jsonOfDataUri,
  maxMetadataBytes,
  maxTokenUriLength,
} from './metadata.js'

describe('jsonOfDataUri', () => {
  test('behavior: reads base64 and percent-encoded data: URIs of JSON, with parameters', () => {
    const json = { name: 'Sword é', attributes: [] }
    const base64 = Buffer.from(JSON.stringify(json)).toString('base64')
    expect(jsonOfDataUri(`data:application/json;base64,${base64}`)).toEqual(
      json,
    )
    expect(
      jsonOfDataUri(`data:application/json;charset=utf-8;base64,${base64}`),
    ).toEqual(json)
    expect(
      jsonOfDataUri(
        `data:application/json,${encodeURIComponent(JSON.stringify(json))}`,
      ),
    ).toEqual(json)
    expect(jsonOfDataUri('data:application/json;utf8,{"name":"A"}')).toEqual({
      name: 'A',
    })
  })

  test('error: any other URI, undecodable text, JSON that is no object and oversized URIs give undefined', () => {
    for (const uri of [
      'https://example.com/1.json',
      'ipfs://bafy/1.json',
      'data:text/plain,{"name":"A"}',
      'data:application/json,%E0%A4%A',
      'data:application/json,{"name":',
      'data:application/json,[1,2]',
      'data:application/json,null',
      `data:application/json,${'{"a":"'.padEnd(maxTokenUriLength + 10, 'x')}"}`,
      '',
    ])
      expect({ uri: uri.slice(0, 60), json: jsonOfDataUri(uri) }).toEqual({
        uri: uri.slice(0, 60),
        json: undefined,
      })
  })
})

describe('contentOfJson', () => {
  test('behavior: keeps the fields of their types, the marketplace aliases, and well-formed attributes', () => {
    expect(
      contentOfJson({
        name: 'Sword',
        description: 7,
        image_url: 'https://img/1.png',
        external_link: 'https://game/1',
        animation_url: 'https://anim/1',
        youtube_url: null,
        attributes: [
          { trait_type: 'rarity', value: 'rare' },
          { trait_type: 'level', value: 3, display_type: 'number' },
          { trait_type: 'shiny', value: true },
          { trait_type: 'bad', value: { nested: 1 } },
          { value: 'no type' },
          'text',
        ],
      }),
    ).toEqual({
      name: 'Sword',
      description: null,
      image: 'https://img/1.png',
      external_url: 'https://game/1',
      animation_url: 'https://anim/1',
      youtube_url: null,
      attributes: [
        { trait_type: 'rarity', value: 'rare' },
        { trait_type: 'level', value: 3, display_type: 'number' },
        { trait_type: 'shiny', value: true },
      ],
    })
  })
})

describe('contentOfInput', () => {
  test('behavior: leaves out what is not given, or requires every field', () => {
    expect(contentOfInput({ name: 'A' })).toEqual({
      name: 'A',
      description: null,
      image: null,
      external_url: null,
      animation_url: null,
      youtube_url: null,
      attributes: null,
    })
    expect(
      contentOfInput({ name: 'A' }, { required: true, where: 'm[0]' }),
    ).toBe('m[0].description is required (a string or null).')
  })

  test('error: wrong types, display types and sizes are refused with a reason', () => {
    expect(contentOfInput('x')).toBe('metadata must be an object.')
    expect(contentOfInput({ name: 1 })).toBe(
      'metadata.name must be a string or null.',
    )
    expect(contentOfInput({ attributes: {} })).toBe(
      'metadata.attributes must be an array or null.',
    )
    expect(
      contentOfInput({
        attributes: [{ trait_type: 'a', value: 1, display_type: 'bold' }],
      }),
    ).toBe(
      'metadata.attributes[0] has a display_type other than number, boost_percentage, boost_number, date.',
    )
    expect(contentOfInput({ attributes: [{ trait_type: 'a' }] })).toBe(
      'metadata.attributes[0] needs a value (a string, a number or a boolean).',
    )
    expect(contentOfInput({ name: 'x'.repeat(maxMetadataBytes) })).toBe(
      'metadata must not exceed 16 KiB.',
    )
  })
})

describe('contentKey and erc1155Uri', () => {
  test('behavior: equal contents have one key, any difference another', () => {
    const a = contentOfJson({
      name: 'A',
      attributes: [{ trait_type: 't', value: 1 }],
    })
    const b = contentOfJson({
      attributes: [{ trait_type: 't', value: 1 }],
      name: 'A',
    })
    const c = contentOfJson({
      name: 'A',
      attributes: [{ trait_type: 't', value: '1' }],
    })
    expect(contentKey(a)).toBe(contentKey(b))
    expect(contentKey(a)).not.toBe(contentKey(c))
  })

  test('behavior: {id} becomes the id in 64 lowercase hex digits', () => {
    expect(erc1155Uri('x/{id}.json', 255n)).toBe(`x/${'0'.repeat(62)}ff.json`)
  })
})
