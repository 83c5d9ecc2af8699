// The built-in map: used without a Google Maps key, while the script loads, and whenever it cannot load
// (always offline and in tests). It draws the same markers and routes on a projected SVG.
import { useEffect, useId, useRef, useState } from 'react';
import { fitProjection, gridLines } from './projection';
import type { MapMarker, MapRoute } from './mapTypes';

const DEFAULT_VIEW_WIDTH = 640;

/** The element's rendered width, so the projection fits the box the map really has (no cropping). */
function useMeasuredWidth(fallback: number) {
  const ref = useRef<SVGSVGElement>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const measured = Math.round(entry.contentRect.width);
      if (measured > 0) setWidth(measured);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

export function SvgMap({ markers, routes = [], height, onMarkerClick }: {
  markers: readonly MapMarker[];
  routes?: readonly MapRoute[];
  height: number;
  onMarkerClick?: (marker: MapMarker) => void;
}) {
  const clipId = useId();
  const { ref, width: viewWidth } = useMeasuredWidth(DEFAULT_VIEW_WIDTH);
  const points = [...markers, ...routes.flatMap((route) => route.points)];
  const { project, bounds } = fitProjection(points, viewWidth, height);
  const latLines = gridLines(bounds.south, bounds.north);
  const lngLines = gridLines(bounds.west, bounds.east);
  const label = markers.length === 1 ? `Map showing ${markers[0].title ?? 'one location'}` : `Map showing ${markers.length} locations`;

  return (
    <svg
      ref={ref}
      role="img"
      aria-label={label}
      data-testid="svg-map"
      data-marker-count={markers.length}
      viewBox={`0 0 ${viewWidth} ${height}`}
      preserveAspectRatio="xMidYMid meet"
      className="block w-full rounded-lg border border-slate-200 dark:border-slate-700"
      style={{ height }}
    >
      <defs>
        <clipPath id={clipId}>
          <rect width={viewWidth} height={height} />
        </clipPath>
      </defs>
      <g clipPath={`url(#${clipId})`}>
        <rect width={viewWidth} height={height} className="fill-emerald-50 dark:fill-slate-800" />
        {latLines.map((lat) => {
          const { y } = project({ lat, lng: bounds.west });
          return <line key={`lat${lat}`} x1={0} x2={viewWidth} y1={y} y2={y} className="stroke-emerald-200 dark:stroke-slate-700" strokeWidth={1} />;
        })}
        {lngLines.map((lng) => {
          const { x } = project({ lat: bounds.south, lng });
          return <line key={`lng${lng}`} x1={x} x2={x} y1={0} y2={height} className="stroke-emerald-200 dark:stroke-slate-700" strokeWidth={1} />;
        })}
        {routes.map((route) => (
          <polyline
            key={route.id}
            data-testid="map-route"
            points={route.points.map((point) => {
              const { x, y } = project(point);
              return `${x.toFixed(1)},${y.toFixed(1)}`;
            }).join(' ')}
            fill="none"
            stroke={route.color ?? '#0284c7'}
            strokeWidth={3}
            strokeLinejoin="round"
            strokeOpacity={0.8}
          >
            {route.title && <title>{route.title}</title>}
          </polyline>
        ))}
        {markers.map((marker) => {
          const { x, y } = project(marker);
          return (
            <g
              key={marker.id}
              data-testid="map-marker"
              transform={`translate(${x.toFixed(1)} ${y.toFixed(1)})`}
              onClick={onMarkerClick ? () => onMarkerClick(marker) : undefined}
              className={onMarkerClick ? 'cursor-pointer' : undefined}
            >
              {marker.title && <title>{marker.title}</title>}
              <path d="M0 0 C-7 -10 -9 -13 -9 -17 A9 9 0 1 1 9 -17 C9 -13 7 -10 0 0 Z" fill={marker.color ?? '#e11d48'} stroke="white" strokeWidth={1.5} />
              {marker.label ? (
                // A pin for several stops ("1,4") sets its numbers smaller to stay inside the pin.
                <text y={-13} textAnchor="middle" fontSize={marker.label.length > 2 ? 7 : 10} fontWeight={600} fill="white">
                  {marker.label}
                </text>
              ) : (
                <circle cy={-17} r={3} fill="white" />
              )}
            </g>
          );
        })}
      </g>
    </svg>
  );
}
