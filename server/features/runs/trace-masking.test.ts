import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { HIDDEN_SIGN_IN, maskTrace, textMasker } from './trace-masking.ts'

// What a trace keeps of a run's vault values (docs/decisions/060): placeholders, in every spelling
// a page or Playwright gives them, and nothing of sign-in cookies and headers or of our own code.

const hidden = new Map([
  ['a b&c<"d>', '{{secrets.pw}}'],
  ['123456', '{{totp.code}}'],
])

describe('textMasker', () => {
  it('puts the placeholder back for the value as typed, in a URL or form, in JSON and in HTML', () => {
    const mask = textMasker(hidden)
    expect(mask('typed a b&c<"d> here')).toBe('typed {{secrets.pw}} here')
    expect(mask(`q=${encodeURIComponent('a b&c<"d>')}`)).toBe('q={{secrets.pw}}')
    expect(mask(new URLSearchParams({ pw: 'a b&c<"d>' }).toString())).toBe('pw={{secrets.pw}}')
    expect(mask(JSON.stringify({ pw: 'a b&c<"d>' }))).toBe('{"pw":"{{secrets.pw}}"}')
    expect(mask('<input value="a b&amp;c&lt;&quot;d&gt;">')).toBe('<input value="{{secrets.pw}}">')
    expect(mask('code 123456, again 123456')).toBe('code {{totp.code}}, again {{totp.code}}')
  })
})

describe('maskTrace', () => {
  it('masks strings but not numbers, hides sign-ins, drops our stack frames and leaves pictures alone', async () => {
    const picture = new Uint8Array([0xff, 0xd8, 0, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36])
    const trace = zipSync({
      'trace.trace': strToU8(
        [
          JSON.stringify({
            type: 'before',
            startTime: 123456,
            method: 'fill',
            params: { value: '123456' },
            stack: [{ file: '/srv/x.ts' }],
          }),
          JSON.stringify({ type: 'frame-snapshot', snapshot: { html: ['INPUT', { value: 'a b&c<"d>' }] } }),
          '',
        ].join('\n'),
      ),
      'trace.network': strToU8(
        JSON.stringify({
          snapshot: {
            request: {
              headers: [
                { name: 'Cookie', value: 'sid=abc' },
                { name: 'Authorization', value: 'Bearer xyz' },
                { name: 'Accept', value: 'text/html' },
              ],
              cookies: [{ name: 'sid', value: 'abc' }],
            },
            response: { headers: [{ name: 'set-cookie', value: 'sid=def' }], cookies: [{ name: 'sid', value: 'def' }], status: 200 },
          },
        }) + '\n',
      ),
      'trace.stacks': strToU8(JSON.stringify({ files: ['/srv/x.ts'], stacks: [] })),
      'resources/post.dat': strToU8(new URLSearchParams({ user: 'ada', pw: 'a b&c<"d>' }).toString()),
      'resources/shot.jpeg': picture,
    })
    const masked = unzipSync(await maskTrace(trace, hidden))
    expect(Object.keys(masked).sort()).toEqual(['resources/post.dat', 'resources/shot.jpeg', 'trace.network', 'trace.trace'])
    const [fill, snapshot] = strFromU8(masked['trace.trace'] as Uint8Array)
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(fill).toEqual({ type: 'before', startTime: 123456, method: 'fill', params: { value: '{{totp.code}}' } })
    expect(snapshot).toEqual({ type: 'frame-snapshot', snapshot: { html: ['INPUT', { value: '{{secrets.pw}}' }] } })
    const network = JSON.parse(strFromU8(masked['trace.network'] as Uint8Array)) as {
      snapshot: { request: { headers: { name: string; value: string }[]; cookies: unknown[] }; response: Record<string, unknown> }
    }
    expect(network.snapshot.request.headers).toEqual([
      { name: 'Cookie', value: HIDDEN_SIGN_IN },
      { name: 'Authorization', value: HIDDEN_SIGN_IN },
      { name: 'Accept', value: 'text/html' },
    ])
    expect(network.snapshot.request.cookies).toEqual([{ name: 'sid', value: HIDDEN_SIGN_IN }])
    expect(network.snapshot.response).toEqual({
      headers: [{ name: 'set-cookie', value: HIDDEN_SIGN_IN }],
      cookies: [{ name: 'sid', value: HIDDEN_SIGN_IN }],
      status: 200,
    })
    expect(strFromU8(masked['resources/post.dat'] as Uint8Array)).toBe('user=ada&pw={{secrets.pw}}')
    expect(masked['resources/shot.jpeg']).toEqual(picture)
  })
})
