import { useTranslation } from 'react-i18next';
import type { CreateBypassCodesResponse } from '@mfa-portal/shared';
import {
  BYPASS_CODE_INITIAL_VALUES,
  BypassCodeFields,
  bypassCodeRequest,
  type BypassCodeValues,
} from '../../../lib/bypass-codes/BypassCodeFields';
import { useCreateUserBypassCodes } from '../api/create-bypass-codes';
import { JustifiedActionDialog } from './JustifiedActionDialog';

/**
 * Bypass codes for the user, as on their own screen (1–10 codes, at most 7 days: longer is refused
 * here before asking the server, 1–10 uses) plus the reason and ticket. The codes are shown once,
 * on the page, after the dialog closes.
 */
export function IssueBypassCodesDialog({
  upn,
  liveCount,
  onClose,
  onCreated,
}: {
  upn: string;
  liveCount: number;
  onClose: () => void;
  onCreated: (result: CreateBypassCodesResponse) => void;
}) {
  const { t } = useTranslation(['admin', 'bypass-codes']);
  const create = useCreateUserBypassCodes(upn);
  return (
    <JustifiedActionDialog<BypassCodeValues>
      open
      name="admin-issue-bypass-codes"
      title={t('admin:issue.title', { upn })}
      intro={<p>{t('admin:issue.intro')}</p>}
      initialValues={BYPASS_CODE_INITIAL_VALUES}
      fields={
        <BypassCodeFields
          liveCount={liveCount}
          usesHelp={t('admin:issue.uses_help')}
          replaceLabel={t('admin:issue.replace_label')}
          replaceHelp={t('admin:issue.replace_help', { count: liveCount })}
          autoFocus
        />
      }
      submitLabel={t('admin:issue.submit')}
      submittingLabel={t('admin:issue.submitting')}
      pending={create.isPending}
      error={create.error}
      failedTitle={t('admin:issue.failed')}
      onClose={onClose}
      onSubmit={async (values) => {
        const result = await create.mutateAsync({
          ...bypassCodeRequest(values, liveCount),
          reason: values.reason,
          ticket: values.ticket,
        });
        onCreated(result);
        onClose();
      }}
    />
  );
}
