import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { LoopDetail } from '@loop/shared/loops';
import { loopDetail, member, owner, simulatorConfig } from '@/test/fixtures';
import { renderRoute } from '@/test/render-route';
import { neverAnswer, server } from '@/test/server';

// jsdom's accessible names join inline elements without the space a browser keeps.
const EDIT_MARGARET = /^Edit\s*Margaret Walker-Fitzgerald$/;

function serveLoop(loop: LoopDetail, nextNewsletterAt = '2026-03-29T17:00:00.000Z') {
  let current = loop;
  const puts: unknown[] = [];
  server.use(
    http.get('*/api/loops/7', () => HttpResponse.json(current)),
    http.get('*/api/loops/7/group-messages', () => HttpResponse.json([])),
    http.get('*/api/loops/7/newsletters', () =>
      HttpResponse.json({
        newsletters: [
          {
            id: 3,
            kind: 'newsletter',
            title: 'The Walker Family, March 1 to 15',
            sentAt: '2026-03-15T18:00:00.000Z',
            urlId: 'abcdefabcdefabcdefabcd',
            reactions: [
              { firstName: 'Mia', body: '❤️' },
              { firstName: 'Ben', body: 'Love it!!' },
            ],
          },
        ],
        nextNewsletterAt: current.paused ? null : nextNewsletterAt,
        nextReminderAt: current.paused ? null : '2026-03-19T09:00:00.000Z',
        paused: current.paused,
        timeZone: 'Europe/London',
      }),
    ),
    http.get('*/api/loops/7/coming-issue', () =>
      HttpResponse.json({
        since: '2026-03-15T18:00:00.000Z',
        nextNewsletterAt: '2026-03-29T17:00:00.000Z',
        sent: [{ memberId: 2, firstName: 'Margaret', lastName: 'Walker-Fitzgerald', updates: 2, lastSentAt: '2026-03-17T10:00:00.000Z' }],
        silent: [],
      }),
    ),
    http.get('*/api/loops/7/reminder-questions', () =>
      HttpResponse.json({ questions: [], vibeQuestions: ['What made you laugh this week?'], lastQuestion: null }),
    ),
    http.put('*/api/loops/7', async ({ request }) => {
      const body = (await request.json()) as Partial<LoopDetail>;
      puts.push(body);
      current = { ...current, ...body };
      return HttpResponse.json(current);
    }),
    http.put('*/api/loops/7/members/:memberId', async ({ request, params }) => {
      const body = (await request.json()) as Record<string, string>;
      puts.push(body);
      current = {
        ...current,
        members: current.members.map((m) =>
          m.id === Number(params.memberId)
            ? { ...m, context: body.context ?? m.context, user: { ...m.user, firstName: body.firstName ?? m.user.firstName } }
            : m,
        ),
      };
      return HttpResponse.json(current.members.find((m) => m.id === Number(params.memberId)));
    }),
  );
  return puts;
}

describe('/loops/{id} Members tab: editing a member', () => {
  it('changes a text-only member’s name and context', async () => {
    const user = userEvent.setup();
    const puts = serveLoop(loopDetail());
    renderRoute('/loops/7', { user: owner });
    await user.click(await screen.findByRole('button', { name: EDIT_MARGARET }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Margaret Walker-Fitzgerald' });
    const first = within(dialog).getByRole('textbox', { name: 'First Name' });
    await user.clear(first);
    await user.type(first, 'Maggie');
    const context = within(dialog).getByRole('textbox', { name: /Context/ });
    await user.clear(context);
    await user.type(context, 'Gran');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Member updated successfully')).toBeDefined();
    expect(puts).toEqual([{ firstName: 'Maggie', lastName: 'Walker-Fitzgerald', messagingPreference: 'sms', context: 'Gran' }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByRole('button', { name: /^Edit\s*Maggie Walker-Fitzgerald$/ })).toBeDefined();
  });

  it('changes only the context of a member who manages their own details', async () => {
    const user = userEvent.setup();
    const loop = loopDetail();
    loop.members[1] = member(2, { detailsEditable: false });
    const puts = serveLoop(loop);
    renderRoute('/loops/7', { user: owner });
    await user.click(await screen.findByRole('button', { name: EDIT_MARGARET }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/manages their own name and messaging preference/)).toBeDefined();
    expect(within(dialog).getByRole('textbox', { name: 'First Name' })).toHaveProperty('disabled', true);
    const context = within(dialog).getByRole('textbox', { name: /Context/ });
    await user.clear(context);
    await user.type(context, 'Gran');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Member updated successfully')).toBeDefined();
    expect(puts).toEqual([{ context: 'Gran' }]);
  });

  it('shows a member of the Loop no Edit or Remove buttons', async () => {
    serveLoop(loopDetail({ role: 'member' }));
    renderRoute('/loops/7', { user: owner });
    expect(await screen.findByText('gran.walker@example.com')).toBeDefined();
    expect(screen.queryByRole('button', { name: /^Edit/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Remove/ })).toBeNull();
  });

  it('shows a member the others’ names only, as the server sends them (decision 0054)', async () => {
    const namesOnly = member(2, { user: { ...member(2).user, phoneNumber: null, email: null, emailStatus: 'none' } });
    serveLoop(loopDetail({ role: 'member', members: [namesOnly] }));
    const { container } = renderRoute('/loops/7', { user: owner });
    expect(await screen.findByText('Margaret Walker-Fitzgerald')).toBeDefined();
    expect(container.querySelector('a[href^="tel:"], a[href^="mailto:"]')).toBeNull();
    expect(container.textContent).not.toContain('null');
  });

  it('shows the server’s reason when an edit is refused', async () => {
    const user = userEvent.setup();
    serveLoop(loopDetail());
    server.use(
      http.put('*/api/loops/7/members/:memberId', () => HttpResponse.json({ message: 'Margaret is in other Loops too' }, { status: 403 })),
    );
    renderRoute('/loops/7', { user: owner });
    await user.click(await screen.findByRole('button', { name: EDIT_MARGARET }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Margaret is in other Loops too')).toBeDefined();
    expect(screen.getByRole('dialog')).toBeDefined();
  });
});

describe('/loops/{id} Members tab: resending an invitation', () => {
  it('offers "Resend invitation" only when it can go; while the day runs, says until when instead of a dead button', async () => {
    const soon = new Date(Date.now() + 6 * 3600_000).toISOString();
    const past = new Date(Date.now() - 3600_000).toISOString();
    const pending = (id: number, firstName: string, resendAt: string) =>
      member(id, { state: 'pending', invitedAt: '2026-03-14T09:00:00.000Z', resendAt, user: { ...member(id).user, firstName } });
    serveLoop(loopDetail({ members: [...loopDetail().members, pending(5, 'Penny', soon), pending(6, 'Rita', past)] }));
    renderRoute('/loops/7', { user: owner });
    const penny = (await screen.findAllByText(/^Penny/))[0]!.closest('li')!;
    expect(within(penny).queryByRole('button', { name: /Resend invitation/ })).toBeNull();
    expect(within(penny).getByText(/^Invitation sent\. You can resend it after .+\.$/)).toBeDefined();
    const rita = screen.getAllByText(/^Rita/)[0]!.closest('li')!;
    const button = within(rita).getByRole('button', { name: /Resend invitation/ }) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
  });
});

describe('/loops/{id} co-organizers (decision 0059)', () => {
  const withAccountHolder = () => {
    const loop = loopDetail();
    return loopDetail({ members: [loop.members[0]!, member(2, { detailsEditable: false })] });
  };

  it('the owner makes a member who has an account an organizer, and hands the loop over after asking', async () => {
    const user = userEvent.setup();
    const puts = serveLoop(withAccountHolder());
    const owners: unknown[] = [];
    server.use(
      http.put('*/api/loops/7/owner', async ({ request }) => {
        owners.push(await request.json());
        return HttpResponse.json(loopDetail());
      }),
    );
    renderRoute('/loops/7', { user: owner });
    await user.click(await screen.findByRole('button', { name: /^Make organizer\s*Margaret/ }));
    await waitFor(() => expect(puts).toContainEqual({ organizer: true }));
    await user.click(screen.getByRole('button', { name: /^Make owner\s*Margaret/ }));
    const dialog = await screen.findByRole('alertdialog', { name: /^Hand the loop to Margaret/ });
    expect(within(dialog).getByText(/You stay in it as an organizer/)).toBeDefined();
    await user.click(within(dialog).getByRole('button', { name: 'Hand it over' }));
    await waitFor(() => expect(owners).toEqual([{ memberId: 2 }]));
  });

  it('offers neither for a member without an account, and an organizer sees the badge but no Delete Loop', async () => {
    const user = userEvent.setup();
    serveLoop(loopDetail());
    const { unmount } = renderRoute('/loops/7', { user: owner });
    await screen.findByText('gran.walker@example.com');
    expect(screen.queryByRole('button', { name: /^Make organizer/ })).toBeNull();
    unmount();
    const loop = withAccountHolder();
    serveLoop({ ...loop, role: 'organizer', members: [loop.members[0]!, { ...loop.members[1]!, organizer: true }] });
    renderRoute('/loops/7', { user: owner });
    expect(await screen.findByText('Organizer')).toBeDefined();
    expect(screen.queryByRole('button', { name: /^Make owner/ })).toBeNull();
    await user.click(screen.getByRole('tab', { name: /Settings/ }));
    expect(await screen.findByRole('button', { name: 'Pause Loop' })).toBeDefined();
    expect(screen.queryByRole('button', { name: /Delete Loop/ })).toBeNull();
  });
});

describe('/loops/{id} group messages (decision 0042)', () => {
  it("shows the owner's group messages with their delivery, and cancels a scheduled one", async () => {
    const user = userEvent.setup();
    serveLoop(loopDetail());
    let cancelled: string | undefined;
    const sent = {
      id: 1,
      message: 'Picnic moved to Sunday',
      senderName: 'Ruth',
      status: 'sent',
      sendAt: '2026-03-10T12:00:00.000Z',
      sentAt: '2026-03-10T12:00:00.000Z',
      textsQueued: 4,
      delivery: { waiting: 1, sent: 0, delivered: 2, failed: 1 },
    };
    const later = { ...sent, id: 2, message: 'Dinner at 7', status: 'scheduled', sentAt: null, textsQueued: 0 };
    server.use(
      http.get('*/api/loops/7/group-messages', () =>
        HttpResponse.json(cancelled ? [{ ...later, status: 'cancelled' }, sent] : [later, sent]),
      ),
      http.post('*/api/loops/7/group-messages/:messageId/cancel', ({ params }) => {
        cancelled = String(params.messageId);
        return HttpResponse.json({ ok: true });
      }),
    );
    renderRoute('/loops/7', { user: owner });
    expect(await screen.findByText('Picnic moved to Sunday')).toBeDefined();
    expect(screen.getByTestId('delivery').textContent).toBe('4 texts: 2 delivered, 0 sent, 1 waiting, 1 failed');
    await user.click(screen.getByRole('button', { name: 'Cancel this message' }));
    await waitFor(() => expect(cancelled).toBe('2'));
    expect(await screen.findByText(/Cancelled/)).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Cancel this message' })).toBeNull();
  });

  it('is not shown to a member', async () => {
    serveLoop(loopDetail({ role: 'member' }));
    renderRoute('/loops/7', { user: owner });
    expect(await screen.findByRole('tab', { name: 'Members' })).toBeDefined();
    expect(screen.queryByRole('heading', { name: 'Group messages' })).toBeNull();
  });
});

describe('/loops/{id} newsletters and schedule', () => {
  it('lists the Loop’s newsletters on the Newsletter tab, not under Updates, for a member too', async () => {
    const user = userEvent.setup();
    serveLoop(loopDetail({ role: 'member' }));
    renderRoute('/loops/7', { user: owner });
    await user.click(await screen.findByRole('tab', { name: 'Updates' }));
    await screen.findByText(/Walker-Fitzgerald|No updates yet\.|Margaret/);
    expect(screen.queryByText('The Walker Family, March 1 to 15')).toBeNull();
    await user.click(screen.getByRole('tab', { name: 'Newsletter' }));
    expect(await screen.findByText('The Walker Family, March 1 to 15')).toBeDefined();
    expect(screen.queryByText('Coming Newsletter')).toBeNull();
  });

  it('lists the Loop’s newsletters and the next newsletter and reminder in the Loop’s time zone', async () => {
    const user = userEvent.setup();
    serveLoop(loopDetail());
    renderRoute('/loops/7', { user: owner });
    await user.click(await screen.findByRole('tab', { name: 'Newsletter' }));
    expect(await screen.findByText('The Walker Family, March 1 to 15')).toBeDefined();
    const link = screen.getByRole('link', { name: /Read it/ });
    expect(link.getAttribute('href')).toBe('/newsletters/abcdefabcdefabcdefabcd');
    // Members' reactions under the issue, for its owner to see (decision 0056).
    const reactions = within(screen.getByRole('list', { name: 'Reactions' })).getAllByRole('listitem');
    expect(reactions.map((r) => r.textContent)).toEqual(['❤️ Mia', 'Love it!! Ben']);
    // Past issues behind the newest one's link (decision 0042).
    expect(screen.getByRole('link', { name: /All past issues/ }).getAttribute('href')).toBe('/newsletters/abcdefabcdefabcdefabcd/archive');
    // 09:00 in London on March 19 (GMT), whatever the zone this test runs in.
    expect(screen.getByText(/Next reminder/).nextElementSibling?.textContent).toMatch(/Mar 19.*9:00\s?AM GMT/);
    expect(screen.getByText(/Next newsletter/).nextElementSibling?.textContent).toMatch(/Mar 29.*6:00\s?PM GMT\+1/);
  });

  it('says on every tab that the Loop is paused: the owner resumes it in Settings, a member waits for the organizer', async () => {
    serveLoop(loopDetail({ paused: true }));
    const { unmount } = renderRoute('/loops/7', { user: owner });
    expect(
      await screen.findByText('This loop is paused: no reminders or newsletters go out until you resume it in Settings.'),
    ).toBeDefined();
    unmount();
    serveLoop(loopDetail({ paused: true, role: 'member' }));
    renderRoute('/loops/7', { user: owner });
    expect(
      await screen.findByText('This loop is paused: no reminders or newsletters go out until its organizer resumes it.'),
    ).toBeDefined();
  });
});

describe('/loops/{id} Settings: the owner pauses, resumes and schedules the Loop', () => {
  it('pauses after asking, says nothing is sent until resumed, and resumes', async () => {
    const user = userEvent.setup();
    const puts = serveLoop(loopDetail(), '2099-01-11T18:00:00.000Z');
    renderRoute('/loops/7', { user: owner });
    await user.click(await screen.findByRole('tab', { name: /Settings/ }));
    // What comes next while active: the reminder, the draft 24 hours ahead, the newsletter.
    expect((await screen.findByText('Next draft')).nextElementSibling?.textContent).toMatch(
      /Jan 10.*6:00\s?PM GMT.*you get a text with its link/,
    );
    expect(screen.getByText('Next newsletter').nextElementSibling?.textContent).toMatch(/^Goes out .*Jan 11.*6:00\s?PM GMT/);
    await user.click(screen.getByRole('button', { name: 'Pause Loop' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Pause this loop?' });
    await user.click(within(dialog).getByRole('button', { name: 'Pause Loop' }));
    expect(await screen.findByText('Loop pause state updated successfully')).toBeDefined();
    expect(puts).toContainEqual({ paused: true });
    expect(await screen.findByText('Paused: nothing is sent until you resume.')).toBeDefined();
    expect(screen.getByText(/This loop is paused: no reminders or newsletters go out until you resume it/)).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Resume Loop' }));
    await waitFor(() => expect(puts).toContainEqual({ paused: false }));
    expect(await screen.findByRole('button', { name: 'Pause Loop' })).toBeDefined();
    expect(screen.queryByText(/This loop is paused/)).toBeNull();
  });

  it("sets the frequency, the newsletter's day and time, each saved at once", async () => {
    const user = userEvent.setup();
    const puts = serveLoop(loopDetail());
    renderRoute('/loops/7', { user: owner });
    await user.click(await screen.findByRole('tab', { name: /Settings/ }));
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Newsletter Frequency' }), 'weekly');
    expect(await screen.findByText('Loop frequency updated successfully')).toBeDefined();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Newsletter Day' }), 'friday');
    await waitFor(() => expect(puts).toContainEqual({ newsletterDay: 'friday' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Newsletter Time' }), '17:30');
    await waitFor(() => expect(puts).toContainEqual({ newsletterTime: '17:30' }));
    expect(puts).toContainEqual({ frequency: 'weekly' });
    expect(await screen.findByText(/^Weekly, Fridays at 5:30\sPM \(Europe\/London\)\.$/)).toBeDefined();
    // Monthly: the last day of the month, no weekday to pick; no time in quiet hours on offer.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Newsletter Frequency' }), 'monthly');
    expect(await screen.findByText('The last day of the month')).toBeDefined();
    expect(screen.queryByRole('combobox', { name: 'Newsletter Day' })).toBeNull();
    const times = within(screen.getByRole('combobox', { name: 'Newsletter Time' })).getAllByRole('option');
    expect(times.map((o) => (o as HTMLOptionElement).value)).not.toContain('21:00');
  });

  it('shows the frequency once: the owner’s selector, no read-only line beside it', async () => {
    const user = userEvent.setup();
    serveLoop(loopDetail());
    renderRoute('/loops/7', { user: owner });
    await user.click(await screen.findByRole('tab', { name: /Settings/ }));
    expect(await screen.findByRole('combobox', { name: 'Newsletter Frequency' })).toBeDefined();
    expect(screen.getAllByText('Newsletter Frequency')).toHaveLength(1);
    expect(screen.getAllByText('Biweekly (every two weeks)').every((e) => e.tagName === 'OPTION')).toBe(true);
  });

  it('shows a member when the newsletter goes, with nothing to change', async () => {
    const user = userEvent.setup();
    serveLoop(loopDetail({ role: 'member' }));
    renderRoute('/loops/7', { user: owner });
    await user.click(await screen.findByRole('tab', { name: /Settings/ }));
    expect(await screen.findByText(/^Biweekly \(every two weeks\), Sundays at 6:00\sPM \(Europe\/London\)\.$/)).toBeDefined();
    expect(screen.queryByRole('combobox', { name: 'Newsletter Frequency' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Pause Loop' })).toBeNull();
  });
});

describe('/loops/{id} Updates tab: voice memos and videos play', () => {
  const memo = {
    url: '/media/memo',
    kind: 'audio' as const,
    durationMs: 42_000,
    width: 0,
    height: 0,
    poster: null,
    transcript: 'We miss you! <b>not bold</b>',
  };
  const video = {
    url: '/media/video',
    kind: 'video' as const,
    durationMs: 125_000,
    width: 1280,
    height: 720,
    poster: '/media/video/640',
    transcript: null,
  };
  const update = {
    id: 1,
    userId: 2,
    content: 'Listen to this',
    createdAt: '2026-03-02T10:00:00.000Z',
    mediaUrls: [],
    photos: [],
    clips: [memo, video],
    user: { firstName: 'Margaret', lastName: 'Walker-Fitzgerald' },
  };

  it('shows a player for each, loading nothing until pressed, with its length and the transcript as text', async () => {
    const user = userEvent.setup();
    serveLoop(loopDetail({ updates: [update], updateCount: 1 }));
    const { container } = renderRoute('/loops/7', { user: owner });
    await user.click(await screen.findByRole('tab', { name: 'Updates' }));
    await screen.findByText('Listen to this');
    const audio = container.querySelector('audio');
    expect([audio?.getAttribute('src'), audio?.getAttribute('preload')]).toEqual(['/media/memo', 'none']);
    // Its own controls, with the length the server measured before anything loads (not "0:00 / 0:00").
    const memoPlayer = screen.getByRole('group', { name: 'Voice memo, 0:42, from Margaret Walker-Fitzgerald' });
    expect(within(memoPlayer).getByText('0:00 / 0:42')).toBeDefined();
    expect(within(memoPlayer).getByRole('slider', { name: 'Position' }).getAttribute('aria-valuetext')).toBe('0:00 of 0:42');
    expect(within(memoPlayer).getByRole('button', { name: 'Play' })).toBeDefined();
    const player = container.querySelector('video');
    expect(['controls', 'playsinline', 'preload', 'poster', 'width', 'height', 'src'].map((a) => player?.getAttribute(a) ?? null)).toEqual([
      '',
      '',
      'none',
      '/media/video/640',
      '1280',
      '720',
      '/media/video',
    ]);
    expect(screen.getByText('Voice memo, 0:42')).toBeDefined();
    expect(screen.getByText('Video, 2:05')).toBeDefined();
    // The transcript is text, never markup; marked as transcribed for everyone, "Transcript:" for screen readers.
    const quote = container.querySelector('blockquote');
    expect(quote?.textContent).toBe('Transcript: “We miss you! <b>not bold</b>” (transcribed)');
    expect(quote?.querySelector('b')).toBeNull();
  });
});

// 47 CFR 64.1200(c)(1): no texts before 8 a.m. or after 9 p.m. at the recipient's location. The
// server's QUIET_HOURS (21:00-08:00 here) reaches the picker through GET /api/config.
describe('/loops/{id} reminder-time picker keeps clear of quiet hours', () => {
  it('offers 8:00 AM to 8:30 PM only, every 5 minutes, and says why', async () => {
    const user = userEvent.setup();
    serveLoop(loopDetail());
    renderRoute('/loops/7', { user: owner });
    await user.click(await screen.findByRole('tab', { name: /Settings/ }));
    const picker = await screen.findByRole('combobox', { name: 'Thursday reminder time' });
    const options = within(picker)
      .getAllByRole('option')
      .map((o) => (o as HTMLOptionElement).value);
    expect(options[0]).toBe('08:00');
    expect(options.at(-1)).toBe('20:30');
    expect(options).toHaveLength(151);
    expect(options).not.toContain('21:00');
    expect(options).not.toContain('07:55');
    expect(
      screen.getByText(/Times run from 8:00\sAM to 8:30\sPM: Loop sends no texts from 9:00\sPM to 8:00\sAM in each member's own time./),
    ).toBeDefined();
  });

  it('offers every time of day when quiet hours are off (QUIET_HOURS=off)', async () => {
    const user = userEvent.setup();
    serveLoop(loopDetail());
    renderRoute('/loops/7', { user: owner });
    server.use(http.get('*/api/config', () => HttpResponse.json({ ...simulatorConfig, quietHours: null })));
    await user.click(await screen.findByRole('tab', { name: /Settings/ }));
    const picker = await screen.findByRole('combobox', { name: 'Thursday reminder time' });
    await waitFor(() => expect(within(picker).getAllByRole('option')).toHaveLength(288));
  });
});

describe('/loops/{id} members: time zone and texts waiting out quiet hours', () => {
  it('shows each member’s zone and when their waiting texts go, in their time', async () => {
    const user = userEvent.setup();
    serveLoop(
      loopDetail({
        members: [member(2, { timeZone: 'America/New_York', timeZoneSource: 'phone', scheduledFor: '2026-11-12T13:00:00.000Z' })],
      }),
    );
    renderRoute('/loops/7', { user: owner });
    await user.click(await screen.findByRole('tab', { name: /Members/ }));
    expect(await screen.findByText(/Texts scheduled for 8:00\sAM their time/)).toBeDefined();
    expect(screen.getByText('America / New York')).toBeDefined();
  });

  it("tells the owner a member's texts wait for daytime in all of their country's zones, and lets them set one (decision 0057)", async () => {
    const user = userEvent.setup();
    serveLoop(
      loopDetail({
        members: [
          member(2, {
            timeZone: 'Australia/Sydney',
            timeZoneSource: 'country',
            timeZoneCountry: 'AU',
            user: { ...member(2).user, phoneNumber: '+61412300056' },
          }),
        ],
      }),
    );
    renderRoute('/loops/7', { user: owner });
    await user.click(await screen.findByRole('tab', { name: /Members/ }));
    expect(await screen.findByText(/Texts go between 8:00 and 21:00 in all of Australia's time zones/)).toBeDefined();
    await user.click(screen.getByRole('button', { name: /Edit/ }));
    const zone = await screen.findByRole('combobox', { name: 'Time Zone' });
    expect(zone.getAttribute('aria-describedby')).toBeTruthy();
    expect(await screen.findByText(/several time zones, so texts wait for daytime in all of them/)).toBeDefined();
  });
});

describe('/loops/{id} reminders (decision 0043)', () => {
  it("shows the owner who has sent something, an empty 'Not yet', and no questions of their own", async () => {
    const user = userEvent.setup();
    serveLoop(loopDetail());
    renderRoute('/loops/7', { user: owner });
    await user.click(await screen.findByRole('tab', { name: /Settings/ }));
    const sent = await screen.findByRole('region', { name: 'Sent something (1)' });
    expect(within(sent).getByText(/Margaret/)).toBeDefined();
    expect(within(sent).getByText('2 updates')).toBeDefined();
    expect(within(screen.getByRole('region', { name: 'Not yet (0)' })).getByText('Everyone has sent something.')).toBeDefined();
    expect(await screen.findByText(/None yet: reminders use the questions/)).toBeDefined();
  });

  it('shows a member neither', async () => {
    const user = userEvent.setup();
    serveLoop(loopDetail({ role: 'member' }));
    renderRoute('/loops/7', { user: owner });
    await user.click(await screen.findByRole('tab', { name: /Settings/ }));
    await screen.findByText('Reminder Schedule');
    expect(screen.queryByText('Coming issue')).toBeNull();
    expect(screen.queryByText('Reminder questions')).toBeNull();
  });
});

describe('/loops/{id} tabs', () => {
  it('are in the order they are used, and the first one is open', async () => {
    serveLoop(loopDetail());
    renderRoute('/loops/7', { user: owner });
    await screen.findByRole('button', { name: EDIT_MARGARET });
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Members', 'Updates', 'Newsletter', 'Settings']);
    expect(tabs[0]?.getAttribute('aria-selected')).toBe('true');
  });
});

describe('/loops/{id} states', () => {
  it('shows a spinner while the Loop loads', async () => {
    server.use(http.get('*/api/loops/7', neverAnswer));
    renderRoute('/loops/7', { user: owner });
    expect(await screen.findByRole('link', { name: 'Back to Dashboard' })).toBeDefined();
    expect(within(screen.getByRole('main')).getByText('Loading')).toBeDefined();
    expect(screen.queryByRole('tab')).toBeNull();
  });

  it('says "Failed to load loop details" when it fails to load, and Try again loads it', async () => {
    const user = userEvent.setup();
    serveLoop(loopDetail());
    let fail = true;
    server.use(
      http.get('*/api/loops/7', () =>
        fail ? HttpResponse.json({ message: 'Database unavailable' }, { status: 503 }) : HttpResponse.json(loopDetail()),
      ),
    );
    renderRoute('/loops/7', { user: owner });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Failed to load loop details' })).toBeDefined();
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'The Walker Family' })).toBeDefined();
  });

  it('says "Loop not found" for a Loop that is gone or not the person’s, without Try again', async () => {
    server.use(http.get('*/api/loops/7', () => HttpResponse.json({ message: 'Loop not found' }, { status: 404 })));
    renderRoute('/loops/7', { user: owner });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Loop not found' })).toBeDefined();
    expect(within(alert).queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('says "No members yet." and "No updates yet." for an empty Loop', async () => {
    const user = userEvent.setup();
    serveLoop(loopDetail({ members: [], memberCount: 0 }));
    renderRoute('/loops/7', { user: owner });
    expect(await screen.findByText('No members yet.')).toBeDefined();
    await user.click(screen.getByRole('tab', { name: 'Updates' }));
    expect(await screen.findByText('No updates yet.')).toBeDefined();
  });
});
