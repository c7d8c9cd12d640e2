import { createPublicKey, verify } from 'node:crypto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { answerSigningInput, type PushAnswerBody } from '@mfa-portal/shared';
import { actAsSoonAsShown, typeInto } from '../../lib/test/first-paint';
import { fromBase64url } from '../lib/base64url';
import { publicJwk } from '../lib/device-key';
import { memoryStore } from '../lib/store';
import { fakeApi, json, pendingRequest, testAccount, type Call } from '../test/fake-api';
import { renderApp } from '../test/render';

const ANSWER = `POST /authenticator/api/requests/${pendingRequest().id}/answer`;
const REPORT = `POST /authenticator/api/requests/${pendingRequest().id}/report`;

async function setUp(answer: (call: Call) => Response, request = pendingRequest()) {
  const account = await testAccount();
  const api = fakeApi({
    'GET /authenticator/api/requests': () => json(200, { requests: [request] }),
    [ANSWER]: answer,
    [REPORT]: () => json(200, { reported: true }),
  });
  renderApp(memoryStore([account]));
  const heading = await screen.findByRole('heading', { level: 1, name: 'Sign-in request' });
  return { account, api, heading, user: userEvent.setup() };
}

describe('a request on the phone', () => {
  it('shows what is asked, from where and when, and takes the focus', async () => {
    const { heading } = await setUp(() => json(200, { state: 'approved', reportable: false }));
    expect(heading).toHaveFocus();
    expect(screen.getByText('For bob@example.com')).toBeInTheDocument();
    expect(screen.getByText('MFA self-service portal')).toBeInTheDocument();
    expect(screen.getByText('Chrome on Windows')).toBeInTheDocument();
    expect(screen.getByText('203.0.113.7 (Amsterdam, NL)')).toBeInTheDocument();
    expect(screen.getByText(/^\d+ seconds$/)).toBeInTheDocument();
    const field = screen.getByLabelText('Type the number shown on your screen');
    expect(field).toHaveAttribute('inputmode', 'numeric');
    expect(field).toHaveAttribute('autocomplete', 'off');
    expect(field).toHaveAttribute('maxlength', '2');
  });

  it('names a helpdesk check and who asked', async () => {
    fakeApi({
      'GET /authenticator/api/requests': () =>
        json(200, { requests: [pendingRequest({ kind: 'helpdesk_check', requestedBy: 'Hanna Helpdesk' })] }),
    });
    renderApp(memoryStore([await testAccount()]));
    expect(await screen.findByRole('heading', { name: 'Helpdesk check by Hanna Helpdesk' })).toBeInTheDocument();
  });

  it('approves with the typed number, signed with the device key (keyboard only)', async () => {
    const { account, api, user } = await setUp(() => json(200, { state: 'approved', reportable: false }));
    await user.tab();
    expect(screen.getByLabelText('Type the number shown on your screen')).toHaveFocus();
    await user.keyboard('4x2');
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('heading', { name: 'Approved. You can go back to your screen.' })).toHaveFocus();

    const call = api.calls.find((c) => c.method === 'POST')!;
    const body = call.body as PushAnswerBody;
    expect(body.answer).toMatchObject({ requestId: pendingRequest().id, number: '42', decision: 'approve' });
    const key = createPublicKey({ key: (await publicJwk(account.keys)) as never, format: 'jwk' });
    const data = Buffer.from(answerSigningInput(body.answer));
    expect(verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(fromBase64url(body.signature)))).toBe(true);
    expect(call.headers.authorization).toMatch(/^PortalDevice /);
    expect(screen.queryByRole('heading', { name: 'Sign-in request' })).not.toBeInTheDocument();
  });

  it('keeps a number typed the moment the request appears', async () => {
    // Typed in the same turn as the screen's first paint, before React's passive effects run: anything
    // the screen does to itself after painting (a reset, taking the focus) would undo the typing.
    const account = await testAccount();
    const api = fakeApi({
      'GET /authenticator/api/requests': () => json(200, { requests: [pendingRequest()] }),
      [ANSWER]: () => json(200, { state: 'approved', reportable: false }),
    });
    const typed = actAsSoonAsShown<HTMLInputElement>(document.body, 'input[name="number"]', (field) => typeInto(field, '42'));
    renderApp(memoryStore([account]));
    await typed;
    const field = await screen.findByLabelText('Type the number shown on your screen');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(field).toHaveValue('42');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Approve' }));
    await screen.findByRole('heading', { name: 'Approved. You can go back to your screen.' });
    expect((api.calls.find((c) => c.method === 'POST')!.body as PushAnswerBody).answer.number).toBe('42');
  });

  it('asks for two digits before sending anything', async () => {
    const { api, user } = await setUp(() => json(200, { state: 'approved', reportable: false }));
    await user.type(screen.getByLabelText('Type the number shown on your screen'), '4');
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Type the two-digit number shown on your screen.');
    expect(screen.getByLabelText('Type the number shown on your screen')).toHaveAttribute('aria-invalid', 'true');
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('says so when the number does not match (the server refused the request)', async () => {
    const { user } = await setUp(() => json(403, { code: 'push.number_mismatch', message: 'x' }));
    await user.type(screen.getByLabelText('Type the number shown on your screen'), '17');
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByRole('heading', { name: "That number doesn't match. The request was refused." })).toHaveFocus();
  });

  it('denies, then reports "This wasn\'t me" and says what happens next', async () => {
    const { api, user } = await setUp(() => json(200, { state: 'denied', reportable: true }));
    await user.click(screen.getByRole('button', { name: 'Deny' }));
    const panel = (await screen.findByRole('heading', { name: 'Request denied.' })).closest('section')!;
    const deny = api.calls.find((c) => c.method === 'POST')!.body as PushAnswerBody;
    expect(deny.answer).toMatchObject({ decision: 'deny', number: null });
    await user.click(within(panel).getByRole('button', { name: "This wasn't me" }));
    expect(await within(panel).findByText(/your report was recorded\. The security team has been told/)).toBeInTheDocument();
    expect(api.calls.some((c) => c.path.endsWith('/report') && c.method === 'POST')).toBe(true);
  });

  it.each([
    ['push.expired', 410, 'That request has expired. Start again on your screen if you still need it.'],
    ['push.already_answered', 409, 'That request was already answered.'],
  ])('removes a request the server calls %s, with a message', async (code, status, message) => {
    const { user } = await setUp(() => json(status, { code }));
    await user.type(screen.getByLabelText('Type the number shown on your screen'), '42');
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByRole('heading', { name: message })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Sign-in request' })).not.toBeInTheDocument());
  });

  it('shows passcodes when nothing waits', async () => {
    fakeApi({ 'GET /authenticator/api/requests': () => json(200, { requests: [] }) });
    renderApp(memoryStore([await testAccount()]));
    expect(await screen.findByText('Passcode for bob@example.com')).toBeInTheDocument();
    expect(await screen.findByText(/^\d{3} \d{3}$/)).toBeInTheDocument();
  });
});
