import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Button, Form, Input } from 'antd';
import type { AdminUsersResponse } from '@mfa-portal/shared';
import { useUser } from '../../../shell/contexts';
import { usePortalRole } from '../../../lib/roles';
import { ADMIN_ROUTES } from '../../../lib/main-routes';
import { Loading } from '../../../lib/ui/Loading';
import { Page } from '../../../lib/ui/Page';
import { useSearchUsers } from '../api/search-users';
import { AdminErrorAlert } from '../components/AdminErrorAlert';
import { ReachNote } from '../components/ReachNote';

type UserRow = AdminUsersResponse['users'][number];

/** What is special about a row for the caller: their own account, a protected one, unknown roles. */
function RowNotes({ row }: { row: UserRow }) {
  const { t } = useTranslation('admin');
  const { user } = useUser();
  const role = usePortalRole();
  const notes: { text: string; tone: 'info' | 'neutral' | 'danger' }[] = [];
  if (user && row.upn === user.upn.toLowerCase()) notes.push({ text: t('search.you'), tone: 'info' });
  else if (row.protection.protected) {
    const text = row.protection.reason === 'roles_unknown' ? t('search.roles_unknown') : t('search.protected');
    notes.push({ text, tone: role === 'solution_admin' ? 'neutral' : 'danger' });
  }
  if (notes.length === 0) return <>–</>;
  return (
    <>
      {notes.map((n) => (
        <span key={n.text} className={`badge badge--${n.tone}`}>
          {n.text}
        </span>
      ))}
    </>
  );
}

/** One page of results, with "Next page" (cursor) and "Previous page" (the cursors seen so far). */
function Results({ q }: { q: string }) {
  const { t } = useTranslation(['admin', 'main']);
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const search = useSearchUsers(q, cursor);
  if (search.isPending) return <Loading label={t('search.loading')} />;
  if (search.isError) return <AdminErrorAlert error={search.error} title={t('search.failed')} onRetry={() => void search.refetch()} />;
  const { users, nextCursor } = search.data;
  if (users.length === 0 && cursors.length === 0) {
    return (
      <div className="empty-state" role="status">
        <p className="empty-state__title">{q ? t('search.empty_title', { q }) : t('search.empty_all_title')}</p>
        <p>{t('search.empty_body')}</p>
      </div>
    );
  }
  const first = cursors.length * users.length;
  return (
    <section aria-labelledby="results-heading" className="section">
      <h2 id="results-heading">{q ? t('search.results_title', { q }) : t('search.results_all_title')}</h2>
      <p role="status" className="form-note">
        {search.isPlaceholderData ? t('search.loading') : t('search.page_of_results', { page: cursors.length + 1, count: users.length })}
      </p>
      <div className="table-wrap" role="region" aria-label={t('search.table_label')} tabIndex={0}>
        <table className="data-table">
          <caption className="visually-hidden">{t('search.table_label')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('search.col_name')}</th>
              <th scope="col">{t('search.col_upn')}</th>
              <th scope="col">{t('search.col_email')}</th>
              <th scope="col">{t('search.col_status')}</th>
              <th scope="col">{t('search.col_notes')}</th>
            </tr>
          </thead>
          <tbody>
            {users.map((row) => (
              <tr key={row.upn}>
                <td>
                  <Link to={ADMIN_ROUTES.user(row.upn)}>{row.realName || row.upn}</Link>
                </td>
                <td>{row.upn}</td>
                <td>{row.email || '–'}</td>
                <td>
                  <span className={`status-badge status-badge--${row.status}`}>{t(`main:status.label.${row.status}`)}</span>
                </td>
                <td>
                  <RowNotes row={row} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="actions pager">
        {cursors.length > 0 ? <Button onClick={() => setCursors((c) => c.slice(0, -1))}>{t('search.previous_page')}</Button> : null}
        {nextCursor ? (
          <Button onClick={() => setCursors((c) => [...c, nextCursor])} loading={search.isFetching && search.isPlaceholderData}>
            {t('search.next_page')}
          </Button>
        ) : (
          <span className="form-note">{first + users.length > 0 ? t('search.end') : null}</span>
        )}
      </div>
    </section>
  );
}

/**
 * Find a user by part of their name, sign-in name or e-mail address (an empty search lists everyone,
 * page by page). The search is kept in the address (?q=), so "back" returns to the same results.
 */
export function UserSearchPage() {
  const { t } = useTranslation('admin');
  const [params, setParams] = useSearchParams();
  const q = params.get('q');
  const [form] = Form.useForm<{ q: string }>();
  return (
    <Page
      title={t('search.title')}
      intro={
        <>
          <p>{t('search.intro')}</p>
          <ReachNote />
        </>
      }
    >
      <Form
        name="user-search"
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ q: q ?? '' }}
        onFinish={({ q: value }) => setParams({ q: (value ?? '').trim() })}
        className="search-form"
        role="search"
      >
        <Form.Item name="q" label={t('search.query_label')} extra={t('search.query_help')}>
          <Input type="search" maxLength={100} autoComplete="off" />
        </Form.Item>
        <Button type="primary" htmlType="submit">
          {t('search.submit')}
        </Button>
      </Form>
      {q !== null ? <Results key={q} q={q} /> : null}
    </Page>
  );
}
