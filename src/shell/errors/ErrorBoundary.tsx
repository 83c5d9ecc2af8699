// Catches a render error so the user sees the 500 page with a way back instead of a blank page.
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { ServerErrorContent } from './ErrorPage';
import { Button } from '../../ui/Button';

interface BoundaryProps {
  /** Changes when the user navigates: the boundary then tries its children again. */
  resetKey: string;
  inLayout: boolean;
  children: ReactNode;
}

class Boundary extends Component<BoundaryProps, { error: unknown; key: string }> {
  state = { error: null as unknown, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { error: unknown; key: string }) {
    return props.resetKey === state.key ? null : { error: null, key: props.resetKey };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('A page failed to render:', error, info.componentStack);
  }

  render() {
    if (this.state.error === null) return this.props.children;
    const reset = () => this.setState({ error: null });
    const retry = (
      <Button variant="secondary" onClick={reset}>
        Try again
      </Button>
    );
    return <ServerErrorContent inLayout={this.props.inLayout} actions={retry} onLeave={reset} />;
  }
}

/** An error boundary that resets when the path changes. `inLayout` keeps the sidebar and header around it. */
export function ErrorBoundary({ inLayout = false, children }: { inLayout?: boolean; children: ReactNode }) {
  const [location] = useLocation();
  return (
    <Boundary resetKey={location} inLayout={inLayout}>
      {children}
    </Boundary>
  );
}
