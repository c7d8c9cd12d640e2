import type { CreateBypassCodesResponse } from '@mfa-portal/shared';
import { useUser } from '../../../shell/contexts';
import { NewCodesPanel as SharedNewCodesPanel } from '../../../lib/bypass-codes/NewCodesPanel';

export { codesAsText } from '../../../lib/bypass-codes/NewCodesPanel';

/** The signed-in user's new codes, shown once (the shared panel, with the user as their owner). */
export function NewCodesPanel({ result, onDone }: { result: CreateBypassCodesResponse; onDone: () => void }) {
  const { user } = useUser();
  return <SharedNewCodesPanel result={result} onDone={onDone} owner={user?.upn ?? ''} />;
}
