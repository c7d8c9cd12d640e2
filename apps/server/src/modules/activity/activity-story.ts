import type { ActivityEntry, ActivityMethod, ActivityOutcome, ActivityStep, ActivityStory } from '@mfa-portal/shared';
import type { IpLocator } from '../../lib/ip-locations.js';
import type { ChainedAuditEvent } from '../audit/audit-chain.js';
import { shownOutcome } from '../audit/shown-outcome.js';
import { detailText, facetOf, LAST_DEVICE_QUESTION, type Facet, type Family } from './activity-grouping.js';
import { countOf, methodOf, storyOfAction } from './activity-vocabulary.js';
import { describeUserAgent } from './client-info.js';

/**
 * One entry of a person's activity told as a story: what happened (a sentence named from a closed
 * list, worded by the web application), who did it from the reader's side, how it ended, where it
 * came from, and its events as steps in plain words. Internal action names stay here.
 */

const shortText = (s: string | null) => (s && s.length <= 200 ? s : null);

/** A failed second check in the words of what was tried. */
function failedCheck(reason: string | null): ActivityStep['step'] {
  if (reason === 'request.rate_limited') return 'too_many_attempts';
  if (reason?.startsWith('push.')) return 'push_not_approved';
  if (reason?.startsWith('webauthn.')) return 'passkey_refused';
  return 'code_wrong';
}

function stepOf(e: ChainedAuditEvent, facet: Facet): ActivityStep {
  const { outcome, reason } = shownOutcome(e);
  const ok = outcome === 'success';
  const step = (name: ActivityStep['step'], shown: ActivityOutcome = outcome): ActivityStep => ({
    eventId: e.id,
    occurredAt: new Date(e.occurredAt).toISOString(),
    step: name,
    outcome: shown,
    reason: shown === 'failure' ? reason : null,
    method: methodOf(e),
    deviceName: shortText(detailText(e, 'deviceName')),
    serial: shortText(detailText(e, 'serial')),
    count: countOf(e),
  });
  if (facet.prompt) return step(e.reason === LAST_DEVICE_QUESTION ? 'last_device_asked' : stepAskedFor(facet.family), 'unfinished');
  switch (e.action) {
    case 'idp.login.password_ok':
      return step('password_ok');
    case 'idp.login.password_failed':
      return step('password_wrong');
    case 'idp.login.second_factor_ok':
      return step('signed_in');
    case 'idp.login.second_factor_failed':
      return step(failedCheck(reason));
    case 'idp.login.refused':
      return step('sign_in_refused');
    case 'mfa.lockout':
      return step('locked_out');
    case 'mfa.verify': {
      if (!ok) return step(failedCheck(reason));
      const purpose = detailText(e, 'purpose');
      return step(purpose === 'step_up' ? 'step_up' : purpose === 'device_test' ? 'device_checked' : 'code_accepted');
    }
    case 'idp.login.push_start':
    case 'step_up.push_start':
    case 'device.test_push_start':
    case 'admin.user.verify_identity_push':
      return step(ok ? 'push_sent' : 'check_refused');
    case 'step_up.push':
      return step(ok ? 'step_up' : 'push_not_approved');
    case 'device.test_push':
      return step(ok ? 'device_checked' : 'push_not_approved');
    case 'push.approve':
      return step(ok ? 'push_approved_on_phone' : 'push_not_approved');
    case 'push.deny':
      return step(ok ? 'push_denied_on_phone' : 'check_refused');
    case 'admin.user.verify_identity':
      return step(ok ? 'identity_checked' : 'identity_check_failed');
  }
  return step(storyOfAction(e.action));
}

const stepAskedFor = (family: Family): ActivityStep['step'] => (family === 'helpdesk_action' ? 'identity_check_asked' : 'step_up_asked');

/** Steps that follow a change in the same story without being what it was about. */
const FOLLOW_UPS: ReadonlySet<string> = new Set(['device.activation', 'device.activate_app']);

interface Told {
  story: ActivityStory;
  outcome: ActivityOutcome;
  /** The event the entry is named after (and a report names). */
  main: ChainedAuditEvent;
  method?: ActivityMethod | null;
}

const last = <T>(items: T[], test: (item: T) => boolean): T | undefined => items.filter(test).at(-1);
const outcomeOf = (e: ChainedAuditEvent): ActivityOutcome => shownOutcome(e).outcome;

function signInStory(events: ChainedAuditEvent[]): Told {
  const find = (action: string) => last(events, (e) => e.action === action);
  const passed = find('idp.login.second_factor_ok');
  if (passed) return { story: 'sign_in', outcome: 'success', main: passed };
  const password = find('idp.login.password_ok');
  if (password && detailText(password, 'next') === 'complete')
    return { story: 'sign_in', outcome: 'success', main: password, method: 'password' };
  const lockout = find('mfa.lockout');
  if (lockout) return { story: 'sign_in_locked_out', outcome: 'failure', main: lockout };
  const failed = find('idp.login.second_factor_failed') ?? last(events, (e) => e.action === 'mfa.verify' && outcomeOf(e) === 'failure');
  if (failed) {
    const r = failed.reason ?? '';
    const story: ActivityStory =
      r === 'mfa.code_invalid' || r === 'mfa.code_replayed'
        ? 'sign_in_wrong_code'
        : r.startsWith('push.')
          ? 'sign_in_push_not_approved'
          : r.startsWith('webauthn.')
            ? 'sign_in_passkey_refused'
            : 'sign_in_failed';
    return { story, outcome: 'failure', main: failed };
  }
  const refused = find('idp.login.refused');
  if (refused) return { story: 'sign_in_refused', outcome: 'failure', main: refused };
  const wrongPassword = find('idp.login.password_failed');
  if (wrongPassword) return { story: 'sign_in_wrong_password', outcome: 'failure', main: wrongPassword };
  // The password was right and the second check never came: neither a sign-in nor a failure.
  return { story: 'sign_in', outcome: 'unfinished', main: password ?? events[events.length - 1]! };
}

function tell(events: ChainedAuditEvent[], facets: Facet[]): Told {
  const of = (family: Family, test: (f: Facet, e: ChainedAuditEvent) => boolean = () => true) =>
    events.filter((e, i) => facets[i]!.family === family && test(facets[i]!, e));
  const newest = events[events.length - 1]!;

  const report = of('report');
  if (report.length > 0) {
    const main = report.find((e) => e.action === 'activity.report') ?? report.at(-1)!;
    return { story: storyOfAction(main.action), outcome: outcomeOf(main), main };
  }
  const action = of('helpdesk_action', (f) => !f.prompt).at(-1);
  if (action) return { story: storyOfAction(action.action), outcome: outcomeOf(action), main: action };
  const checks = of('helpdesk_check');
  if (checks.length > 0) {
    const check = last(checks, (e) => e.action === 'admin.user.verify_identity');
    if (check) return { story: 'identity_checked', outcome: outcomeOf(check), main: check };
    const main = checks.at(-1)!;
    return { story: 'identity_checked', outcome: main.action === 'mfa.verify' ? outcomeOf(main) : 'unfinished', main };
  }
  const asked = of('helpdesk_action').at(-1);
  if (asked) return { story: storyOfAction(asked.action), outcome: 'unfinished', main: asked };

  const changes = of('change');
  if (changes.length > 0) {
    // The change the flow was for, not what followed it (the activation link of a phone just added).
    const done = of('change', (f, e) => !f.prompt && !FOLLOW_UPS.has(e.action)).at(-1) ?? of('change', (f) => !f.prompt).at(-1);
    if (!done) return { story: storyOfAction(changes.at(-1)!.action), outcome: 'unfinished', main: changes.at(-1)! };
    // Starting to add a device is not adding it: without its second step, the story is unfinished.
    const started = done.action === 'device.enrol_start' || done.action === 'device.webauthn_register_start';
    return {
      story: storyOfAction(done.action),
      outcome: started && outcomeOf(done) === 'success' ? 'unfinished' : outcomeOf(done),
      main: done,
    };
  }
  const deviceChecks = of('device_check');
  if (deviceChecks.length > 0) {
    const result = last(deviceChecks, (e) => e.action === 'device.test_push' || e.action === 'mfa.verify');
    if (result) return { story: 'device_checked', outcome: outcomeOf(result), main: result };
    return { story: 'device_checked', outcome: 'unfinished', main: deviceChecks.at(-1)! };
  }
  const stepUps = of('step_up');
  if (stepUps.length > 0) {
    const passed = last(stepUps, (e) => e.action !== 'step_up.push_start' && outcomeOf(e) === 'success');
    if (passed) return { story: 'step_up', outcome: 'success', main: passed };
    const failed = last(stepUps, (e) => outcomeOf(e) === 'failure');
    return failed
      ? { story: 'step_up', outcome: 'failure', main: failed }
      : { story: 'step_up', outcome: 'unfinished', main: stepUps.at(-1)! };
  }
  if (of('sign_in').length > 0) return signInStory(events);
  return { story: storyOfAction(newest.action), outcome: outcomeOf(newest), main: newest };
}

/** `events` oldest first (one entry, see activity-grouping.ts); `viewer` is the reader's sign-in name. */
export function toEntry(events: ChainedAuditEvent[], viewer: string, locate: IpLocator): ActivityEntry {
  const facets = events.map(facetOf);
  const told = tell(events, facets);
  const { main } = told;
  const me = viewer.toLowerCase();
  const isSignIn = told.story.startsWith('sign_in');
  const actorUpn = main.actorUpn?.toLowerCase() ?? null;
  // Until the second check passes, whoever signs in is not known to be the person.
  const actor: ActivityEntry['actor'] = isSignIn
    ? told.outcome === 'success'
      ? 'you'
      : 'someone'
    : !actorUpn
      ? 'system'
      : actorUpn === me
        ? 'you'
        : main.action.startsWith('admin.')
          ? 'service_desk'
          : 'other';
  const target = main.target?.toLowerCase() ?? null;

  // The twin of a plainer event of the same request (the sign-in page's, the identity check's) is left out.
  const plain = new Set(
    events.filter((e) => e.action.startsWith('idp.login.') || e.action === 'admin.user.verify_identity').map((e) => e.requestId),
  );
  const steps = events
    .map((e, i) => ({ e, facet: facets[i]! }))
    .filter(({ e }) => !(e.action === 'mfa.verify' && e.requestId && plain.has(e.requestId)))
    .map(({ e, facet }) => stepOf(e, facet));

  const from = main.clientAddress || main.userAgent ? main : (events.find((e) => e.clientAddress) ?? main);
  const { browser, os } = describeUserAgent(from.userAgent);
  const named = (name: string) =>
    shortText(detailText(main, name)) ?? shortText(events.map((e) => detailText(e, name)).findLast(Boolean) ?? null);
  return {
    id: main.id,
    occurredAt: new Date(events[events.length - 1]!.occurredAt).toISOString(),
    story: told.story,
    outcome: told.outcome,
    reason: told.outcome === 'failure' ? shownOutcome(main).reason : null,
    actor,
    actorUpn: actor === 'service_desk' || actor === 'other' ? actorUpn : null,
    targetUpn: target && target !== me ? target : null,
    method: told.method !== undefined ? told.method : methodOf(main),
    deviceName: named('deviceName'),
    serial: named('serial'),
    count: countOf(main),
    client: { address: from.clientAddress, browser, os, location: locate(from.clientAddress) },
    steps,
    reportable: told.story !== 'reported',
  };
}
