import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Form, Modal } from 'antd';
import { focusMarkedElement, useFocusReturn } from '../../../lib/ui/dialog-focus';
import { AdminErrorAlert } from './AdminErrorAlert';
import { useJustificationMemory } from './justification-memory';
import { JustificationFields, justificationOf, type Justification } from './JustificationFields';

export interface JustifiedActionDialogProps<V extends object> {
  open: boolean;
  /** Form name: field ids are `<name>_<field>`, unique on the page. */
  name: string;
  title: string;
  intro?: ReactNode;
  /** Fields before the reason and ticket (the first one should carry `data-autofocus`). */
  fields?: ReactNode;
  initialValues?: Partial<V>;
  submitLabel: string;
  submittingLabel: string;
  danger?: boolean;
  /** Disables the submit button (e.g. until a consequence is acknowledged). */
  submitDisabled?: boolean;
  pending: boolean;
  error: unknown;
  failedTitle: string;
  reasonHelp?: string;
  /** Runs the action; throws to keep the dialog open (the error is shown from `error`). */
  onSubmit: (values: V & Justification) => Promise<void>;
  onClose: () => void;
  children?: ReactNode;
}

/**
 * A dialog for one administrative change: what it does, its own fields, the reason and ticket every
 * change needs (pre-filled with the last ones used on this page), and the refusal in words.
 */
export function JustifiedActionDialog<V extends object>(props: JustifiedActionDialogProps<V>) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<V & Justification>();
  const memory = useJustificationMemory();
  const submit = async (values: V & Justification) => {
    const justified = { ...values, ...justificationOf(values) };
    try {
      await props.onSubmit(justified);
      memory.remember(justificationOf(values));
    } catch {
      // shown from props.error
    }
  };
  const focusReturn = useFocusReturn(props.open);
  return (
    <Modal
      open={props.open}
      {...focusReturn}
      afterOpenChange={focusMarkedElement}
      title={props.title}
      onCancel={props.onClose}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={props.onClose}>
          {t('actions.cancel')}
        </Button>,
        <Button
          key="submit"
          type="primary"
          danger={props.danger}
          htmlType="submit"
          form={props.name}
          loading={props.pending}
          disabled={props.submitDisabled}
        >
          {props.pending ? props.submittingLabel : props.submitLabel}
        </Button>,
      ]}
    >
      {props.intro}
      <Form<V & Justification>
        name={props.name}
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ ...(memory.last ?? {}), ...props.initialValues } as V & Justification}
        onFinish={(values) => void submit(values)}
      >
        {props.fields}
        <JustificationFields reasonHelp={props.reasonHelp} autoFocus={!props.fields} />
      </Form>
      {props.children}
      {props.error ? <AdminErrorAlert error={props.error} title={props.failedTitle} /> : null}
    </Modal>
  );
}
