import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Form, Input } from 'antd';
import { ADMIN_UNIT_NAME_MAX, adminUnitNameSchema, type AdminDirectoryGroup, type AdminUnit, type AdminUnitBody } from '@mfa-portal/shared';
import { isApiError } from '../../../lib/api/api-error';
import { ErrorAlert } from '../../../lib/ui/ErrorAlert';
import { useSaveUnit } from '../api/units';
import { AdminErrorAlert } from './AdminErrorAlert';
import { useAdminErrorMessage } from './admin-errors';
import { GroupPicker, PeoplePicker } from './UnitPickers';

interface Draft {
  name: string;
  memberGroups: AdminDirectoryGroup[];
  memberPeople: string[];
  helpdeskGroups: AdminDirectoryGroup[];
  helpdeskPeople: string[];
}

const draftOf = (unit: AdminUnit | null): Draft => ({
  name: unit?.name ?? '',
  memberGroups: unit?.members.groups ?? [],
  memberPeople: unit?.members.people.map((p) => p.upn) ?? [],
  helpdeskGroups: unit?.helpdesk.groups ?? [],
  helpdeskPeople: unit?.helpdesk.people.map((p) => p.upn) ?? [],
});

const bodyOf = (d: Draft): AdminUnitBody => ({
  name: d.name.trim(),
  members: { groups: d.memberGroups.map((g) => g.id), people: d.memberPeople },
  helpdesk: { groups: d.helpdeskGroups.map((g) => g.id), people: d.helpdeskPeople },
});

/** The entry a refusal names by its field (`members.people.1`), as the administrator typed or chose it. */
function entryOf(d: Draft, field: unknown): string | null {
  if (typeof field !== 'string') return null;
  const [part, kind, index] = field.split('.');
  const i = Number(index);
  if (!Number.isInteger(i)) return null;
  if (kind === 'groups') return (part === 'members' ? d.memberGroups : d.helpdeskGroups)[i]?.name ?? null;
  if (kind === 'people') return (part === 'members' ? d.memberPeople : d.helpdeskPeople)[i] ?? null;
  return null;
}

/**
 * Create or edit a unit: its name, who it holds (directory groups and people) and who helps them
 * (Helpdesk Administrators by name, or a directory group of them). The server checks everything and
 * stores nothing on a refusal, which names the entry it refused.
 */
export function UnitForm({ unit, onDone }: { unit: AdminUnit | null; onDone: (saved: AdminUnit | null) => void }) {
  const { t } = useTranslation('admin');
  const message = useAdminErrorMessage();
  const save = useSaveUnit();
  const [draft, setDraft] = useState<Draft>(() => draftOf(unit));
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const nameValid = adminUnitNameSchema.safeParse(draft.name).success;
  const problem = save.isError && isApiError(save.error) ? entryOf(draft, save.error.details.field) : null;
  const title = unit ? t('units.form_edit', { name: unit.name }) : t('units.form_new');

  return (
    <section className="section panel" aria-labelledby="unit-form-heading">
      <h2 id="unit-form-heading" ref={heading} tabIndex={-1}>
        {title}
      </h2>
      <Form
        layout="vertical"
        requiredMark={false}
        onFinish={() =>
          void save
            .mutateAsync({ id: unit?.id ?? null, body: bodyOf(draft) })
            .then(onDone)
            .catch(() => undefined)
        }
      >
        <Form.Item label={t('units.name')} htmlFor="unit-name" extra={t('units.name_help')}>
          <Input
            id="unit-name"
            value={draft.name}
            onChange={(e) => set({ name: e.target.value })}
            maxLength={ADMIN_UNIT_NAME_MAX}
            autoComplete="off"
          />
        </Form.Item>

        <h3>{t('units.members_heading')}</h3>
        <p className="form-note">{t('units.members_help')}</p>
        <GroupPicker legend={t('units.groups')} chosen={draft.memberGroups} onChange={(memberGroups) => set({ memberGroups })} />
        <PeoplePicker legend={t('units.people')} chosen={draft.memberPeople} onChange={(memberPeople) => set({ memberPeople })} />

        <h3>{t('units.helpdesk_heading')}</h3>
        <p className="form-note">{t('units.helpdesk_help')}</p>
        <PeoplePicker
          legend={t('units.helpdesk_people')}
          chosen={draft.helpdeskPeople}
          onChange={(helpdeskPeople) => set({ helpdeskPeople })}
        />
        <GroupPicker
          legend={`${t('units.helpdesk_people')}: ${t('units.groups')}`}
          chosen={draft.helpdeskGroups}
          onChange={(helpdeskGroups) => set({ helpdeskGroups })}
        />

        {save.isError && problem ? (
          <ErrorAlert
            error={save.error}
            title={t('units.save_failed')}
            message={t('units.field_problem', { value: problem, message: message(save.error) })}
          />
        ) : save.isError ? (
          <AdminErrorAlert error={save.error} title={t('units.save_failed')} />
        ) : null}
        <div className="actions">
          <Button type="primary" htmlType="submit" loading={save.isPending} disabled={!nameValid}>
            {t('units.save')}
          </Button>
          <Button onClick={() => onDone(null)}>{t('units.cancel')}</Button>
        </div>
      </Form>
    </section>
  );
}
