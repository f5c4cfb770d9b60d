import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp, type TestContext } from '../helpers/app';
import { startFakeOpenAi, type FakeOpenAi } from '../helpers/fake-openai';
import { createLoopAs } from '../helpers/loops';
import { addUpdate, callAs } from '../helpers/newsletters';

let t: TestContext;
let fake: FakeOpenAi;
let app: TestApp;
let staff: string;
const MODEL_ENV = { OPENAI_BASE_URL: 'set in beforeAll', OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'fake-model' };

beforeAll(async () => {
  fake = await startFakeOpenAi();
  MODEL_ENV.OPENAI_BASE_URL = fake.baseUrl;
  t = await createTestApp({ ADMIN_EMAILS: 'staff@example.com' });
  app = await t.rebuild(MODEL_ENV);
  staff = (await signUp(app, { email: 'staff@example.com' })).cookie;
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

async function generate(on: TestApp = app) {
  const owner = await signUp(on);
  const loop = await createLoopAs(on, owner.cookie, { name: 'Model Loop' });
  await addUpdate(t.testDb.database.db, loop.id, owner.user.id, 'News for the model');
  const res = await callAs(on, staff, 'POST', `/api/loops/${loop.id}/newsletters/generate`);
  expect(res.statusCode).toBe(201);
  return res.json().newsletter;
}

describe('newsletters written by a model (OPENAI_BASE_URL)', () => {
  it('stores what the model wrote', async () => {
    fake.answer({ kind: 'content', content: JSON.stringify({ content: 'Dear all,\n\n## Ada\n\nNews for the model' }) });
    expect(await generate()).toMatchObject({ writer: 'openai', fellBack: false, content: 'Dear all,\n\n## Ada\n\nNews for the model' });
    expect(fake.requests.at(-1)?.body.model).toBe('fake-model');
  });

  it('records that the template stood in when the model times out', async () => {
    // Only this app waits 300 ms: a busy machine must not make the model look slow elsewhere.
    const impatient = await t.rebuild({ ...MODEL_ENV, OPENAI_TIMEOUT_MS: '300' });
    fake.answer({ kind: 'hang' });
    const newsletter = await generate(impatient);
    expect(newsletter).toMatchObject({ writer: 'template', fellBack: true });
    expect(newsletter.content).toContain('News for the model');
  });

  it('records that the template stood in when the answer is malformed', async () => {
    fake.answer({ kind: 'content', content: '{"content": ' });
    expect(await generate()).toMatchObject({ writer: 'template', fellBack: true });
  });
});
