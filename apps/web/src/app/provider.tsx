import { useState, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { AntdProvider } from '../lib/antd/AntdProvider';
import { createQueryClient } from '../lib/api/query-client';
import { useProfile } from '../lib/profile/get-profile';
import { StepUpProvider } from '../lib/step-up/step-up';
import { FlashProvider } from '../lib/ui/flash';

/** Keeps MfaDataContext in step with the server after every change (see useProfile). */
function ProfileSync() {
  useProfile();
  return null;
}

/**
 * The providers every screen of the main application runs under: server state (TanStack Query), Ant
 * Design, success banners and the one "Confirm it's you" dialog. The shell's contexts (user, token,
 * MFA data) are outside, set by the shell before it loads the main application.
 */
export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <AntdProvider>
        <FlashProvider>
          <StepUpProvider>
            <ProfileSync />
            {children}
          </StepUpProvider>
        </FlashProvider>
      </AntdProvider>
    </QueryClientProvider>
  );
}
