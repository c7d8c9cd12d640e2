import type { ErrorAlertProps } from '../../../lib/ui/ErrorAlert';
import { ErrorAlert } from '../../../lib/ui/ErrorAlert';
import { useAdminErrorMessage } from './admin-errors';

/** ErrorAlert that says why the policy refused, when it did. */
export function AdminErrorAlert(props: Omit<ErrorAlertProps, 'message'>) {
  const message = useAdminErrorMessage();
  return <ErrorAlert {...props} message={message(props.error)} />;
}
