import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { collectPageErrors, DESKTOP, PHONE, screenshot } from '../support/browser';
import { codeIn, registerAccount, waitGone, waitToast, waitVisible } from '../support/app';
import type { RunningServer } from '../support/server';
import { withServerAndBrowser } from '../support/suite';

let server: RunningServer;
let browser: Browser;

// A low ceiling of failed log-ins per account, so the code step after it is quick to reach.
const FAILURES_PER_ACCOUNT = 3;
withServerAndBrowser((s, b) => ([server, browser] = [s, b]), { AUTH_FAILURES_PER_ACCOUNT: String(FAILURES_PER_ACCOUNT) });

describe('signing up, out and in', () => {
  it('works through the forms, and a reload keeps the session', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const errors = collectPageErrors(page);

    await page.goto(`${server.url}/auth`);
    await page.getByRole('button', { name: "Don't have an account? Sign up" }).click();
    await page.getByLabel('First Name').fill('Rosa');
    await page.getByLabel('Last Name').fill('Parks');
    await page.getByLabel('Email').fill('rosa@example.com');
    // Validation runs on blur.
    await page.getByLabel('Password').fill('short');
    await page.getByLabel('Password').blur();
    await expect.poll(() => page.getByText('Password must be at least 8 characters').isVisible()).toBe(true);
    await page.getByLabel('Password').fill('12345678');

    // The country picker: search for a country and pick it.
    await page.getByRole('button', { name: /^Country: United States/ }).click();
    await page.getByRole('combobox', { name: 'Search countries' }).fill('united king');
    await page.getByRole('option', { name: /United Kingdom/ }).click();
    await expect.poll(() => page.getByRole('button', { name: /^Country: United Kingdom \(\+44\)/ }).isVisible()).toBe(true);
    await page.getByLabel('Phone Number').fill('20 7946 0958');
    await page.getByText('WhatsApp', { exact: true }).click();
    await screenshot(page, 'auth-sign-up-375');
    // A common password is refused under its field, not in a toast over the button.
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    const common = 'This password is one of the most common passwords, which attackers try first. Please choose another.';
    await waitVisible(page.locator('form').getByText(common));
    expect(
      await page
        .getByRole('region', { name: /Notifications/ })
        .getByText(common)
        .count(),
    ).toBe(0);
    expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'auth-sign-up-common-password-375');
    await page.getByLabel('Password').fill('a long enough password');
    await waitGone(page.getByText(common));
    // The form carries the proof-of-work the page solved while it was filled in (decision 0030).
    const registering = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/register');
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    expect((await registering).postDataJSON()).toMatchObject({ altcha: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/) });

    // The code step: no account yet; the simulator's text is on the card, clearly marked.
    await waitVisible(page.getByText('We texted a code to'));
    const note = page.getByRole('note', { name: 'Simulated text' });
    await waitVisible(note);
    expect(await page.getByText('+44 20 7946 0958').isVisible()).toBe(true);
    // Resend waits, visibly.
    const resend = page.getByRole('button', { name: /^Resend code in \d+ s$/ });
    expect(await resend.isDisabled()).toBe(true);
    expect(await page.evaluate(async () => (await fetch('/api/user')).status)).toBe(401);
    await screenshot(page, 'auth-sign-up-code-375');
    const code = codeIn(await note.textContent());
    await page.getByLabel('Code', { exact: true }).fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verify and Sign Up' }).click();
    // Under the field, not a red toast that would stay on My Loops after the right code.
    const wrong = 'That code is not right. Check the text and try again.';
    await waitVisible(page.locator('form').getByText(wrong));
    await screenshot(page, 'auth-sign-up-wrong-code-375');
    // A reload keeps the code step: the browser still holds its sign-up, its phone masked.
    await page.reload();
    await waitVisible(page.getByText('+44 •••••••• 58'));
    await screenshot(page, 'auth-sign-up-code-reloaded-375');
    await page.getByLabel('Code', { exact: true }).fill(`${code.slice(0, 3)} ${code.slice(3)}`);
    await page.getByRole('button', { name: 'Verify and Sign Up' }).click();

    await expect.poll(() => page.getByRole('heading', { name: 'My Loops' }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.getByText(wrong).count()).toBe(0);
    await screenshot(page, 'auth-signed-up-375');
    const me = await page.evaluate(async () => (await fetch('/api/user')).json());
    expect(me).toMatchObject({ email: 'rosa@example.com', phoneNumber: '+442079460958', messagingPreference: 'whatsapp' });

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Sign In' }).isVisible()).toBe(true);

    await page.getByRole('link', { name: 'Sign In' }).click();
    await page.getByLabel('Email').fill('rosa@example.com');
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect.poll(() => page.getByText('Invalid email or password', { exact: true }).first().isVisible()).toBe(true);

    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'My Loops' }).isVisible(), { timeout: 15_000 }).toBe(true);

    await page.reload();
    await expect.poll(() => page.getByRole('heading', { name: 'My Loops' }).isVisible(), { timeout: 15_000 }).toBe(true);
    await screenshot(page, 'dashboard-375');
    await context.close();
    // The two 400s are the common password and the wrong code, typed on purpose.
    expect(errors).toEqual(Array(2).fill('Failed to load resource: the server responded with a status of 400 (Bad Request)'));
  });

  it('Forgot password: a code by text, a new password, signed in, on a phone and a desktop', async () => {
    for (const [index, viewport] of [PHONE, DESKTOP].entries()) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const errors = collectPageErrors(page);
      const person = { firstName: 'Ida', lastName: 'Wells', email: `ida${index}@example.com`, phoneNumber: `+1415555019${index}` };
      await registerAccount(page, server.url, person);
      await context.clearCookies();

      await page.goto(`${server.url}/auth`);
      await page.getByRole('button', { name: 'Forgot password?' }).click();
      await waitVisible(page.getByRole('heading', { name: 'Set a new password' }));
      await page.getByLabel('Phone number or email').fill(person.email.toUpperCase());
      await screenshot(page, `auth-forgot-password-${viewport.width}`);
      const asking = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/password-reset');
      await page.getByRole('button', { name: 'Text Me a Code' }).click();
      expect((await asking).postDataJSON()).toMatchObject({ altcha: expect.any(String) });
      await waitVisible(page.getByText('If an account has this phone number or email, we texted a code to its phone.', { exact: false }));
      const note = page.getByRole('note', { name: 'Simulated text' });
      await waitVisible(note);
      await page.getByLabel('Code', { exact: true }).fill(codeIn(await note.textContent()));
      await page.getByLabel('New Password').fill('12345678');
      await screenshot(page, `auth-reset-code-${viewport.width}`);
      await page.getByRole('button', { name: 'Set New Password' }).click();
      await waitToast(page, 'This password is one of the most common passwords, which attackers try first. Please choose another.');
      await page.getByLabel('New Password').fill('a fresh new passphrase');
      await page.getByRole('button', { name: 'Set New Password' }).click();
      await expect.poll(() => page.getByRole('heading', { name: 'My Loops' }).isVisible(), { timeout: 15_000 }).toBe(true);

      const login = (password: string) =>
        page.evaluate(
          async (body) => (await fetch('/api/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status,
          JSON.stringify({ email: person.email, password }),
        );
      expect(await login('a long enough password')).toBe(401);
      expect(await login('a fresh new passphrase')).toBe(200);
      await context.close();
      // The one 400 is the common password typed on purpose.
      expect(errors).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
    }
  });

  it('after many failed log-ins from elsewhere, the right password leads to a texted code that logs in, on a phone and a desktop', async () => {
    for (const [index, viewport] of [PHONE, DESKTOP].entries()) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const errors = collectPageErrors(page);
      const person = { firstName: 'Ada', lastName: 'Guarded', email: `guarded${index}@example.com`, phoneNumber: `+1415555018${index}` };
      await registerAccount(page, server.url, person);
      await context.clearCookies();
      // A stranger's wrong passwords reach the account's ceiling.
      for (let i = 0; i < FAILURES_PER_ACCOUNT; i++) {
        const wrong = await page.request.post(`${server.url}/api/login`, { data: { email: person.email, password: `guess ${i}` } });
        expect(wrong.status()).toBe(401);
      }

      await page.goto(`${server.url}/auth`);
      await page.getByLabel('Email').fill(person.email);
      await page.getByLabel('Password').fill('a long enough password');
      await page.getByRole('button', { name: 'Login', exact: true }).click();
      await waitVisible(page.getByText('This account had many failed log-ins from elsewhere', { exact: false }));
      const note = page.getByRole('note', { name: 'Simulated text' });
      await waitVisible(note);
      expect(await page.getByRole('button', { name: /^Resend code in \d+ s$/ }).isDisabled()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `auth-login-code-${viewport.width}`);
      await page.getByLabel('Code', { exact: true }).fill(codeIn(await note.textContent()));
      await page.getByRole('button', { name: 'Verify and Log In' }).click();
      await expect.poll(() => page.getByRole('heading', { name: 'My Loops' }).isVisible(), { timeout: 15_000 }).toBe(true);
      await context.close();
      // The stranger's wrong passwords went through page.request, not the page: no errors there.
      expect(errors).toEqual([]);
    }
  });

  it('shows the not-found screen for unknown pages, on a phone and a desktop', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await page.goto(`${server.url}/no/such/page`);
      await expect
        .poll(() =>
          page
            .getByText(/not found/i)
            .first()
            .isVisible(),
        )
        .toBe(true);
      await screenshot(page, `not-found-${viewport.width}`);
      await context.close();
    }
  });
});
