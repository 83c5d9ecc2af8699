import { ServerErrorContent } from './ErrorPage';

export default function ServerErrorPage() {
  return <ServerErrorContent />;
}
