import v8 from 'node:v8'
v8.setFlagsFromString('--liftoff-only')
const { PGlite, protocol, parse, types } = await import('@electric-sql/pglite')
const db = new PGlite({ startParams: [...PGlite.defaultStartParams, '-c', 'join_collapse_limit=1'] })
await db.waitReady
await db.exec(`create table users (id text primary key, email text, name text, created_at timestamptz default now(), verified boolean default true);
create table profiles (id text primary key references users(id), role text, full_name text, credits int default 5, created_at timestamptz default now());
insert into users (id, email, name) select 'u'||i, 'u'||i||'@x.test', 'User '||i from generate_series(1,60) i;
insert into profiles (id, role, full_name) select 'u'||i, 'user', 'User '||i from generate_series(1,60) i;`)
const text = `select u.id, u.email, u.name, u.created_at, u.verified, p.role, p.full_name, p.credits, count(*) over () as total from users u inner join profiles p on p.id = u.id where u.email ilike $1 order by u.created_at desc, u.id limit $2 offset $3`
const params = ['%', 20, 0]
const N = 400
for (let i = 0; i < 50; i++) await db.query(text, params)
let t0 = performance.now()
for (let i = 0; i < N; i++) await db.query(text, params)
console.log('query()', ((performance.now() - t0) / N).toFixed(3), 'ms')
// prepared
const S = protocol.serialize
await db.execProtocol(S.parse({ name: 'p1', text, types: [] }), { syncToFs: false })
const desc = await db.execProtocol(S.describe({ type: 'S', name: 'p1' }), { syncToFs: false })
await db.execProtocol(S.sync())
const paramDesc = desc.messages.find((m) => m.name === 'parameterDescription')
const rowDesc = desc.messages.find((m) => m.name === 'rowDescription')
console.log('param oids', paramDesc.dataTypeIDs)
const run = async () => {
  const values = params.map((v, i) => (v == null ? null : (db.serializers[paramDesc.dataTypeIDs[i]] ?? String)(v)))
  const a = await db.execProtocol(S.bind({ statement: 'p1', values }), { syncToFs: false })
  const b = await db.execProtocol(S.execute({}), { syncToFs: false })
  const c = await db.execProtocol(S.sync(), { syncToFs: false })
  return parse.parseResults([rowDesc, ...a.messages, ...b.messages, ...c.messages], db.parsers)
}
for (let i = 0; i < 50; i++) await run()
t0 = performance.now()
for (let i = 0; i < N; i++) await run()
console.log('prepared', ((performance.now() - t0) / N).toFixed(3), 'ms')
const r = await run(); console.log(r[0].rows.length, r[0].rows[0])
// one buffer
const runOne = async () => {
  const values = params.map((v, i) => (v == null ? null : (db.serializers[paramDesc.dataTypeIDs[i]] ?? String)(v)))
  const buf = Buffer.concat([S.bind({ statement: 'p1', values }), S.execute({}), S.sync()])
  const a = await db.execProtocol(new Uint8Array(buf), { syncToFs: false })
  return parse.parseResults([rowDesc, ...a.messages], db.parsers)
}
const r2 = await runOne(); console.log('one buffer rows', r2[0]?.rows.length)
t0 = performance.now()
for (let i = 0; i < N; i++) await runOne()
console.log('prepared one buffer', ((performance.now() - t0) / N).toFixed(3), 'ms')
