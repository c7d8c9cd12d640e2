import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Checkbox, InputNumber } from 'antd';
import { FACTOR_KINDS, FACTOR_MAX_PER_KIND, type FactorKind, type FactorPolicyRule } from '@mfa-portal/shared';
import { ErrorAlert } from '../../../lib/ui/ErrorAlert';
import { useFlash } from '../../../lib/ui/flash';
import { usePreviewFactorPolicy, useSaveFactorPolicy, type PolicyScope } from '../api/factor-policy';
import { FactorPolicyPreviewResult, FactorPolicyRefusal } from './FactorPolicyPreview';

/** The list with `kind` switched on or off, kept in the recommended order. */
const toggled = (list: readonly FactorKind[], kind: FactorKind, on: boolean): FactorKind[] =>
  FACTOR_KINDS.filter((k) => (k === kind ? on : list.includes(k)));

/**
 * One factor policy as a form (the organisation's, or a group's): per kind of device, whether it may be
 * added, whether it may be used, and the most a person may hold; whether a passkey or security key is
 * required. "Preview" asks the server what it would do to the people it reaches, before anything is
 * saved; "Save" is refused by the server, with the people named, when it would leave anyone with no
 * device they may use. A plain table of labelled checkboxes and number fields: the keyboard reaches
 * every one of them in reading order.
 */
export function FactorPolicyForm({
  scope,
  label,
  scopeName,
  initial,
  create = false,
  onSaved,
  onCancel,
}: {
  scope: PolicyScope;
  /** The form's accessible name ("Policy for everyone"). */
  label: string;
  /** Who it is for, in the confirmation ("everyone", the group's name). */
  scopeName: string;
  initial: FactorPolicyRule;
  /** A group that has no policy of its own yet. */
  create?: boolean;
  onSaved?: () => void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation('admin');
  const id = useId();
  const [rule, setRule] = useState<FactorPolicyRule>(initial);
  const preview = usePreviewFactorPolicy();
  const save = useSaveFactorPolicy();
  const { showSuccess } = useFlash();

  /** A change makes the last preview and refusal stale: they are cleared. */
  const change = (next: FactorPolicyRule) => {
    setRule(next);
    preview.reset();
    save.reset();
  };
  const setMax = (kind: FactorKind, value: number | null) => {
    const maxPerKind = { ...rule.maxPerKind };
    if (value === null) delete maxPerKind[kind];
    else maxPerKind[kind] = value;
    change({ ...rule, maxPerKind });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    preview.reset();
    save.mutate(
      { scope, rule, create },
      {
        onSuccess: () => {
          showSuccess(t('factor_policy.saved', { scope: scopeName }));
          onSaved?.();
        },
      },
    );
  };
  const kindName = (kind: FactorKind) => t(`factor_policy.kind.${kind}`);

  return (
    <form className="factor-policy-form" aria-label={label} onSubmit={submit} noValidate>
      <table className="data-table factor-policy-table">
        <caption>{t('factor_policy.table_caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('factor_policy.col_kind')}</th>
            <th scope="col">{t('factor_policy.col_enrol')}</th>
            <th scope="col">{t('factor_policy.col_use')}</th>
            <th scope="col">{t('factor_policy.col_max')}</th>
          </tr>
        </thead>
        <tbody>
          {FACTOR_KINDS.map((kind) => (
            <tr key={kind}>
              <th scope="row">{kindName(kind)}</th>
              <td>
                <Checkbox
                  checked={rule.enrol.includes(kind)}
                  onChange={(e) => change({ ...rule, enrol: toggled(rule.enrol, kind, e.target.checked) })}
                  aria-label={t('factor_policy.enrol_label', { kind: kindName(kind) })}
                />
              </td>
              <td>
                <Checkbox
                  checked={rule.use.includes(kind)}
                  onChange={(e) => change({ ...rule, use: toggled(rule.use, kind, e.target.checked) })}
                  aria-label={t('factor_policy.use_label', { kind: kindName(kind) })}
                />
              </td>
              <td>
                <InputNumber
                  min={1}
                  max={FACTOR_MAX_PER_KIND}
                  precision={0}
                  value={rule.maxPerKind[kind] ?? null}
                  onChange={(value) => setMax(kind, typeof value === 'number' ? value : null)}
                  placeholder={t('factor_policy.max_placeholder')}
                  aria-label={t('factor_policy.max_label', { kind: kindName(kind) })}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="form-note">{t('factor_policy.table_help')}</p>
      <p>
        <Checkbox
          checked={rule.requirePhishingResistant}
          onChange={(e) => change({ ...rule, requirePhishingResistant: e.target.checked })}
          aria-describedby={`${id}-require-help`}
        >
          {t('factor_policy.require_label')}
        </Checkbox>
      </p>
      <p id={`${id}-require-help`} className="form-note">
        {t('factor_policy.require_help')}
      </p>
      <div className="button-row">
        <Button
          onClick={() => {
            save.reset();
            preview.mutate({ scope, policy: rule });
          }}
          loading={preview.isPending}
        >
          {preview.isPending ? t('factor_policy.previewing') : t('factor_policy.preview')}
        </Button>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {save.isPending ? t('factor_policy.saving') : t('factor_policy.save')}
        </Button>
        {onCancel ? <Button onClick={onCancel}>{t('factor_policy.cancel')}</Button> : null}
      </div>
      {preview.data ? <FactorPolicyPreviewResult preview={preview.data} /> : null}
      {preview.error ? <ErrorAlert error={preview.error} title={t('factor_policy.preview_failed')} className="after-form" /> : null}
      {save.error ? <FactorPolicyRefusal error={save.error} /> : null}
    </form>
  );
}
