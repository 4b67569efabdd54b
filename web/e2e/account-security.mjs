// Browser tests of the account page's security, as a careful player meets
// it: enrolling two-factor from the QR code (the code computed here from
// the shown key, as an authenticator app does), the code asked at login,
// the list of signed-in devices and signing one out, and the security log.
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { artifacts, browser, env, expect, register, step } from './lib.mjs';

/** The RFC 6238 code of the base32 `secret` at `ms` (SHA-1, 6 digits, 30 s). */
function totp(secret, ms) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of secret.replace(/=+$/, '')) bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g).map(b => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(ms / 1000 / 30)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const at = mac[mac.length - 1] & 0xf;
  return String((mac.readUInt32BE(at) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

export async function accountSecuritySteps() {
  const suffix = Math.random().toString(36).slice(2, 7);
  const name = `sec_${suffix}`;
  const desk = await browser('security-desk');
  const phone = await browser('security-phone');
  let secret;

  await step('account: two-factor is enrolled from the QR code and gives ten recovery codes', async () => {
    await register(desk, name);
    await desk.goto(env.base + '/account');
    await desk.waitForSelector('#totp-state');
    await desk.click('#totp-setup');
    await desk.waitForSelector('#totp-qr img');
    const size = await desk.$eval('#totp-qr img', img => img.naturalWidth);
    expect(size >= 100, `the QR code is drawn (${size} px wide)`);
    secret = (await desk.textContent('#totp-secret')).trim();
    expect(/^[A-Z2-7]{32}$/.test(secret), `a base32 key is shown: ${secret}`);
    await desk.fill('#totp-password', 'correct horse battery');
    await desk.fill('#totp-code', totp(secret, Date.now()));
    await desk.screenshot({ path: join(artifacts, 'security-01-enrol.png'), fullPage: true });
    await desk.click('#totp-enable button[type=submit]');
    await desk.waitForSelector('#recovery-codes li');
    expect(await desk.locator('#recovery-codes li').count() === 10, 'ten recovery codes');
    await desk.waitForSelector('#totp-state.ok');
  });

  await step('account: login asks for the two-factor code', async () => {
    await phone.goto(env.base + '/');
    await phone.click('#login-box summary');
    await phone.fill('header input[name=username]', name);
    await phone.fill('header input[name=password]', 'correct horse battery');
    await phone.click('#login');
    await phone.waitForSelector('#login-totp:visible');
    // The code of the next step: the one of this step was used to enrol.
    await phone.fill('#login-totp', totp(secret, Date.now() + 30_000));
    await phone.click('#login');
    await phone.waitForSelector('#username');
  });

  await step('account: the devices list shows both browsers, and one is signed out from the other', async () => {
    await desk.goto(env.base + '/account');
    await desk.waitForFunction(() => document.querySelectorAll('#devices tbody tr').length === 2);
    expect(await desk.locator('#devices tbody tr.current').count() === 1, 'this device is marked');
    const other = await desk.textContent('#devices tbody tr:not(.current)');
    expect(/Chrom/.test(other) && other.includes('127.0.0.1'), `the other browser, named from its User-Agent: ${other}`);
    await desk.waitForSelector('#security-log tr[data-kind="totp_enabled"]');
    await desk.waitForSelector('#security-log tr[data-kind="login"]');
    await desk.screenshot({ path: join(artifacts, 'security-02-devices.png'), fullPage: true });
    await desk.click('#devices tbody tr:not(.current) button.end-session');
    await desk.waitForFunction(() => document.querySelectorAll('#devices tbody tr').length === 1);
    await phone.reload();
    await phone.waitForSelector('#login-box');
  });
}
