import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createServer, Socket } from 'node:net'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

// MailDev (an AngularJS mail catcher): its own program in a child process (it listens for SMTP
// and serves its web app), filled with the mails below over SMTP. Its REST API is what the
// checks read (GET /email) and how `reset()` empties and refills it.

export const MAILS = [
  {
    from: 'Ada Lovelace <ada@example.com>',
    to: 'team@example.com',
    subject: 'Engine notes for Tuesday',
    text: 'The second table of Bernoulli numbers is ready.',
  },
  {
    from: 'Billing <billing@power.example>',
    to: 'me@example.com',
    subject: 'Your March invoice',
    text: 'Amount due: 64.20 EUR, by 14 April.',
  },
  {
    from: 'Grace Hopper <grace@example.com>',
    to: 'me@example.com',
    subject: 'Compiler meeting moved',
    text: 'We meet on Thursday at 10:30 in room 4.',
  },
  {
    from: 'Library <loans@library.example>',
    to: 'me@example.com',
    subject: 'Wildwood is due back',
    text: 'Please return Wildwood by 9 April.',
  },
  {
    from: 'Alan Turing <alan@example.com>',
    to: 'team@example.com',
    subject: 'Marathon training plan',
    text: 'Long run on Sunday: 32 km along the river.',
  },
]

export interface CaughtMail {
  id: string
  subject: string
  from: { address: string; name: string }[]
  /** MailDev says `read` (lib/mailserver.js). */
  read: boolean
}

async function freePort(): Promise<number> {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** Sends one plain mail over SMTP (the few commands a mail catcher needs). */
async function sendMail(port: number, mail: (typeof MAILS)[number]) {
  const socket = new Socket()
  socket.setEncoding('utf8')
  socket.connect(port, '127.0.0.1')
  let buffer = ''
  socket.on('data', (chunk: string) => (buffer += chunk))
  const expect = async (code: string) => {
    for (let waited = 0; !new RegExp(`(^|\\n)${code} `).test(buffer); waited += 10) {
      if (waited > 5_000) throw new Error(`SMTP: no ${code} (had ${buffer})`)
      await sleep(10)
    }
    buffer = ''
  }
  const say = async (line: string, code: string) => {
    socket.write(`${line}\r\n`)
    await expect(code)
  }
  const address = (who: string) => /<([^>]+)>/.exec(who)?.[1] ?? who
  await expect('220')
  await say('HELO localhost', '250')
  await say(`MAIL FROM:<${address(mail.from)}>`, '250')
  await say(`RCPT TO:<${address(mail.to)}>`, '250')
  await say('DATA', '354')
  const message = [
    `From: ${mail.from}`,
    `To: ${mail.to}`,
    `Subject: ${mail.subject}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    mail.text,
    '.',
  ].join('\r\n')
  await say(message, '250')
  socket.end('QUIT\r\n')
}

export async function startMailDev(root: string) {
  const [smtp, web] = [await freePort(), await freePort()]
  const child: ChildProcess = spawn(
    process.execPath,
    [
      path.join(root, 'node_modules', 'maildev', 'bin', 'maildev'),
      '--smtp',
      String(smtp),
      '--web',
      String(web),
      '--ip',
      '127.0.0.1',
      '--silent',
    ],
    { stdio: 'ignore' },
  )
  const url = `http://127.0.0.1:${web}`
  for (let tries = 0; ; tries++) {
    const ready = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    )
    if (ready) break
    if (tries > 200 || child.exitCode !== null) throw new Error('MailDev did not start')
    await sleep(100)
  }
  async function reset() {
    await fetch(`${url}/email/all`, { method: 'DELETE' })
    // One at a time, so the list's order is the order above.
    for (const mail of MAILS) await sendMail(smtp, mail)
    for (let tries = 0; (await emails()).length < MAILS.length; tries++) {
      if (tries > 100) throw new Error('MailDev did not receive the mails')
      await sleep(50)
    }
  }
  const emails = async () => (await (await fetch(`${url}/email`)).json()) as CaughtMail[]
  await reset()
  return {
    url,
    reset,
    emails,
    async close() {
      child.kill('SIGTERM')
      if (child.exitCode === null) await once(child, 'exit')
    },
  }
}
