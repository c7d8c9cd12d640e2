import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ADD_ROUTES, type AddableKinds } from './device-kinds';

/**
 * The advice on what to add, worded once (the `main` namespace, which every screen loads): the
 * recommendation sentence of the recommended kind, then a link to add each kind offered, in the
 * recommended order. Add a device, the overview and Help all show it, so they never disagree.
 */
export function RecommendationSentence({ advice }: { advice: AddableKinds }) {
  const { t } = useTranslation('main');
  return advice.recommended ? <>{t(`device_kinds.${advice.recommended}.advice`)}</> : null;
}

/** A link to add each kind offered, in the recommended order. */
export function AddKindLinks({ advice }: { advice: AddableKinds }) {
  const { t } = useTranslation('main');
  if (advice.kinds.length === 0) return null;
  return (
    <span className="inline-links">
      {advice.kinds.map((kind) => (
        <Link key={kind} to={ADD_ROUTES[kind]}>
          {t(`device_kinds.${kind}.add`)}
        </Link>
      ))}
    </span>
  );
}
