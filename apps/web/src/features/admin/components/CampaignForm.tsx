import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Input } from 'antd';
import {
  CAMPAIGN_LIMITS,
  type AdminDirectoryGroup,
  type Campaign,
  type CampaignRequirement,
  type CampaignStartBody,
  type CampaignTargetKind,
} from '@mfa-portal/shared';
import { isApiError } from '../../../lib/api/api-error';
import { ErrorAlert } from '../../../lib/ui/ErrorAlert';
import { NativeSelect } from '../../../lib/ui/NativeSelect';
import { useStartCampaign } from '../api/campaigns';
import { useDirectoryGroups, useUnits } from '../api/units';
import { useAdminErrorMessage } from './admin-errors';
import './campaign-form.css';

const DAY_MS = 86_400_000;
/** YYYY-MM-DD of a day `days` from now, in the administrator's own time zone. */
const dayAhead = (days: number) => {
  const d = new Date(Date.now() + days * DAY_MS);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/** One directory group, found by part of its name. */
function GroupChooser({ chosen, onChoose }: { chosen: AdminDirectoryGroup | null; onChoose: (g: AdminDirectoryGroup | null) => void }) {
  const { t } = useTranslation('admin');
  const id = useId();
  const [q, setQ] = useState('');
  const found = useDirectoryGroups(q.trim());
  const label = (g: AdminDirectoryGroup) => t('units.group_members', { name: g.name, count: g.memberCount });
  if (chosen) {
    return (
      <p className="campaign-form__chosen">
        <span>{t('campaigns.group_chosen', { group: label(chosen) })}</span>{' '}
        <Button size="small" onClick={() => onChoose(null)}>
          {t('campaigns.group_change')}
        </Button>
      </p>
    );
  }
  return (
    <div>
      <label htmlFor={`${id}-find`} className="unit-picker__label">
        {t('units.group_find')}
      </label>
      <Input id={`${id}-find`} value={q} onChange={(e) => setQ(e.target.value)} maxLength={100} autoComplete="off" />
      {found.data && found.data.groups.length === 0 ? <p className="form-note">{t('units.groups_not_found')}</p> : null}
      {found.data && found.data.groups.length > 0 ? (
        <ul className="unit-picker__found" aria-label={t('units.groups_found')}>
          {found.data.groups.map((g) => (
            <li key={g.id}>
              <span>{label(g)}</span>
              <Button size="small" onClick={() => onChoose(g)} aria-label={t('campaigns.group_choose_named', { name: g.name })}>
                {t('campaigns.group_choose')}
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function NumberField({
  id,
  label,
  help,
  value,
  onChange,
  min,
  max,
}: {
  id: string;
  label: string;
  help: string;
  value: string;
  onChange: (v: string) => void;
  min: number;
  max: number;
}) {
  return (
    <div className="campaign-form__field">
      <label htmlFor={id}>{label}</label>
      <Input
        id={id}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={`${id}-help`}
      />
      <p id={`${id}-help`} className="form-note">
        {help}
      </p>
    </div>
  );
}

/**
 * Start a campaign: whom it asks (a directory group or an administrative unit), what counts as done,
 * the deadline, the reminders and the snoozes. The server checks everything (an unknown or empty group
 * is refused, naming it) and stores nothing on a refusal.
 */
export function CampaignForm({ onDone }: { onDone: (started: Campaign | null) => void }) {
  const { t } = useTranslation('admin');
  const message = useAdminErrorMessage();
  const start = useStartCampaign();
  const units = useUnits();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const [kind, setKind] = useState<CampaignTargetKind>('group');
  const [group, setGroup] = useState<AdminDirectoryGroup | null>(null);
  const [unitId, setUnitId] = useState('');
  const [requirement, setRequirement] = useState<CampaignRequirement>('device');
  const [deadline, setDeadline] = useState(dayAhead(14));
  const [intervalDays, setIntervalDays] = useState('3');
  const [reminders, setReminders] = useState('3');
  const [snoozes, setSnoozes] = useState('3');
  const [snoozeDays, setSnoozeDays] = useState('1');
  const targetId = kind === 'group' ? group?.id : unitId;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!targetId) return;
    const body: CampaignStartBody = {
      target: { kind, id: targetId },
      requirement,
      // The end of the chosen day, where the administrator is.
      deadline: new Date(`${deadline}T23:59:00`).toISOString(),
      reminderIntervalDays: Number(intervalDays),
      maxReminders: Number(reminders),
      maxSnoozes: Number(snoozes),
      snoozeDays: Number(snoozeDays),
    };
    void start.mutateAsync(body).then(onDone, () => undefined);
  };
  const reason =
    start.isError && isApiError(start.error) && typeof start.error.details.reason === 'string' ? start.error.details.reason : null;
  const field = start.isError && isApiError(start.error) ? start.error.details.field : undefined;

  return (
    <section className="section panel" aria-labelledby="campaign-form-heading">
      <h2 id="campaign-form-heading" ref={heading} tabIndex={-1}>
        {t('campaigns.form_title')}
      </h2>
      <form className="campaign-form" onSubmit={submit} noValidate>
        <fieldset>
          <legend>{t('campaigns.target')}</legend>
          {(['group', 'unit'] as const).map((k) => (
            <label key={k} className="campaign-form__choice">
              <input type="radio" name="campaign-target" value={k} checked={kind === k} onChange={() => setKind(k)} />{' '}
              {t(`campaigns.target_${k}`)}
            </label>
          ))}
          {kind === 'group' ? (
            <GroupChooser chosen={group} onChoose={setGroup} />
          ) : (
            <div className="campaign-form__field">
              <label htmlFor="campaign-unit">{t('campaigns.unit')}</label>
              <NativeSelect
                id="campaign-unit"
                value={unitId}
                onChange={setUnitId}
                options={[
                  { value: '', label: t('campaigns.unit_none') },
                  ...(units.data?.units ?? []).map((u) => ({ value: u.id, label: u.name })),
                ]}
              />
            </div>
          )}
        </fieldset>
        <fieldset>
          <legend>{t('campaigns.requirement')}</legend>
          {(['device', 'policy'] as const).map((r) => (
            <label key={r} className="campaign-form__choice">
              <input type="radio" name="campaign-requirement" value={r} checked={requirement === r} onChange={() => setRequirement(r)} />{' '}
              {t(`campaigns.requirement_${r}`)}
            </label>
          ))}
        </fieldset>
        <div className="campaign-form__field">
          <label htmlFor="campaign-deadline">{t('campaigns.deadline')}</label>
          <Input id="campaign-deadline" type="date" value={deadline} min={dayAhead(1)} onChange={(e) => setDeadline(e.target.value)} />
        </div>
        <NumberField
          id="campaign-interval"
          label={t('campaigns.interval')}
          help={t('campaigns.interval_help')}
          value={intervalDays}
          onChange={setIntervalDays}
          {...CAMPAIGN_LIMITS.reminderIntervalDays}
        />
        <NumberField
          id="campaign-reminders"
          label={t('campaigns.reminders')}
          help={t('campaigns.reminders_help')}
          value={reminders}
          onChange={setReminders}
          {...CAMPAIGN_LIMITS.maxReminders}
        />
        <NumberField
          id="campaign-snoozes"
          label={t('campaigns.snoozes')}
          help={t('campaigns.snoozes_help')}
          value={snoozes}
          onChange={setSnoozes}
          {...CAMPAIGN_LIMITS.maxSnoozes}
        />
        <NumberField
          id="campaign-snooze-days"
          label={t('campaigns.snooze_days')}
          help={t('campaigns.snooze_days_help')}
          value={snoozeDays}
          onChange={setSnoozeDays}
          {...CAMPAIGN_LIMITS.snoozeDays}
        />
        {start.isError ? (
          <ErrorAlert
            error={start.error}
            title={t('campaigns.start_failed')}
            message={[message(start.error), reason ? t('campaigns.reason', { field: field ?? '', reason }) : null]
              .filter(Boolean)
              .join(' ')}
          />
        ) : null}
        <div className="actions">
          <Button type="primary" htmlType="submit" loading={start.isPending} disabled={!targetId}>
            {t('campaigns.start')}
          </Button>
          <Button onClick={() => onDone(null)}>{t('campaigns.cancel')}</Button>
        </div>
      </form>
    </section>
  );
}
