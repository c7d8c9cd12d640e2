import { useTranslation } from 'react-i18next';
import { App, Button } from 'antd';

/** Copies text to the clipboard and confirms it with a short toast (or says that copying failed). */
export function CopyButton({
  text,
  label,
  ariaLabel,
  type = 'default',
}: {
  text: string;
  label?: string;
  ariaLabel?: string;
  type?: 'default' | 'primary';
}) {
  const { t } = useTranslation('app');
  const { message } = App.useApp();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      void message.success(t('copy.done'));
    } catch {
      void message.error(t('copy.failed'));
    }
  };
  return (
    <Button type={type} onClick={() => void copy()} aria-label={ariaLabel}>
      {label ?? t('copy.action')}
    </Button>
  );
}
