import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button } from 'antd';
import type { AdminUnit } from '@mfa-portal/shared';
import { Loading } from '../../../lib/ui/Loading';
import { Page } from '../../../lib/ui/Page';
import { useDeleteUnit, useUnits } from '../api/units';
import { AdminErrorAlert } from '../components/AdminErrorAlert';
import { UnitForm } from '../components/UnitForm';

/** What a unit holds, in words: its groups, its people by name, and how many people that is now. */
function Holds({ unit }: { unit: AdminUnit }) {
  const { t } = useTranslation('admin');
  const { groups, people, count } = unit.members;
  return (
    <>
      {groups.length > 0 ? <div>{t('units.groups_list', { names: groups.map((g) => g.name).join(', ') })}</div> : null}
      {people.length > 0 ? <div>{t('units.people_list', { names: people.map((p) => p.upn).join(', ') })}</div> : null}
      <div className="form-note">{t('units.people_count', { count })}</div>
    </>
  );
}

function Helpdesk({ unit }: { unit: AdminUnit }) {
  const { t } = useTranslation('admin');
  const { groups, people } = unit.helpdesk;
  if (groups.length === 0 && people.length === 0) return <span className="form-note">{t('units.nobody_assigned')}</span>;
  return (
    <>
      {people.length > 0 ? <div>{t('units.people_list', { names: people.map((p) => p.upn).join(', ') })}</div> : null}
      {groups.length > 0 ? <div>{t('units.groups_list', { names: groups.map((g) => g.name).join(', ') })}</div> : null}
    </>
  );
}

/**
 * Administrative units (Solution Administrators): each unit, what it holds and who helps its people;
 * create one, edit one (the same form), delete one after saying what that changes.
 */
export function UnitsPage() {
  const { t } = useTranslation('admin');
  const units = useUnits();
  const remove = useDeleteUnit();
  // null: no form; 'new': a new unit; otherwise the unit edited.
  const [editing, setEditing] = useState<AdminUnit | 'new' | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const listHeading = useRef<HTMLHeadingElement>(null);

  const finish = (text: string | null) => {
    setEditing(null);
    setDone(text);
    // Back to the list, where the change shows.
    requestAnimationFrame(() => listHeading.current?.focus());
  };

  return (
    <Page title={t('units.title')} intro={<p>{t('units.intro')}</p>}>
      <div role="status" className="flash-region">
        {done ? <Alert type="success" showIcon title={done} /> : null}
      </div>
      {editing ? (
        <UnitForm
          key={editing === 'new' ? 'new' : editing.id}
          unit={editing === 'new' ? null : editing}
          onDone={(saved) => finish(saved ? t('units.saved', { name: saved.name }) : null)}
        />
      ) : (
        <Button
          type="primary"
          onClick={() => {
            setDone(null);
            setEditing('new');
          }}
        >
          {t('units.new')}
        </Button>
      )}

      <section className="section" aria-labelledby="units-heading">
        <h2 id="units-heading" ref={listHeading} tabIndex={-1}>
          {t('units.list_heading')}
        </h2>
        {units.isPending ? <Loading label={t('units.loading')} /> : null}
        {units.isError ? <AdminErrorAlert error={units.error} title={t('units.load_failed')} onRetry={() => void units.refetch()} /> : null}
        {units.data?.units.length === 0 ? (
          <div className="empty-state">
            <p className="empty-state__title">{t('units.empty_title')}</p>
            <p>{t('units.empty_body')}</p>
          </div>
        ) : null}
        {units.data && units.data.units.length > 0 ? (
          <div className="table-wrap" role="region" aria-label={t('units.table_label')} tabIndex={0}>
            <table className="data-table">
              <caption className="visually-hidden">{t('units.table_label')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('units.col_name')}</th>
                  <th scope="col">{t('units.col_members')}</th>
                  <th scope="col">{t('units.col_helpdesk')}</th>
                  <th scope="col">{t('units.col_actions')}</th>
                </tr>
              </thead>
              <tbody>
                {units.data.units.map((unit) => (
                  <tr key={unit.id}>
                    <th scope="row">{unit.name}</th>
                    <td>
                      <Holds unit={unit} />
                    </td>
                    <td>
                      <Helpdesk unit={unit} />
                    </td>
                    <td>
                      {confirming === unit.id ? (
                        <div className="unit-actions" role="group" aria-label={t('units.delete_confirm', { name: unit.name })}>
                          <p>{t('units.delete_confirm', { name: unit.name })}</p>
                          <Button
                            danger
                            autoFocus
                            loading={remove.isPending}
                            onClick={() =>
                              void remove
                                .mutateAsync(unit.id)
                                .then(() => {
                                  setConfirming(null);
                                  finish(t('units.deleted', { name: unit.name }));
                                })
                                .catch(() => undefined)
                            }
                          >
                            {t('units.delete_yes')}
                          </Button>
                          <Button onClick={() => setConfirming(null)}>{t('units.delete_no')}</Button>
                        </div>
                      ) : (
                        <div className="unit-actions">
                          <Button
                            onClick={() => {
                              setDone(null);
                              setEditing(unit);
                            }}
                            aria-label={t('units.edit_named', { name: unit.name })}
                          >
                            {t('units.edit')}
                          </Button>
                          <Button danger onClick={() => setConfirming(unit.id)} aria-label={t('units.delete_named', { name: unit.name })}>
                            {t('units.delete')}
                          </Button>
                        </div>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        {remove.isError ? <AdminErrorAlert error={remove.error} title={t('units.delete_failed')} /> : null}
      </section>
    </Page>
  );
}
