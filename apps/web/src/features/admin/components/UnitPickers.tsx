import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Input } from 'antd';
import { upnSchema, type AdminDirectoryGroup } from '@mfa-portal/shared';
import { useDirectoryGroups } from '../api/units';

/**
 * The two choosers of the unit form: directory groups (found by part of their name) and people (by
 * sign-in name). Each shows what is chosen, with a button to remove each, then how to add more; every
 * control is a plain labelled input or button, reached and used with the keyboard alone.
 */

export function GroupPicker({
  legend,
  chosen,
  onChange,
}: {
  legend: string;
  chosen: AdminDirectoryGroup[];
  onChange: (groups: AdminDirectoryGroup[]) => void;
}) {
  const { t } = useTranslation('admin');
  const id = useId();
  const [q, setQ] = useState('');
  const found = useDirectoryGroups(q.trim());
  const label = (g: AdminDirectoryGroup) => t('units.group_members', { name: g.name, count: g.memberCount });
  const offered = (found.data?.groups ?? []).filter((g) => !chosen.some((c) => c.id === g.id));
  return (
    <fieldset className="unit-picker">
      <legend>{legend}</legend>
      {chosen.length === 0 ? (
        <p className="form-note">{t('units.groups_none')}</p>
      ) : (
        <ul className="unit-picker__chosen" aria-label={`${legend}: ${t('units.groups_chosen')}`}>
          {chosen.map((g) => (
            <li key={g.id}>
              <span>{label(g)}</span>
              <Button
                size="small"
                onClick={() => onChange(chosen.filter((c) => c.id !== g.id))}
                aria-label={t('units.remove_named', { name: g.name })}
              >
                {t('units.remove')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <label htmlFor={`${id}-find`} className="unit-picker__label">
        {t('units.group_find')}
      </label>
      <Input
        id={`${id}-find`}
        value={q}
        onChange={(e) => setQ(e.target.value)}
        onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
        maxLength={100}
        autoComplete="off"
        aria-describedby={`${id}-help`}
      />
      <p id={`${id}-help`} className="form-note">
        {t('units.group_find_help')}
      </p>
      {found.data && offered.length === 0 ? <p className="form-note">{t('units.groups_not_found')}</p> : null}
      {offered.length > 0 ? (
        <ul className="unit-picker__found" aria-label={`${legend}: ${t('units.groups_found')}`}>
          {offered.map((g) => (
            <li key={g.id}>
              <span>{label(g)}</span>
              <Button size="small" onClick={() => onChange([...chosen, g])} aria-label={t('units.add_named', { name: g.name })}>
                {t('units.add')}
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      {found.data?.more ? <p className="form-note">{t('units.groups_more')}</p> : null}
    </fieldset>
  );
}

export function PeoplePicker({ legend, chosen, onChange }: { legend: string; chosen: string[]; onChange: (upns: string[]) => void }) {
  const { t } = useTranslation('admin');
  const id = useId();
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState(false);
  const add = () => {
    const parsed = upnSchema.safeParse(value);
    if (!parsed.success) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    setValue('');
    if (!chosen.includes(parsed.data)) onChange([...chosen, parsed.data]);
  };
  return (
    <fieldset className="unit-picker">
      <legend>{legend}</legend>
      {chosen.length === 0 ? (
        <p className="form-note">{t('units.people_none')}</p>
      ) : (
        <ul className="unit-picker__chosen" aria-label={`${legend}: ${t('units.people_chosen')}`}>
          {chosen.map((upn) => (
            <li key={upn}>
              <span>{upn}</span>
              <Button
                size="small"
                onClick={() => onChange(chosen.filter((c) => c !== upn))}
                aria-label={t('units.remove_named', { name: upn })}
              >
                {t('units.remove')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <label htmlFor={`${id}-person`} className="unit-picker__label">
        {t('units.person')}
      </label>
      <div className="unit-picker__add">
        <Input
          id={`${id}-person`}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          onKeyDown={(e) => {
            // Enter adds the person; it never submits the whole form from here.
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
          maxLength={254}
          autoComplete="off"
          aria-invalid={invalid}
          aria-describedby={`${id}-person-help`}
        />
        <Button onClick={add} aria-label={`${t('units.add')}: ${legend}`}>
          {t('units.add')}
        </Button>
      </div>
      <p id={`${id}-person-help`} className={invalid ? 'unit-picker__problem' : 'form-note'} role={invalid ? 'alert' : undefined}>
        {invalid ? t('units.person_invalid') : t('units.person_help')}
      </p>
    </fieldset>
  );
}
