/**
 * fast-check arbitraries for hostile HTTP requests, derived from the app's OpenAPI document:
 * bodies shaped like an operation's schema with one or more fields spoiled, random JSON,
 * malformed JSON text, wrong content types, odd query strings, path parameters and headers.
 * Used by request-properties.test.ts (issue 7).
 */
import fc from 'fast-check'

export type JsonSchema = {
  $ref?: string
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  additionalProperties?: JsonSchema | boolean
  required?: string[]
  items?: JsonSchema
  enum?: unknown[]
  const?: unknown
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  allOf?: JsonSchema[]
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  maxItems?: number
  format?: string
}

type OpenApiParameter = { in: 'path' | 'query' | 'header' | 'cookie'; name: string; schema?: JsonSchema }
type OpenApiOperation = {
  parameters?: OpenApiParameter[]
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> }
  security?: Record<string, string[]>[]
  'x-access'?: Access
}

/** A route's declared access rule (server/http/access.ts), as the document publishes it. */
export type AccessRule = {
  who: 'member' | 'admin'
  apiKey: string
  workspaceRole?: 'owner' | 'admin' | 'member' | 'viewer'
  /** Only a connected device's own token (docs/decisions/031). */
  deviceOnly?: true
}
export type Access = 'anyone' | (AccessRule & { whenQuery?: { name: string; value: string; rule: AccessRule } })
export type OpenApiDocument = {
  paths: Record<string, Record<string, OpenApiOperation>>
  components?: { schemas?: Record<string, JsonSchema> }
}

export interface Operation {
  /** e.g. "PUT /api/users/{id}" */
  key: string
  method: string
  /** The path template under /api, with {name} placeholders. */
  path: string
  pathParams: string[]
  queryParams: { name: string; schema: JsonSchema }[]
  headerParams: string[]
  bodySchema: JsonSchema | null
  signedIn: boolean
  access: Access
}

/** Every operation of the document, with its path made absolute (/api/...). */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = []
  for (const [template, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = operation.parameters ?? []
      const path = `/api${template}`
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: parameters.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: resolve(p.schema ?? {}, document) })),
        headerParams: parameters.filter((p) => p.in === 'header').map((p) => p.name),
        bodySchema: operation.requestBody?.content?.['application/json']?.schema
          ? resolve(operation.requestBody.content['application/json'].schema, document)
          : null,
        signedIn: Boolean(operation.security?.length),
        access: operation['x-access'] ?? 'anyone',
      })
    }
  }
  return operations
}

function resolve(schema: JsonSchema, document: OpenApiDocument): JsonSchema {
  if (!schema.$ref) return schema
  const name = schema.$ref.split('/').at(-1) ?? ''
  return resolve(document.components?.schemas?.[name] ?? {}, document)
}

// ---------------------------------------------------------------------------------------------
// Values

/** Strings that have broken servers before: NUL, lone surrogates, RTL marks, SQL and LIKE syntax. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\u202e\u200b\ufeff',
  '😀'.repeat(30),
  "'; drop table users; --",
  '%_\\',
  '../../../../etc/passwd',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  'null',
  'true',
  '-1',
  '1e309',
  'NaN',
  '0x1F',
  '9'.repeat(40),
  '__proto__',
  'constructor',
]

const longString = fc.constantFrom(500, 5_000, 70_000, 1_100_000).map((length) => 'x'.repeat(length))

/** Text with a NUL character, which PostgreSQL refuses to store or compare in a text column. */
const withNul = fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })).map(([head, tail]) => `${head}\u0000${tail}`)

const anyString = fc.oneof(
  { arbitrary: fc.constantFrom(...NASTY_STRINGS), weight: 3 },
  { arbitrary: withNul, weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }), weight: 2 },
  { arbitrary: longString, weight: 1 },
)

const oddNumber = fc.oneof(
  fc.constantFrom(0, -1, -0, 1.5, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308, Number.MAX_SAFE_INTEGER, Number.MIN_VALUE),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
)

/** Deeply nested arrays or objects, as values (JSON.stringify copes with a few thousand levels). */
const deepValue = fc.tuple(fc.constantFrom(50, 1_000, 3_000), fc.boolean()).map(([depth, objects]) => {
  let value: unknown = 1
  for (let i = 0; i < depth; i++) value = objects ? { a: value } : [value]
  return value
})

/** A value of the wrong kind for any field. */
const badValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constant(null), weight: 2 },
  { arbitrary: anyString, weight: 3 },
  { arbitrary: oddNumber, weight: 2 },
  { arbitrary: fc.boolean(), weight: 1 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 2 },
  { arbitrary: deepValue, weight: 1 },
  { arbitrary: fc.array(anyString, { maxLength: 5 }), weight: 1 },
  { arbitrary: fc.constant({ __proto__: null, toString: 'x', valueOf: 1 }), weight: 1 },
)

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type
  if (schema.type) return [schema.type]
  if (schema.properties) return ['object']
  return []
}

/** A value that a schema mostly accepts (the odd one is out of range on purpose: close to the edge). */
function validishValue(schema: JsonSchema, name = '', depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const)
  if (schema.enum?.length) return fc.constantFrom(...schema.enum)
  const alternatives = schema.anyOf ?? schema.oneOf
  if (alternatives?.length) return fc.oneof(...alternatives.map((alternative) => validishValue(alternative, name, depth)))
  if (schema.allOf?.length) return validishValue(Object.assign({}, ...schema.allOf) as JsonSchema, name, depth)
  const types = typesOf(schema)
  if (!types.length) return depth > 2 ? fc.jsonValue({ maxDepth: 2 }) : fc.jsonValue({ maxDepth: 3 })
  return fc.oneof(...types.map((type) => valueOfType(type, schema, name, depth)))
}

function valueOfType(type: string, schema: JsonSchema, name: string, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null)
    case 'boolean':
      return fc.boolean()
    case 'integer':
      return fc.integer({ min: Math.max(schema.minimum ?? -1_000, -(2 ** 31)), max: Math.min(schema.maximum ?? 1_000, 2 ** 31) })
    case 'number':
      return fc.double({ min: schema.minimum ?? -1_000, max: schema.maximum ?? 1_000, noNaN: true })
    case 'string':
      return stringFor(schema, name)
    case 'array':
      return fc.array(depth > 3 ? fc.jsonValue({ maxDepth: 1 }) : validishValue(schema.items ?? {}, name, depth + 1), {
        maxLength: Math.min(schema.maxItems ?? 5, 5),
      })
    case 'object':
      return depth > 3 ? fc.constant({}) : shapedObject(schema, depth + 1)
    default:
      return fc.jsonValue({ maxDepth: 2 })
  }
}

function stringFor(schema: JsonSchema, name: string): fc.Arbitrary<string> {
  const lower = name.toLowerCase()
  const max = Math.min(schema.maxLength ?? 200, 200)
  const min = Math.min(schema.minLength ?? 0, max)
  if (lower.includes('email') || lower === 'to')
    return fc.oneof(
      fc.emailAddress(),
      fc.constantFrom('member@aether.test', 'admin@aether.test', 'victim@example.com', 'a@b', 'no-at-sign'),
    )
  if (lower.includes('password')) return fc.string({ unit: 'grapheme-ascii', minLength: 8, maxLength: 40 })
  if (schema.format === 'uri' || lower.endsWith('url'))
    return fc.oneof(fc.webUrl(), fc.constantFrom('javascript:alert(1)', 'file:///etc/passwd', 'http://127.0.0.1:22/', '/relative'))
  if (lower.includes('schedule')) return fc.constantFrom('0 9 * * 1-5', '* * * * *', '99 99 99 99 99', '@reboot', '')
  if (lower === 'timezone') return fc.constantFrom('Europe/Berlin', 'UTC', 'America/New_York', 'Mars/Olympus', '+01:00', 'constructor', '')
  if (lower === 'time') return fc.constantFrom('09:00', '23:59', '24:00', '9am', '')
  if (lower === 'expression') return fc.constantFrom('0 9 * * 1-5', '*/15 * * * *', '@reboot', '0 0 30 2 *', '')
  return fc.oneof(
    { arbitrary: fc.string({ unit: 'grapheme', minLength: Math.max(min, 1), maxLength: max }), weight: 6 },
    { arbitrary: fc.constantFrom(...NASTY_STRINGS), weight: 1 },
    { arbitrary: withNul, weight: 1 },
  )
}

/** An object shaped like the schema: most fields fitting, some spoiled, some missing, some extra. */
function shapedObject(schema: JsonSchema, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const properties = Object.entries(schema.properties ?? {})
  const fields = Object.fromEntries(
    properties.map(([name, property]) => [
      name,
      fc.oneof({ arbitrary: validishValue(property, name, depth), weight: 8 }, { arbitrary: badValue, weight: 1 }),
    ]),
  )
  const extraKeys = fc.dictionary(
    fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('id', 'userId', 'role', 'credits', 'isAdmin')),
    badValue,
    {
      maxKeys: 3,
    },
  )
  const required = (schema.required ?? []).filter((name) => name in fields)
  const record = fc.oneof(
    { arbitrary: fc.record(fields, { requiredKeys: required }), weight: 3 },
    { arbitrary: fc.record(fields, { requiredKeys: [] }), weight: 1 },
  )
  return fc.tuple(record, fc.option(extraKeys, { freq: 3 })).map(([value, extra]) => ({ ...(extra ?? {}), ...value }))
}

// ---------------------------------------------------------------------------------------------
// Bodies

export interface RawBody {
  contentType: string | null
  body: string | Uint8Array
  /** What kind of body it is, for the failure message. */
  kind: string
}

const JSON_TYPE = 'application/json'

/** Content types that are not (quite) JSON, or are JSON with odd parameters. */
const contentType = fc.oneof(
  { arbitrary: fc.constant(JSON_TYPE), weight: 10 },
  {
    arbitrary: fc.constantFrom(
      null,
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
      'multipart/form-data; boundary=----x',
      'application/json; charset=utf-16',
      'application/json; charset=latin1',
      'application/JSON',
      'application/json, text/html',
      'application/vnd.api+json',
      'application/problem+json',
      'application/octet-stream',
      ';;;',
      '*/*',
      'application/json; boundary=',
    ),
    weight: 3,
  },
)

/** Text that is not valid JSON, or is JSON that parsers handle badly. */
const malformedJson = fc.oneof(
  fc.constantFrom(
    '',
    '{',
    '{"email":',
    '{"a":1,}',
    "{'a':1}",
    'NaN',
    'undefined',
    '\ufeff{}',
    '{"a":1}{"b":2}',
    '{"__proto__":{"role":"admin","isAdmin":true}}',
    '{"constructor":{"prototype":{"role":"admin"}}}',
    `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
    `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`,
    `{"a":"${'\\u0000'.repeat(10)}"}`,
    '{"a":"\\ud800"}',
    '"just a string"',
    '123',
    'null',
    '[]',
  ),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.json({ maxDepth: 3 }).map((json) => json.slice(0, Math.max(1, Math.floor(json.length / 2)))),
)

const binaryBody = fc.uint8Array({ maxLength: 300 })

function multipartBody(boundary: string): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.constantFrom('file', 'image', 'cover', ''),
      fc.constantFrom('a.png', '../../etc/passwd', 'x.svg', 'a\u0000.png', '', '😀.webp'),
      fc.constantFrom('image/png', 'image/jpeg', 'image/webp', 'image/svg+xml', 'text/html', ''),
      fc.oneof(
        fc.constant('\x89PNG\r\n\x1a\n'),
        fc.string({ unit: 'binary-ascii', maxLength: 200 }),
        fc.constant('\xff\xd8\xff'),
        fc.constant('RIFF0000WEBPVP8 '),
      ),
      fc.boolean(),
    )
    .map(([field, filename, type, content, closed]) =>
      [
        `--${boundary}`,
        `Content-Disposition: form-data; name="${field}"; filename="${filename}"`,
        `Content-Type: ${type}`,
        '',
        content,
        closed ? `--${boundary}--` : '',
      ].join('\r\n'),
    )
}

/** A request body for an operation: shaped like its schema, random JSON, malformed, or not JSON at all. */
export function bodyFor(operation: Operation): fc.Arbitrary<RawBody | null> {
  const shaped = operation.bodySchema
    ? fc.tuple(shapedObject(operation.bodySchema), fc.constantFrom('', '__proto__', 'constructor')).map(([value, polluted]) => {
        const text = JSON.stringify(value)
        return polluted && text.length > 2 ? `{"${polluted}":{"role":"admin","credits":1e9},${text.slice(1)}` : text
      })
    : fc.constant('{}')
  const jsonText = fc.oneof(
    { arbitrary: shaped, weight: operation.bodySchema ? 6 : 1 },
    { arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)), weight: 2 },
    { arbitrary: malformedJson, weight: 2 },
  )
  const boundary = 'fuzz-boundary-7'
  return fc.oneof(
    { arbitrary: fc.constant(null), weight: operation.bodySchema ? 1 : 3 },
    {
      arbitrary: fc.tuple(contentType, jsonText).map(([type, body]) => ({ contentType: type, body, kind: 'json-ish' })),
      weight: 8,
    },
    {
      arbitrary: fc
        .tuple(fc.constantFrom(`multipart/form-data; boundary=${boundary}`, 'multipart/form-data; boundary="x"'), multipartBody(boundary))
        .map(([type, body]) => ({ contentType: type, body, kind: 'multipart' })),
      weight: operation.path.includes('/uploads/') ? 6 : 1,
    },
    {
      arbitrary: fc.tuple(fc.constantFrom(JSON_TYPE, 'application/octet-stream', null), binaryBody).map(([type, body]) => ({
        contentType: type,
        body,
        kind: 'binary',
      })),
      weight: 1,
    },
    { arbitrary: fc.constant({ contentType: JSON_TYPE, body: 'x'.repeat(1_100_000), kind: 'oversized' }), weight: 1 },
  )
}

// ---------------------------------------------------------------------------------------------
// URLs

/** Raw URL-ish text: encoded, half-encoded, NUL, traversal, very long. */
const rawUrlPiece = fc.oneof(
  fc.constantFrom(
    '',
    '..',
    '../',
    '..%2F..%2Fetc%2Fpasswd',
    '%2e%2e%2f',
    '%00',
    'a%00b',
    '%',
    '%ZZ',
    '%E0%A4%A',
    '%C0%AF',
    '%u0041',
    '.',
    '~',
    'null',
    'undefined',
    '0',
    '-1',
    "1'%20OR%20'1'='1",
    '00000000-0000-0000-0000-000000000000',
    'ak_',
    encodeURIComponent('😀'),
    '%F0%9F%98',
  ),
  fc.string({ maxLength: 30 }).map((value) => encodeURIComponent(value)),
  fc.string({ unit: 'binary', maxLength: 20 }).map((value) => encodeURIComponent(value.replace(/[\ud800-\udfff]/g, ''))),
  fc.uuid(),
  fc.constantFrom(300, 3_000, 20_000).map((length) => 'a'.repeat(length)),
)

/** A path segment that still routes to the same operation: nothing URL parsing would fold away ('', '.', '..'). */
export const routableUrlPiece = rawUrlPiece.filter((piece) => !/^(\.|%2e){0,2}$/i.test(piece) && !piece.includes('/'))

/** A path parameter: a real id most of the time (so the handler runs), else something hostile. */
export function pathParam(realIds: string[]): fc.Arbitrary<string> {
  return realIds.length
    ? fc.oneof({ arbitrary: fc.constantFrom(...realIds), weight: 2 }, { arbitrary: rawUrlPiece, weight: 3 })
    : rawUrlPiece
}

/** A query string for an operation: its own parameters with odd values, repeated or unknown keys. */
export function queryFor(operation: Operation): fc.Arbitrary<string> {
  const names = operation.queryParams.map((param) => param.name)
  const key = names.length
    ? fc.oneof({ arbitrary: fc.constantFrom(...names), weight: 4 }, { arbitrary: rawUrlPiece, weight: 1 })
    : rawUrlPiece
  const value = fc.oneof(
    {
      arbitrary: fc.constantFrom(
        '1',
        '0',
        '-1',
        '2',
        '100',
        '100000',
        '1e3',
        '1.5',
        'NaN',
        'Infinity',
        '9'.repeat(30),
        'true',
        'false',
        '',
      ),
      weight: 3,
    },
    ...operation.queryParams
      .filter((param) => param.schema.enum?.length)
      .map((param) => ({ arbitrary: fc.constantFrom(...(param.schema.enum ?? []).map(String)), weight: 1 })),
    { arbitrary: rawUrlPiece, weight: 3 },
  )
  return fc
    .array(fc.tuple(key, fc.option(value, { freq: 8 })), { maxLength: 5 })
    .map((pairs) => pairs.map(([name, val]) => (val === null ? name : `${name}=${val}`)).join('&'))
}

// ---------------------------------------------------------------------------------------------
// Headers

/** Header-safe text (visible ASCII and Latin-1; no CR, LF or NUL, which fetch itself refuses). */
const headerText = (maxLength: number) =>
  fc.string({
    unit: fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff })).map((code) => String.fromCharCode(code)),
    maxLength,
  })

const ipv4 = fc.ipV4()

/** X-Forwarded-For: a plain client address most of the time, else garbage or thousands of entries. */
export const forwardedFor = fc.oneof(
  { arbitrary: ipv4, weight: 6 },
  { arbitrary: fc.ipV6(), weight: 1 },
  {
    arbitrary: fc.oneof(
      fc.constantFrom('unknown', '', ',', ' , , ', '::ffff:1.2.3.4', '999.999.999.999', '1.2.3.4, garbage', '[::1]:80', '::'),
      headerText(60),
      fc.tuple(fc.constantFrom(100, 2_000), ipv4).map(([count, last]) => `${Array<string>(count).fill('10.0.0.1').join(', ')}, ${last}`),
      fc.tuple(fc.constantFrom(4_000, 20_000), ipv4).map(([length, first]) => `${first}, ${'z'.repeat(length)}`),
    ),
    weight: 2,
  },
)

export type HeaderOverride = Record<string, string>

/** Odd headers on top of the caller's own: garbage credentials, bad cookies, foreign origins. */
export const oddHeaders: fc.Arbitrary<HeaderOverride> = fc
  .record(
    {
      authorization: fc.oneof(
        fc.constantFrom(
          'Bearer',
          'Bearer ',
          'Bearer ak_',
          'Bearer ak_x_y',
          'Bearer ak_abcdefgh_0000000000000000000000000000000000000000',
          'Bearer null',
          'Basic YWRtaW46YWRtaW4=',
          'bearer a b c',
          'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9.',
        ),
        headerText(100).map((value) => `Bearer ${value}`),
        fc.constantFrom(5_000, 30_000).map((length) => `Bearer ${'a'.repeat(length)}`),
      ),
      cookie: fc.oneof(
        fc.constantFrom(
          'auth_session=',
          'auth_session=%E0%A4%A',
          'auth_session=abc.def',
          'auth_session=a; auth_session=b',
          'auth_session="quoted"',
          'auth_session=%00',
          '=; ;=;',
          'better-auth.session_token=abc',
          'aether_flash=%7B%7D',
        ),
        headerText(100).map((value) => `auth_session=${value}`),
        fc.constantFrom(4_000, 16_000).map((length) => `auth_session=${'c'.repeat(length)}`),
      ),
      origin: fc.constantFrom('https://evil.example', 'null', 'http://localhost:3000', 'file://', 'http://localhost:3000.evil.example'),
      'x-request-id': fc.oneof(headerText(200), fc.constant('x'.repeat(5_000))),
      accept: fc.constantFrom('*/*', 'text/html', 'application/xml', '', 'text/event-stream', '\u00ff'),
      'accept-language': headerText(50),
      'paddle-signature': fc.constantFrom('ts=1;h1=abc', 'garbage', 'ts=;h1=', `ts=${'9'.repeat(30)};h1=00`),
      'last-event-id': headerText(40),
      'user-agent': fc.oneof(headerText(80), fc.constant('u'.repeat(10_000))),
    },
    { requiredKeys: [] },
  )
  .map((headers) => headers as HeaderOverride)

// ---------------------------------------------------------------------------------------------
// Page forms

export interface PageForm {
  contentType: string | null
  body: string | FormData
  ip: string
  describe: string
}

/** A form post: the form's own fields with odd values and unknown fields; or a body that is not a form. */
export function formFor(fields: Record<string, string[]>, kind: 'form' | 'not-a-form'): fc.Arbitrary<PageForm> {
  const names = Object.keys(fields)
  const value = (name: string) =>
    fc.oneof(
      { arbitrary: fields[name]?.length ? fc.constantFrom(...fields[name]) : fc.constant(''), weight: 4 },
      { arbitrary: anyString, weight: 2 },
      { arbitrary: fc.emailAddress(), weight: 1 },
    )
  const pairs = fc.tuple(
    fc.tuple(...names.map((name) => fc.option(value(name), { freq: 5 }).map((text) => [name, text] as const))),
    fc.array(fc.tuple(fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 10 })), anyString), { maxLength: 3 }),
  )
  const formBody = fc.tuple(pairs, fc.boolean()).map(([[known, extra], multipart]) => {
    const entries: [string, string][] = [
      ...known
        .filter((entry): entry is readonly [string, string] => entry[1] !== null)
        .map(([name, text]): [string, string] => [name, text]),
      ...extra,
    ]
    if (multipart) {
      const data = new FormData()
      for (const [name, text] of entries) data.append(name, text)
      return { contentType: null, body: data, describe: `multipart ${JSON.stringify(entries.map(([n, v]) => [n, v.slice(0, 80)]))}` }
    }
    const text = new URLSearchParams(entries).toString()
    return { contentType: 'application/x-www-form-urlencoded', body: text, describe: `urlencoded ${JSON.stringify(text.slice(0, 300))}` }
  })
  const notAForm = fc
    .tuple(
      contentType,
      fc.oneof(malformedJson, fc.constant('a=1&b=%ZZ&=&&c'), fc.constant('--x\r\nContent-Disposition: form-data\r\n\r\n')),
    )
    .map(([type, text]) => ({
      contentType: type,
      body: text,
      describe: `${type ?? '(no content-type)'} ${JSON.stringify(text.slice(0, 200))}`,
    }))
  return fc.tuple(kind === 'form' ? formBody : notAForm, fc.ipV4()).map(([form, ip]) => {
    const sample: PageForm = { ...form, ip }
    return Object.assign(sample, { [fc.toStringMethod]: () => `${sample.describe} from ${ip}` })
  })
}

/** Bodies over the size limit are refused (413) before anything, whoever sends them: samples stay under it. */
const MAX_SAMPLE_BODY_BYTES = 1024 * 1024

export interface OperationSample {
  params: string[]
  query: string | null
  body: RawBody | null
}

const byteLength = (body: RawBody | null) =>
  body === null ? 0 : typeof body.body === 'string' ? Buffer.byteLength(body.body) : body.body.length

/** Any path parameters, query and body for an operation (no body for GET), within the body limit. */
export function operationSample(operation: Operation): fc.Arbitrary<OperationSample> {
  return fc
    .record({
      params: fc.array(routableUrlPiece, { minLength: operation.pathParams.length, maxLength: operation.pathParams.length }),
      query: fc.option(queryFor(operation), { freq: 3 }),
      body: operation.method === 'GET' ? fc.constant(null) : bodyFor(operation),
    })
    .filter((sample) => byteLength(sample.body) <= MAX_SAMPLE_BODY_BYTES)
}

/** The request a sample makes of the operation, with the caller's headers (and the body's content type). */
export function sampleRequest(operation: Operation, sample: OperationSample, headers: Headers): Request {
  let path = operation.path
  operation.pathParams.forEach((name, index) => (path = path.replace(`{${name}}`, sample.params[index] ?? 'x')))
  if (sample.body?.contentType) headers.set('content-type', sample.body.contentType)
  const payload = sample.body?.body
  return new Request(`http://localhost:3000${path}${sample.query === null ? '' : `?${sample.query}`}`, {
    method: operation.method,
    headers,
    body: payload === undefined ? undefined : typeof payload === 'string' ? payload : new Blob([new Uint8Array(payload)]),
  })
}
