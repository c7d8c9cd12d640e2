import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Input } from 'antd';
import type { AdminDirectoryGroup, FactorPolicyOverride, FactorPolicyRule } from '@mfa-portal/shared';
import { ErrorAlert } from '../../../lib/ui/ErrorAlert';
import { useFlash } from '../../../lib/ui/flash';
import { Loading } from '../../../lib/ui/Loading';
import { Page } from '../../../lib/ui/Page';
import { useFactorPolicyAdmin, useRemoveGroupPolicy } from '../api/factor-policy';
import { useDirectoryGroups } from '../api/units';
import { FactorPolicyForm } from '../components/FactorPolicyForm';

const ruleOf = (r: FactorPolicyRule): FactorPolicyRule => ({
  enrol: r.enrol,
  use: r.use,
  requirePhishingResistant: r.requirePhishingResistant,
  maxPerKind: r.maxPerKind,
});

/** A directory group without a policy of its own, found by part of its name, to give it one. */
function GroupChooser({ taken, onChoose }: { taken: ReadonlySet<string>; onChoose: (g: AdminDirectoryGroup) => void }) {
  const { t } = useTranslation('admin');
  const id = useId();
  const [q, setQ] = useState('');
  const found = useDirectoryGroups(q.trim());
  const offered = (found.data?.groups ?? []).filter((g) => !taken.has(g.id));
  return (
    <div className="factor-policy-chooser">
      <label htmlFor={`${id}-find`}>{t('factor_policy.group_find')}</label>
      <Input
        id={`${id}-find`}
        value={q}
        onChange={(e) => setQ(e.target.value)}
        maxLength={100}
        autoComplete="off"
        aria-describedby={`${id}-help`}
      />
      <p id={`${id}-help`} className="form-note">
        {t('factor_policy.group_find_help')}
      </p>
      {found.data && offered.length === 0 ? <p className="form-note">{t('factor_policy.groups_not_found')}</p> : null}
      {offered.length > 0 ? (
        <ul className="factor-policy-chooser__found" aria-label={t('factor_policy.groups_found')}>
          {offered.map((g) => (
            <li key={g.id}>
              <span>{t('factor_policy.group_members', { name: g.name, count: g.memberCount })}</span>{' '}
              <Button size="small" onClick={() => onChoose(g)} aria-label={t('factor_policy.choose_named', { name: g.name })}>
                {t('factor_policy.choose')}
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      {found.error ? <ErrorAlert error={found.error} /> : null}
    </div>
  );
}

/** The groups that have a policy of their own: each can be changed or removed. */
function Overrides({ overrides }: { overrides: readonly FactorPolicyOverride[] }) {
  const { t } = useTranslation('admin');
  const [editing, setEditing] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const remove = useRemoveGroupPolicy();
  const { showSuccess } = useFlash();
  if (overrides.length === 0) return <p>{t('factor_policy.groups_none')}</p>;
  const removeOne = (o: FactorPolicyOverride) =>
    remove.mutate(o.group.id, {
      onSuccess: () => {
        setConfirming(null);
        showSuccess(t('factor_policy.removed', { name: o.group.name }));
      },
    });
  return (
    <>
      <ul className="factor-policy-overrides">
        {overrides.map((o) => (
          <li key={o.group.id}>
            <h3>{t('factor_policy.group_members', { name: o.group.name, count: o.group.memberCount })}</h3>
            {editing === o.group.id ? (
              <FactorPolicyForm
                scope={{ kind: 'group', groupId: o.group.id }}
                label={t('factor_policy.form_label_group', { name: o.group.name })}
                scopeName={o.group.name}
                initial={ruleOf(o)}
                onSaved={() => setEditing(null)}
                onCancel={() => setEditing(null)}
              />
            ) : confirming === o.group.id ? (
              <div className="button-row" role="group" aria-label={t('factor_policy.remove_confirm', { name: o.group.name })}>
                <p>{t('factor_policy.remove_confirm', { name: o.group.name })}</p>
                <Button danger autoFocus loading={remove.isPending} onClick={() => removeOne(o)}>
                  {t('factor_policy.remove_yes')}
                </Button>
                <Button onClick={() => setConfirming(null)}>{t('factor_policy.remove_no')}</Button>
              </div>
            ) : (
              <div className="button-row">
                <Button onClick={() => setEditing(o.group.id)} aria-label={t('factor_policy.edit_named', { name: o.group.name })}>
                  {t('factor_policy.edit')}
                </Button>
                <Button
                  danger
                  onClick={() => setConfirming(o.group.id)}
                  aria-label={t('factor_policy.remove_named', { name: o.group.name })}
                >
                  {t('factor_policy.remove')}
                </Button>
              </div>
            )}
          </li>
        ))}
      </ul>
      {remove.error ? <ErrorAlert error={remove.error} title={t('factor_policy.remove_failed')} className="after-form" /> : null}
    </>
  );
}

/**
 * The factor policy, for a Solution Administrator: the organisation's policy, the directory groups with
 * a policy of their own, and giving another group one. Every form previews what it would do before it
 * is saved; a change that would leave anyone with no device they may use is refused, naming them.
 */
export function FactorPolicyPage() {
  const { t } = useTranslation('admin');
  const policy = useFactorPolicyAdmin();
  const [newGroup, setNewGroup] = useState<AdminDirectoryGroup | null>(null);
  const globalId = useId();
  const groupsId = useId();
  const addId = useId();
  if (policy.isPending) return <Loading label={t('factor_policy.loading')} />;
  if (policy.error) return <ErrorAlert error={policy.error} title={t('factor_policy.load_failed')} />;
  const { global, overrides } = policy.data;
  return (
    <Page title={t('factor_policy.title')} intro={<p>{t('factor_policy.intro')}</p>}>
      <Alert role="note" type="info" showIcon className="before-form" title={t('factor_policy.duo_note')} />
      <section className="section" aria-labelledby={globalId}>
        <h2 id={globalId}>{t('factor_policy.global_heading')}</h2>
        <p>{t('factor_policy.global_intro')}</p>
        <FactorPolicyForm
          key={global.updatedAt ?? 'open'}
          scope={{ kind: 'global' }}
          label={t('factor_policy.form_label_global')}
          scopeName={t('factor_policy.scope_global')}
          initial={ruleOf(global)}
        />
      </section>
      <section className="section" aria-labelledby={groupsId}>
        <h2 id={groupsId}>{t('factor_policy.groups_heading')}</h2>
        <Overrides overrides={overrides} />
      </section>
      <section className="section" aria-labelledby={addId}>
        <h2 id={addId}>{t('factor_policy.add_heading')}</h2>
        {newGroup ? (
          <>
            <h3>{t('factor_policy.chosen', { name: newGroup.name })}</h3>
            <FactorPolicyForm
              scope={{ kind: 'group', groupId: newGroup.id }}
              label={t('factor_policy.form_label_group', { name: newGroup.name })}
              scopeName={newGroup.name}
              initial={ruleOf(global)}
              create
              onSaved={() => setNewGroup(null)}
              onCancel={() => setNewGroup(null)}
            />
          </>
        ) : (
          <GroupChooser taken={new Set(overrides.map((o) => o.group.id))} onChoose={setNewGroup} />
        )}
      </section>
    </Page>
  );
}
