/** Public surface of the enrolment campaigns feature: the banner shown after sign-in. */
export { CampaignBanner } from './components/CampaignBanner';
