import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isChunkLoadError } from '../lazy-with-timeout';
import { ServiceDeskContact } from './ServiceDeskContact';

function RetryScreen({ chunk, onRetry }: { chunk: boolean; onRetry: () => void }) {
  const { t } = useTranslation('shell');
  return (
    <main className="page page--centered">
      <section className="card" role="alert" aria-labelledby="retry-heading">
        <h1 id="retry-heading" className="page__title">
          {chunk ? t('chunk.title') : t('chunk.other_title')}
        </h1>
        <p>{chunk ? t('chunk.body') : t('chunk.other_body')}</p>
        {chunk ? null : <ServiceDeskContact />}
        <div className="actions">
          <button type="button" className="button button--primary" onClick={onRetry}>
            {t('common:actions.retry')}
          </button>
        </div>
      </section>
    </main>
  );
}

interface Props {
  children: ReactNode;
  /** What Retry does; reloading fetches the chunk again (React.lazy caches a failed import). */
  onRetry?: () => void;
}

/** Catches a chunk that failed or timed out (and any other render error) and offers a Retry button. */
export class ChunkErrorBoundary extends Component<Props, { error: unknown }> {
  override state: { error: unknown } = { error: undefined };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('A part of the portal failed to load or render.', error, info.componentStack);
  }

  override render() {
    if (this.state.error === undefined) return this.props.children;
    return <RetryScreen chunk={isChunkLoadError(this.state.error)} onRetry={this.props.onRetry ?? (() => window.location.reload())} />;
  }
}
